/**
 * cmd/kubelet/app/server.go kubeletConfigFlagPrecedence: the kubelet loads
 * --config, then re-applies the command-line flags over it, so a flag wins.
 * Map flags clear the map on their first Set: `--system-reserved=cpu=1`
 * throws away every other key of the file's systemReserved. Feature gates
 * are the exception: they merge.
 */
import { finding, type Finding, type Fix } from '../model/finding.ts';
import type { Span } from '../model/range.ts';
import { flagInfo } from '../catalog/flags.ts';
import type { Item, NodeModel } from '../node/model.ts';
import type { Rule } from './types.ts';

export const flagOverridesConfig: Rule = {
  id: 'flag-overrides-config',
  summary: 'a flag replaces a value the KubeletConfiguration file sets',
  severity: ['warning', 'information'],
  fix: true,
  fixDoes: 'writes the keys a map flag drops into the flag (`--system-reserved=cpu=1,memory=1Gi`), so the file\'s values are kept',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    for (const [field, old] of node.shadowed) {
      const now = node.settings.get(field);
      if (!now?.from.span || !now.from.flag) continue;
      // An empty value (`featureGates:` with nothing under it, `~`, null) decodes to JSON null, which leaves the
      // field at its zero value: the file sets nothing for the flag to override.
      if (old.kind === 'scalar' && old.value === null) continue;
      const where = old.from.span ? `${old.from.span.file} line ${old.from.span.range.start.line + 1}` : 'the config file';
      let message: string;
      // Keys the flag silently drops from the file change the node; an override the user can see is information.
      let severity: 'warning' | 'information' = 'information';
      let fix: Fix | undefined;
      if (old.kind === 'map' && now.kind === 'map') {
        const kept = new Set(now.items.map((i) => i.key));
        const lost = old.items.filter((i) => !kept.has(i.key));
        const changed = old.items.filter((i) => kept.has(i.key) && now.items.find((n) => n.key === i.key)?.text !== i.text);
        if (now.from.flag === 'feature-gates') {
          if (changed.length === 0) continue;
          message = `--feature-gates overrides ${changed.map((i) => i.key).join(', ')} from ${where}; the other gates of the file still apply.`;
        } else if (lost.length > 0) {
          severity = 'warning';
          message =
            `${field} ${lost.map((i) => `${i.key}=${i.text}`).join(', ')} ${lost.length === 1 ? 'is' : 'are'} silently dropped by --${now.from.flag}. ` +
            `The flag replaces the config file's whole ${field} (${where}): a map flag clears the file's map. Put every key in one place.`;
          fix = addToFlag(node, now.from.span, now.from.flag, lost, now.items.length);
        } else if (changed.length > 0) {
          message = `--${now.from.flag} overrides ${field} ${changed.map((i) => `${i.key}=${i.text}`).join(', ')} of ${where}.`;
        } else continue;
      } else {
        const was = old.kind === 'scalar' ? old.text : old.kind === 'list' ? `[${old.items.map((i) => i.text).join(', ')}]` : '…';
        const is = now.kind === 'scalar' ? now.text : now.kind === 'list' ? `[${now.items.map((i) => i.text).join(', ')}]` : '…';
        if (was === is) {
          message = `--${now.from.flag} repeats ${field}: ${is} of ${where}; one of them can go.`;
        } else {
          message = `--${now.from.flag}=${is} wins over ${field}: ${was} of ${where} (the kubelet applies flags after the config file).`;
        }
      }
      out.push(
        finding('flag-overrides-config', severity, now.from.span, message, {
          related: old.from.span ? [{ span: old.from.span, message: `the config file's ${field}, overridden` }] : undefined,
          fixes: fix ? [fix] : undefined,
        }),
      );
    }
    return out;
  },
};

/**
 * The keys the flag drops, appended to its value (`,memory=1Gi`): the node then keeps what the file said, and every
 * key is in one place. Only where the value is written character for character on one line (a plain or quoted
 * word or YAML scalar) and the keys and values need no quoting.
 */
function addToFlag(node: NodeModel, span: Span, flag: string, lost: readonly Item[], read: number): Fix | undefined {
  const f = node.flags.find((x) => x.span === span);
  const syntax = flagInfo(flag)?.syntax;
  if (!f || f.value === undefined || f.value === '' || syntax?.type !== 'map') return undefined;
  const sep = syntax.form === 'signal<value' ? '<' : '=';
  // Only onto a value the kubelet reads whole (each pair one of the map's items): appending to a malformed one
  // (`memory.available<0` where `=` belongs) would leave the keys dropped all the same.
  const parts = f.value.split(',');
  if (parts.length !== read || parts.some((p) => !p.includes(sep))) return undefined;
  const pairs = lost.map((i) => `${i.key}${sep}${i.text}`);
  if (lost.some((i) => i.key === undefined || i.nested || i.template) || pairs.some((p) => /[\s,"'\\$`]/.test(p))) return undefined;
  const r = f.valueSpan.range;
  const width = r.end.character - r.start.character;
  const inner = width === f.value.length ? 0 : width === f.value.length + 2 ? 1 : -1;
  if (r.start.line !== r.end.line || inner < 0) return undefined;
  const at = { line: r.start.line, character: r.start.character + inner + f.value.length };
  const text = pairs.join(',');
  return { title: `Add ${text} to --${flag}, as the config file had ${lost.length === 1 ? 'it' : 'them'}`, edits: [{ file: f.valueSpan.file, range: { start: at, end: at }, newText: `,${text}` }], preferred: true };
}
