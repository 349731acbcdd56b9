/**
 * A soft eviction threshold that is not above the hard threshold of the same signal. The kubelet evicts when the
 * signal's available amount drops below a threshold (pkg/kubelet/eviction/helpers.go thresholdsMet: observed <
 * threshold); with soft <= hard the hard threshold is met first or at once, so the soft threshold and its grace
 * period never give pods a graceful eviction. The hard value is the effective evictionHard, or the kubelet's default
 * for the signal when evictionHard is not set (corpus-embedded 024: soft memory.available 100Mi against the default
 * 100Mi). Quantities are compared with quantities and percentages with percentages; a mix needs the capacity.
 */
import { finding, type Finding } from '../model/finding.ts';
import { mapItems } from '../node/read.ts';
import { defaultEvictionHard } from '../catalog/defaults.ts';
import { cmp } from '../quantity/quantity.ts';
import { parseThresholdValue } from '../quantity/threshold.ts';
import { written } from './lib/eviction.ts';
import type { Rule } from './types.ts';

export const evictionSoftNotAboveHard: Rule = {
  id: 'eviction-soft-not-above-hard',
  summary: 'a soft eviction threshold not above the hard one, so hard eviction always comes first',
  severity: 'warning',
  fix: false,
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    const soft = mapItems(node, 'evictionSoft');
    if (soft.length === 0) return out;
    const set = node.settings.get('evictionHard');
    const hard = new Map<string, { text: string; where: string }>();
    if (set?.kind === 'map') {
      for (const i of set.items) if (i.key !== undefined) hard.set(i.key, { text: i.text, where: 'the hard threshold' });
    } else {
      for (const [k, v] of Object.entries(defaultEvictionHard(node.kubernetesVersion))) hard.set(k, { text: v, where: 'the default hard threshold' });
    }
    for (const item of soft) {
      if (item.key === undefined || !item.valueSpan) continue;
      const h = hard.get(item.key);
      if (!h) continue;
      const s = parseThresholdValue(item.text, item.key);
      const t = parseThresholdValue(h.text, item.key);
      const notAbove =
        s.kind === 'quantity' && t.kind === 'quantity' ? cmp(s.q, t.q) <= 0 : s.kind === 'percentage' && t.kind === 'percentage' ? s.fraction <= t.fraction : false;
      if (!notAbove) continue;
      out.push(finding('eviction-soft-not-above-hard', 'warning', item.valueSpan,
        `Soft ${item.key} ${item.text} is not above ${h.where} ${h.text}, so hard eviction comes first. ` +
          `${written('evictionSoft', 'eviction-soft', item)} and its grace period then never give pods a graceful eviction; set the soft threshold higher than ${h.text}.`));
    }
    return out;
  },
};
