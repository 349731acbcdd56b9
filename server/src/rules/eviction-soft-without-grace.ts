/**
 * eviction/helpers.go ParseThresholdConfig: every soft threshold needs a
 * grace period (`grace period must be specified for the soft eviction
 * threshold X`); the kubelet refuses to start without one.
 */
import { finding, type Finding } from '../model/finding.ts';
import { mapItems } from '../node/read.ts';
import { evictionSignalInfo } from '../catalog/defaults.ts';
import { written } from './lib/eviction.ts';
import { appendToBlockMap, insertTopLevel } from './lib/insert.ts';
import type { Rule } from './types.ts';

export const evictionSoftWithoutGrace: Rule = {
  id: 'eviction-soft-without-grace',
  summary: 'a soft eviction threshold has no grace period',
  severity: 'error',
  fix: true,
  fixDoes: 'adds a grace period of `1m30s` for the signal to evictionSoftGracePeriod (or a new evictionSoftGracePeriod map)',
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    const graceItems = mapItems(node, 'evictionSoftGracePeriod');
    const grace = new Set(graceItems.map((i) => i.key));
    const graceSetting = node.settings.get('evictionSoftGracePeriod');
    const soft = node.settings.get('evictionSoft');
    // Without any grace period map, one new map covers every soft threshold that needs one.
    const missing = mapItems(node, 'evictionSoft')
      .filter((i) => i.key !== undefined && evictionSignalInfo(i.key) && !grace.has(i.key) && i.value !== '0%' && i.value !== '100%')
      .map((i) => i.key!);
    for (const item of mapItems(node, 'evictionSoft')) {
      if (item.key === undefined || grace.has(item.key) || !item.keySpan) continue;
      if (item.value === '0%' || item.value === '100%') continue; // no threshold, so no grace period needed
      if (!evictionSignalInfo(item.key)) continue; // an unknown signal stops the kubelet first (eviction-signal-unknown)
      // Add "signal: 1m30s" to the existing grace period map, or a new map above evictionSoft.
      const lastGrace = graceItems.at(-1)?.keySpan;
      const edit =
        graceSetting?.from.span && lastGrace && (graceSetting.from.how === 'config' || graceSetting.from.how === 'config-dir')
          ? appendToBlockMap(node, graceSetting.from.span, lastGrace, `${item.key}: 1m30s`)
          : !graceSetting && soft?.from.span && (soft.from.how === 'config' || soft.from.how === 'config-dir')
            ? insertTopLevel(node, soft.from.span, ['evictionSoftGracePeriod:', ...missing.map((k) => `  ${k}: 1m30s`)].join('\n'))
            : undefined;
      out.push(
        finding(
          'eviction-soft-without-grace',
          'error',
          item.keySpan,
          `Soft threshold ${item.key} has no grace period: the kubelet refuses to start. ${written('evictionSoft', 'eviction-soft', item)} ${item.key} needs one in evictionSoftGracePeriod (--eviction-soft-grace-period); the kubelet fails with ("grace period must be specified for the soft eviction threshold ${item.key}"). Add for example ${item.key}: 1m30s.`,
          edit
            ? { fixes: [{ title: graceSetting ? `Add a grace period of 1m30s for ${item.key}` : `Add evictionSoftGracePeriod of 1m30s for ${missing.join(', ')}`, edits: [edit] }] }
            : undefined,
        ),
      );
    }
    return out;
  },
};
