/**
 * eviction/helpers.go ParseThresholdConfig: every soft threshold needs a
 * grace period (`grace period must be specified for the soft eviction
 * threshold X`); the kubelet refuses to start without one.
 */
import { finding, type Finding } from '../model/finding.ts';
import { mapItems } from '../node/read.ts';
import { written } from './eviction.ts';
import type { Rule } from './types.ts';

export const evictionSoftWithoutGrace: Rule = {
  id: 'eviction-soft-without-grace',
  summary: 'a soft eviction threshold has no grace period',
  run({ node }) {
    const out: Finding[] = [];
    const grace = new Set(mapItems(node, 'evictionSoftGracePeriod').map((i) => i.key));
    for (const item of mapItems(node, 'evictionSoft')) {
      if (item.key === undefined || grace.has(item.key) || !item.keySpan) continue;
      if (item.value === '0%' || item.value === '100%') continue; // no threshold, so no grace period needed
      out.push(
        finding(
          'eviction-soft-without-grace',
          'error',
          item.keySpan,
          `${written('evictionSoft', 'eviction-soft', item)} ${item.key} has no grace period in evictionSoftGracePeriod (--eviction-soft-grace-period); the kubelet refuses to start ("grace period must be specified for the soft eviction threshold ${item.key}"). Add for example ${item.key}: 1m30s.`,
        ),
      );
    }
    return out;
  },
};
