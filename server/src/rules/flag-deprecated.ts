/**
 * Every kubelet flag that has a KubeletConfiguration field is deprecated in
 * favour of --config (cmd/kubelet/app/options/options.go). Still works; a hint.
 */
import { finding, type Finding } from '../model/finding.ts';
import { flagStatusAt } from '../catalog/flags.ts';
import { flagCounts, migrationFix } from './lib/migrate.ts';
import type { Rule } from './types.ts';

export const flagDeprecated: Rule = {
  id: 'flag-deprecated',
  summary: 'the flag still works but is deprecated; prefer the config file field',
  severity: 'hint',
  fix: true,
  fixDoes: 'moves the flag into the --config file as its field (removes the flag, writes the same value), where the effective value provably stays the same',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    let counts: Map<string, number> | undefined;
    for (const f of node.flags) {
      if (f.from !== 'command-line') continue;
      const info = f.info;
      if (!info || flagStatusAt(info, node.kubernetesVersion) !== 'deprecated') continue;
      const eq = f.nameWord.text.indexOf('=');
      const span = f.nameWord.map.span(0, eq === -1 ? f.nameWord.text.length : eq);
      const instead = info.field ? `set ${info.field} in the KubeletConfiguration file instead` : info.replacement ? `use ${info.replacement} instead` : 'it may be removed in a later release';
      counts ??= flagCounts(node);
      const fix = migrationFix(node, f, info, counts);
      // Struck through in the editor only when its removal is scheduled (a known version); a flag that
      // merely has a config field keeps working.
      const removal = info.removedIn ? ` and will be removed in Kubernetes ${info.removedIn}` : '';
      out.push(
        finding('flag-deprecated', 'hint', span, `--${f.name} is deprecated${info.deprecatedIn ? ` since ${info.deprecatedIn}` : ''}${removal}. ${instead[0].toUpperCase()}${instead.slice(1)}.`, {
          ...(fix ? { fixes: [fix] } : {}),
          ...(info.removedIn ? { tags: ['deprecated' as const] } : {}),
        }),
      );
    }
    return out;
  },
};
