/**
 * A flag removed from the kubelet is an unknown flag to it: startup fails with
 * `unknown flag: --X` (kubelet-facts §4 lists when each one went).
 */
import { finding, type Finding } from '../model/finding.ts';
import { flagStatusAt } from '../catalog/flags.ts';
import type { Rule } from './types.ts';

export const flagRemoved: Rule = {
  id: 'flag-removed',
  summary: 'the flag was removed from the kubelet of the target version',
  severity: 'error',
  fix: true,
  fixDoes: 'deletes the flag when it stands alone on the line as `--name=value`',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    for (const f of node.flags) {
      const info = f.info;
      if (!info || flagStatusAt(info, node.kubernetesVersion) !== 'removed') continue;
      const nameSpan = f.nameWord.map.span(0, Math.min(f.nameWord.text.length, (f.nameWord.text.indexOf('=') + 1 || f.nameWord.text.length + 1) - 1));
      const instead = replacementText(info.replacement);
      const span = f.valueWord ? f.span : f.nameWord.span;
      const wholeWord = f.nameWord.span;
      out.push(
        finding(
          'flag-removed',
          'error',
          nameSpan,
          // 34 old flags have no recorded release (kubelet-facts §4 lists them as removed long ago).
          `--${f.name} was removed ${info.removedIn === undefined ? 'from the kubelet long ago' : `${info.approximate ? 'by' : 'in'} Kubernetes ${info.removedIn}`}: a ${node.kubernetesVersion} kubelet refuses to start. ` +
            `It fails with "unknown flag: --${f.name}"${info.approximate ? ` (${info.removedIn} no longer has it; the exact release that dropped it is not recorded)` : ''}.${instead}`,
          // Deleting the flag is safe only when it is written literally on one line of its own.
          f.from === 'command-line' && !f.nameWord.via && !f.valueWord && wholeWord.range.start.line === wholeWord.range.end.line && span === wholeWord
            ? { fixes: [{ title: `Remove --${f.name}`, edits: [{ file: wholeWord.file, range: wholeWord.range, newText: '' }] }] }
            : undefined,
        ),
      );
    }
    return out;
  },
};

/** The tables write "no direct replacement" as "- (why)". */
function replacementText(r: string | undefined): string {
  if (!r) return '';
  const none = /^-\s*(?:\((.*)\))?$/.exec(r.trim());
  if (none) return none[1] ? ` There is no replacement flag: ${none[1]}.` : '';
  return ` Instead: ${r}.`;
}
