/**
 * A memory or ephemeral-storage reservation written with a decimal suffix (`1G`). apimachinery's resource.Quantity
 * reads k, M, G, T, P, E as powers of 1000 and Ki, Mi, Gi, ... as powers of 1024 (k8s.io/apimachinery
 * pkg/api/resource/suffix.go), so `1G` reserves 1,000,000,000 bytes, 46.3Mi less than `1Gi`. Valid, so only a hint:
 * the value is seldom what was meant (kops's own integration test writes `memory: 1G`, corpus-embedded 025/027).
 */
import { finding, type Finding } from '../model/finding.ts';
import { label, reservedEntries } from './lib/reservations.ts';
import type { Rule } from './types.ts';

const DECIMAL = /^(\d+(?:\.\d+)?)([kMGTPE])$/;
const POWER: Record<string, number> = { k: 1, M: 2, G: 3, T: 4, P: 5, E: 6 };
const BINARY = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

export const quantityDecimalSuffix: Rule = {
  id: 'quantity-decimal-suffix',
  summary: 'a memory or storage reservation with a decimal suffix (1G = 1000³ bytes), seldom what was meant',
  severity: 'hint',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    for (const { field, flag, item } of reservedEntries(node)) {
      if ((item.key !== 'memory' && item.key !== 'ephemeral-storage') || !item.valueSpan || item.from.how === 'platform') continue;
      const m = DECIMAL.exec(item.text.trim());
      if (!m) continue;
      const p = POWER[m[2]];
      const binary = `${m[1]}${BINARY[p]}`;
      const mi = (Number(m[1]) * 1000 ** p) / 1024 ** 2;
      out.push(finding('quantity-decimal-suffix', 'hint', item.valueSpan,
        `${item.text} is ${m[1]} × 1000^${p} bytes (${mi.toFixed(1)}Mi), not ${binary}. Decimal suffixes count in powers of 1000. ` +
          `${label(field, flag, item)} ${item.key} reserves that much; write ${binary} if you meant binary units.`));
    }
    return out;
  },
};
