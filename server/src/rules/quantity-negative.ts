/**
 * server.go parseResourceList: a negative reservation is rejected
 * (`resource quantity for "X" cannot be negative`); eviction/helpers.go
 * rejects negative thresholds (`must be positive`). Zero is allowed.
 */
import { finding, type Finding } from '../model/finding.ts';
import { canonical, isNegative, parseQuantity } from '../quantity/quantity.ts';
import { quantityValues } from './quantity-invalid.ts';
import type { Rule } from './types.ts';

export const quantityNegative: Rule = {
  id: 'quantity-negative',
  summary: 'a reservation or eviction threshold is negative',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    for (const { what, item } of quantityValues(node)) {
      if (typeof item.value !== 'string' || !item.valueSpan || item.value.endsWith('%')) continue;
      const q = parseQuantity(item.value);
      if (!q.ok || !isNegative(q.q)) continue;
      out.push(
        finding(
          'quantity-negative',
          'error',
          item.valueSpan,
          `${what} ${item.key}=${item.value} is negative (${canonical(q.q)}); the kubelet refuses to start. Use 0 to reserve nothing.`,
        ),
      );
    }
    return out;
  },
};
