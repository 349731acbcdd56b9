/**
 * eviction/helpers.go parseThresholdStatement returns no threshold at all
 * for exactly "0%" and "100%": the signal is not watched and, for
 * memory.available / nodefs.available, nothing is subtracted from allocatable.
 * "0%" is a known way to switch a signal off, so it is information;
 * "100%" reads like "always evict" but does nothing, so it is a warning.
 */
import { finding, type Finding } from '../model/finding.ts';
import { evictionEntries, written } from './lib/eviction.ts';
import type { Rule } from './types.ts';

export const evictionThresholdIneffective: Rule = {
  id: 'eviction-threshold-ineffective',
  summary: '"0%" and "100%" create no eviction threshold at all',
  severity: ['information', 'warning'],
  fix: false,
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    for (const { field, flag, thresholds, item } of evictionEntries(node)) {
      if (!thresholds || (item.value !== '0%' && item.value !== '100%') || !item.valueSpan) continue;
      const zero = item.value === '0%';
      out.push(
        finding(
          'eviction-threshold-ineffective',
          zero ? 'information' : 'warning',
          item.valueSpan,
          `${written(field, flag, item)} ${item.key}=${item.value} creates no threshold. The kubelet drops exactly "0%" and "100%", so ${item.key} is not watched` +
            (field === 'evictionHard' && (item.key === 'memory.available' || item.key === 'nodefs.available')
              ? ' and nothing is subtracted from allocatable for it.'
              : '.') +
            (zero ? ' That disables it, which may be what you meant.' : ' If you meant a tiny margin, write a quantity such as 100Mi.'),
        ),
      );
    }
    return out;
  },
};
