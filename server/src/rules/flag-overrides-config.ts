/**
 * cmd/kubelet/app/server.go kubeletConfigFlagPrecedence: the kubelet loads
 * --config, then re-applies the command-line flags over it, so a flag wins.
 * Map flags clear the map on their first Set: `--system-reserved=cpu=1`
 * throws away every other key of the file's systemReserved. Feature gates
 * are the exception: they merge.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Rule } from './types.ts';

export const flagOverridesConfig: Rule = {
  id: 'flag-overrides-config',
  summary: 'a flag replaces a value the KubeletConfiguration file sets',
  severity: ['warning', 'information'],
  fix: false,
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
        }),
      );
    }
    return out;
  },
};
