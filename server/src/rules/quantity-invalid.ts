/**
 * Reservations (server.go parseResourceList) and eviction thresholds
 * (eviction/helpers.go parseThresholdStatement) must be resource.Quantity
 * strings; the kubelet refuses to start on one it cannot parse.
 */
import { finding, type Finding } from '../model/finding.ts';
import { parseQuantity } from '../quantity/quantity.ts';
import type { Item, NodeModel } from '../node/model.ts';
import { mapItems } from '../node/read.ts';
import { label, reservedEntries } from './lib/reservations.ts';
import type { Rule } from './types.ts';

const EVICTION_FIELDS = [
  { field: 'evictionHard', flag: 'eviction-hard' },
  { field: 'evictionSoft', flag: 'eviction-soft' },
  { field: 'evictionMinimumReclaim', flag: 'eviction-minimum-reclaim' },
];

export function quantityValues(node: NodeModel): { what: string; item: Item; percentOk: boolean }[] {
  const out = reservedEntries(node).map(({ field, flag, item }) => ({ what: label(field, flag, item), item, percentOk: false }));
  for (const e of EVICTION_FIELDS) {
    for (const item of mapItems(node, e.field)) out.push({ what: label(e.field, e.flag, item), item, percentOk: true });
  }
  return out;
}

export const quantityInvalid: Rule = {
  id: 'quantity-invalid',
  summary: 'a reservation or eviction threshold is not a valid resource quantity',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    for (const { what, item, percentOk } of quantityValues(node)) {
      if (typeof item.value !== 'string' || !item.valueSpan) continue; // non-strings: config-field-type
      const text = item.value;
      if (percentOk && text.endsWith('%')) continue; // percentages: eviction rules
      const q = parseQuantity(text);
      if (q.ok) continue;
      out.push(
        finding(
          'quantity-invalid',
          'error',
          item.valueSpan,
          `${what} ${item.key}="${item.template ? item.text : text}" is not a quantity: the kubelet refuses to start. It reports ${q.error}. ` +
            `${item.template ? 'Its literal part is wrong whatever the template expression gives (checked with a number in its place). ' : ''}Write a number with an optional suffix: 500m, 2, 1.5Gi, 512Mi, 10G${percentOk ? ', or a percentage such as 10%' : ''}.`,
        ),
      );
    }
    return out;
  },
};
