/**
 * cmd/kubelet/app/server.go parseResourceList: only cpu, memory,
 * ephemeral-storage and pid can be reserved; anything else stops the
 * kubelet with `cannot reserve "X" resource`.
 */
import { finding, type Finding } from '../model/finding.ts';
import { RESERVABLE_RESOURCES } from '../catalog/defaults.ts';
import { closest } from './lib/suggest.ts';
import { label, reservedEntries } from './lib/reservations.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

export const reservedResourceUnknown: Rule = {
  id: 'reserved-resource-unknown',
  summary: 'a reservation names a resource the kubelet cannot reserve',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces a near-miss with the resource it resembles (e.g. `memroy` → `memory`)',
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    for (const { field, flag, item } of reservedEntries(node)) {
      if (item.key === undefined || (RESERVABLE_RESOURCES as readonly string[]).includes(item.key) || !item.keySpan) continue;
      const guess = closest(item.key, RESERVABLE_RESOURCES);
      out.push(
        finding(
          'reserved-resource-unknown',
          'error',
          item.keySpan,
          `"${item.key}" cannot be reserved: the kubelet refuses to start. ${label(field, flag, item)} reserves it (cannot reserve "${item.key}" resource). ` +
            `Reservable resources: ${RESERVABLE_RESOURCES.join(', ')}.${guess ? ` Did you mean "${guess}"?` : ''}`,
          guess
            ? oneFix(`Change to "${guess}"`, replaceWord(item.keySpan, item.key, guess))
            : undefined,
        ),
      );
    }
    return out;
  },
};
