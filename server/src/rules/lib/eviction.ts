/** Shared reading of the eviction maps for the eviction rules. */
import type { Item, NodeModel } from '../../node/model.ts';
import { mapItems } from '../../node/read.ts';

export const EVICTION_MAPS = [
  { field: 'evictionHard', flag: 'eviction-hard', thresholds: true },
  { field: 'evictionSoft', flag: 'eviction-soft', thresholds: true },
  { field: 'evictionSoftGracePeriod', flag: 'eviction-soft-grace-period', thresholds: false },
  { field: 'evictionMinimumReclaim', flag: 'eviction-minimum-reclaim', thresholds: false },
] as const;

export function evictionEntries(node: NodeModel): { field: string; flag: string; thresholds: boolean; item: Item }[] {
  const out = [];
  // not `{ ...m, item }`: a spread costs ~1 µs here
  for (const m of EVICTION_MAPS) for (const item of mapItems(node, m.field)) out.push({ field: m.field, flag: m.flag, thresholds: m.thresholds, item });
  return out;
}

/** How the user wrote the setting: `--eviction-hard` or `evictionHard`. */
export function written(field: string, flag: string, item: Item): string {
  return item.from.how === 'flag' || item.from.how === 'kubeadm-extra-args' ? `--${flag}` : field;
}
