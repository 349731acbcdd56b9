/**
 * A map of the user's that replaces a platform tool's default map whole, so the tool's keys it does not name are
 * lost. Talos fills systemReserved only when the user's map is empty (siderolabs/talos
 * internal/app/machined/pkg/controllers/k8s/kubelet_spec.go, `len(config.SystemReserved) == 0`; Talos v1.14);
 * a kubelet map flag replaces the map of the config file nodeadm writes (cmd/kubelet/app/server.go re-applies
 * flags over the file; nodeadm v20260724). evictionHard is eviction-defaults-dropped's.
 */
import { finding, type Finding } from '../model/finding.ts';
import { describe } from '../node/provenance.ts';
import type { Rule } from './types.ts';
import { appendToBlockMap } from './lib/insert.ts';

const andList = (xs: readonly string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

export const platformDefaultMapReplaced: Rule = {
  id: 'platform-default-map-replaced',
  summary: "a map you set replaces the platform tool's default map, and the tool's keys you leave out are lost",
  severity: 'warning',
  fix: true,
  fixDoes: "adds the platform's lost keys back to your map",
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    for (const r of node.platformReplaced ?? []) {
      if (r.field === 'evictionHard') continue;
      const span = r.by.from.span;
      if (!span || r.by.kind !== 'map') continue;
      const have = new Set(r.by.items.map((i) => i.key));
      const lost = r.base.items.filter((i) => !have.has(i.key));
      if (lost.length === 0) continue;
      const tool = node.platformSpec?.name ?? 'the platform';
      const keys = andList(lost.map((i) => i.key ?? ''));
      const where = r.base.from.label ? ` (${r.base.from.label})` : '';
      const last = r.by.items.at(-1)?.keySpan;
      const add = last && (r.by.from.how === 'config' || r.by.from.how === 'config-dir') ? appendToBlockMap(node, span, last, lost.map((i) => `${i.key}: ${JSON.stringify(i.text)}`).join(`\n${' '.repeat(last.range.start.character)}`)) : undefined;
      out.push(
        finding(
          'platform-default-map-replaced',
          'warning',
          span,
          `This ${r.field} replaces ${tool}'s whole default map: ${keys} ${lost.length === 1 ? 'is' : 'are'} no longer reserved. ` +
            `${tool} reserves ${andList(lost.map((i) => `${i.key} ${i.text}`))} only while you set no ${r.field} of your own${where}. Add the keys you want to keep.`,
          add ? { fixes: [{ title: `Add ${tool}'s ${keys} back to ${r.field} (${lost.map((i) => `${i.key}: ${i.text}`).join(', ')})`, edits: [add], preferred: true }] } : undefined,
        ),
      );
    }
    return out;
  },
};
