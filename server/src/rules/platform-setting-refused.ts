/**
 * Settings a platform tool refuses: each platform lists them in its folder (PlatformSemantics.refused, refusedFlags,
 * with the tool's own words and source), and this rule reports them where the user wrote them.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Rule } from './types.ts';
import type { MapEntry } from '../parse/types.ts';

export const platformSettingRefused: Rule = {
  id: 'platform-setting-refused',
  summary: 'a kubelet field or flag the platform tool manages itself and refuses to take from you',
  severity: 'error',
  fix: false,
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    const spec = node.platformSpec;
    if (!spec || !node.platform) return out;
    const refused = spec.refused?.(node.platform) ?? [];
    for (const doc of node.kubeletConfigs) {
      for (const r of refused) {
        const entry = entryAt(doc.root.entries, r.field.split('.'));
        if (entry) out.push(finding('platform-setting-refused', 'error', entry.keySpan, r.message));
      }
    }
    for (const f of node.flags) {
      const message = f.from === 'kubeadm-extra-args' ? spec.refusedFlags?.get(f.name) : undefined;
      if (message) out.push(finding('platform-setting-refused', 'error', f.nameWord.span, message));
    }
    return out;
  },
};

function entryAt(entries: readonly MapEntry[], path: readonly string[]): MapEntry | undefined {
  const e = entries.find((x) => x.key === path[0]);
  if (!e || path.length === 1) return e;
  return e.value.kind === 'map' ? entryAt(e.value.entries, path.slice(1)) : undefined;
}
