/**
 * eviction/helpers.go parseGracePeriod: time.ParseDuration, and not negative
 * (`invalid eviction grace period specified: X, must be a positive value`).
 */
import { finding, type Finding } from '../model/finding.ts';
import { parseGracePeriod } from '../quantity/duration.ts';
import { mapItems } from '../node/read.ts';
import { written } from './lib/eviction.ts';
import type { Rule } from './types.ts';

export const evictionGraceInvalid: Rule = {
  id: 'eviction-grace-invalid',
  summary: 'an eviction grace period is not a valid Go duration',
  severity: 'error',
  fix: false,
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    for (const item of mapItems(node, 'evictionSoftGracePeriod')) {
      if (typeof item.value !== 'string' || !item.valueSpan) continue;
      const d = parseGracePeriod(item.value);
      if (d.ok) continue;
      out.push(
        finding(
          'eviction-grace-invalid',
          'error',
          item.valueSpan,
          `${written('evictionSoftGracePeriod', 'eviction-soft-grace-period', item)} ${item.key}="${item.value}": ${d.error}; the kubelet refuses to start. Use a Go duration such as 90s, 1m30s or 2m.`,
        ),
      );
    }
    return out;
  },
};
