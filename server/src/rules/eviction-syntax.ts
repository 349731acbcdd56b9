/**
 * eviction/helpers.go parseThresholdStatement / parsePercentage: a threshold
 * is a positive quantity or a percentage; anything else stops the kubelet.
 * (Invalid and negative quantities have their own rules; this covers
 * unparsable percentages and zero quantities.)
 */
import { finding, type Finding } from '../model/finding.ts';
import { parseThresholdValue, rawPercentage } from '../quantity/threshold.ts';
import { parseQuantity, isZero } from '../quantity/quantity.ts';
import { evictionEntries, written } from './lib/eviction.ts';
import type { Rule } from './types.ts';

export const evictionSyntax: Rule = {
  id: 'eviction-syntax',
  summary: 'an eviction threshold is neither a positive quantity nor a percentage',
  severity: 'error',
  fix: false,
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    for (const { field, flag, thresholds, item } of evictionEntries(node)) {
      if (!thresholds || typeof item.value !== 'string' || !item.valueSpan) continue;
      const text = item.value;
      let problem: string | undefined;
      if (text.endsWith('%')) {
        const raw = rawPercentage(text);
        if (!raw.ok) problem = `"${text}" is not a percentage (${raw.error})`;
      } else {
        const q = parseQuantity(text);
        if (q.ok && isZero(q.q)) {
          const v = parseThresholdValue(text, item.key);
          if (v.kind === 'error') problem = v.error;
        }
      }
      if (!problem) continue;
      out.push(
        finding('eviction-syntax', 'error', item.valueSpan, `${written(field, flag, item)} ${item.key}: ${problem}; the kubelet refuses to start.`),
      );
    }
    return out;
  },
};
