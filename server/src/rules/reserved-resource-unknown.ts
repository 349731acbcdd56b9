/**
 * cmd/kubelet/app/server.go parseResourceList: only cpu, memory,
 * ephemeral-storage and pid can be reserved; anything else stops the
 * kubelet with `cannot reserve "X" resource`.
 */
import { finding, type Finding } from '../model/finding.ts';
import { RESERVABLE_RESOURCES } from '../catalog/defaults.ts';
import { closest } from '../catalog/suggest.ts';
import { label, reservedEntries } from './lib/reservations.ts';
import type { Rule } from './types.ts';
import type { NodeModel } from '../node/model.ts';
import { replaceWord } from './lib/edit.ts';
import { removeMapItem } from './lib/remove-item.ts';
import type { Fix } from '../model/finding.ts';

export const reservedResourceUnknown: Rule = {
  id: 'reserved-resource-unknown',
  summary: 'a reservation names a resource the kubelet cannot reserve',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces a near-miss with the resource it resembles (e.g. `memroy` → `memory`) when the map does not reserve that resource yet; otherwise, and for a real resource that cannot be reserved (`gpu`, `nvidia.com/gpu`, `hugepages-2Mi`), removes the entry',
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const entries = reservedEntries(node);
    // The kubelet reads the map into a Go map: a key written twice keeps its last value and is refused once. One
    // finding, on the last; the fix edits that one (a fix on an earlier one left the error in place, `npm run fuzz`).
    const last = new Map<string, (typeof entries)[number]['item']>();
    for (const e of entries) last.set(`${e.field}\0${e.item.key}`, e.item);
    for (const { field, flag, item } of entries) {
      if (item.key === undefined || (RESERVABLE_RESOURCES as readonly string[]).includes(item.key) || !item.keySpan) continue;
      if (last.get(`${field}\0${item.key}`) !== item) continue;
      const earlier = entries.filter((e) => e.field === field && e.item.key === item.key && e.item !== item && e.item.keySpan);
      // A resource the map already reserves is no candidate: renaming onto it would write a duplicate key and change
      // that reservation (gpu -> cpu next to cpu: 500m raises the CPU reservation to the gpu's value).
      // A platform tool's own key (Karpenter's assumed memory) is no obstacle: the user's map merges over it.
      const taken = new Set<string | undefined>(entries.filter((e) => e.field === field && e.item.from.how !== 'platform').map((e) => e.item.key));
      for (const x of shadowedKeys(node, field)) taken.add(x);
      const guess = isResourceName(item.key) ? undefined : closest(item.key, RESERVABLE_RESOURCES.filter((r) => !taken.has(r)));
      const fixes: Fix[] = [];
      const rename = guess ? replaceWord(item.keySpan, item.key, guess) : undefined;
      if (rename) fixes.push({ title: `Change to "${guess}"`, edits: [rename], preferred: true });
      const remove = removeMapItem(node, item);
      if (remove) fixes.push({ title: `Remove "${item.key}"`, edits: [remove], preferred: !rename });
      out.push(
        finding(
          'reserved-resource-unknown',
          'error',
          item.keySpan,
          `"${item.key}" cannot be reserved: the kubelet refuses to start. ${label(field, flag, item)} reserves it (cannot reserve "${item.key}" resource). ` +
            `Reservable resources: ${RESERVABLE_RESOURCES.join(', ')}.${guess ? ` Did you mean "${guess}"?` : ''}`,
          {
            ...(fixes.length > 0 ? { fixes } : {}),
            ...(earlier.length ? { related: earlier.map((e) => ({ span: e.item.keySpan!, message: `"${item.key}" written earlier too (the later one counts)` })) } : {}),
          },
        ),
      );
    }
    return out;
  },
};

/** Keys of a file's map that a flag replaced: renaming onto one of them would change what the file says too. */
function shadowedKeys(node: NodeModel, field: string): (string | undefined)[] {
  const s = node.shadowed.get(field);
  return s?.kind === 'map' ? s.items.map((i) => i.key) : [];
}

/**
 * Names of real resources that cannot be reserved (a GPU, pods, hugepages, an extended resource such as
 * nvidia.com/gpu): no typo of a reservable one, so the fix removes them instead of renaming "gpu" to "cpu".
 */
function isResourceName(key: string): boolean {
  return /^(gpus?|pods|storage|hugepages-.*)$/i.test(key) || key.includes('/');
}
