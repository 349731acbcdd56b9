/**
 * kubeletconfig/util/codec/codec.go: strict decoding fails on an unknown
 * field, and the kubelet falls back to lenient decoding that only logs it.
 * The setting is silently ignored (a misspelt resolvConf stays at its default).
 */
import { finding, type Finding } from '../model/finding.ts';
import { fieldInfo, topLevelFields } from '../catalog/fields.ts';
import { closest } from '../catalog/suggest.ts';
import type { Rule } from './types.ts';
import { once } from '../catalog/lazy.ts';
import { oneFix, replaceWord } from './lib/edit.ts';
import { valueFitsField } from './lib/field-shape.ts';
import { compareVersions } from '../catalog/flags.ts';

/** Top-level field names, built on first use (a table, never changed after). */
const fieldNames = once((): readonly string[] => topLevelFields().map((f) => f.path));

export const configFieldUnknown: Rule = {
  id: 'config-field-unknown',
  summary: 'a KubeletConfiguration field the kubelet does not know is ignored',
  severity: 'warning',
  fix: true,
  fixDoes: 'renames the field to the known one it resembles (e.g. `maxpods` → `maxPods`)',
  area: 'flags-fields',
  run({ node, versionForFixes }) {
    const out: Finding[] = [];
    const names = fieldNames();
    for (const doc of node.kubeletConfigs) {
      for (const e of doc.root.entries) {
        if (fieldInfo(e.key)) continue;
        const guess = closest(e.key, names, 4);
        // Renaming makes the value count: offered only when the field takes it (no config-field-type error, no
        // invalid enum value), the document does not set that field already and the target kubelet knows it.
        const since = guess ? fieldInfo(guess)?.since : undefined;
        const safe =
          guess !== undefined &&
          valueFitsField(guess, e.value) &&
          !doc.root.entries.some((x) => x.key === guess) &&
          !(since && compareVersions(versionForFixes, since) < 0);
        out.push(
          finding(
            'config-field-unknown',
            'warning',
            e.keySpan,
            `KubeletConfiguration has no field "${e.key}": the kubelet logs it and ignores the setting, so it has no effect.${guess ? ` Did you mean "${guess}"?` : ''}`,
            guess && safe ? oneFix(`Rename to "${guess}"`, replaceWord(e.keySpan, e.key, guess)) : undefined,
          ),
        );
      }
    }
    return out;
  },
};
