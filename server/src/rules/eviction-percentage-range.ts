/**
 * eviction/helpers.go parseThresholdStatement: a percentage must lie in
 * [0%, 100%] (`eviction percentage threshold X must be >= 0%` / `<= 100%`).
 */
import { finding, type Finding } from '../model/finding.ts';
import { parsePercentage, rawPercentage } from '../quantity/threshold.ts';
import { evictionEntries, written } from './lib/eviction.ts';
import type { Rule } from './types.ts';

export const evictionPercentageRange: Rule = {
  id: 'eviction-percentage-range',
  summary: 'an eviction percentage is below 0% or above 100%',
  severity: 'error',
  fix: false,
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    for (const { field, flag, thresholds, item } of evictionEntries(node)) {
      if (!thresholds || typeof item.value !== 'string' || !item.valueSpan || !item.value.endsWith('%')) continue;
      if (!rawPercentage(item.value).ok) continue; // eviction-syntax
      const p = parsePercentage(item.value, item.key);
      if (p.ok) continue;
      out.push(finding('eviction-percentage-range', 'error', item.valueSpan, `${item.key}=${item.value} is over 100%: the kubelet refuses to start. ${written(field, flag, item)} ${item.key}=${item.value} fails with "${p.error}".`));
    }
    return out;
  },
};
