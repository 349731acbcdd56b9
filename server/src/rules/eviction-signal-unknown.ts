/**
 * eviction/helpers.go ParseThresholdConfig: a signal the kubelet does not
 * know stops it at startup (`unsupported eviction signal X`). swap.available
 * is not a released signal.
 */
import { finding, type Finding } from '../model/finding.ts';
import { EVICTION_SIGNALS, evictionSignalInfo } from '../catalog/defaults.ts';
import { closest } from '../catalog/suggest.ts';
import { evictionEntries, written } from './lib/eviction.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

const NAMES = EVICTION_SIGNALS.map((s) => s.signal);

export const evictionSignalUnknown: Rule = {
  id: 'eviction-signal-unknown',
  summary: 'an eviction setting names a signal the kubelet does not know',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces a near-miss with the signal it resembles (e.g. `memory.availible` → `memory.available`)',
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    for (const { field, flag, item } of evictionEntries(node)) {
      if (item.key === undefined || !item.keySpan || evictionSignalInfo(item.key)) continue;
      const guess = closest(item.key, NAMES, 4);
      out.push(
        finding(
          'eviction-signal-unknown',
          'error',
          item.keySpan,
          `"${item.key}" is not an eviction signal: the kubelet refuses to start. ${written(field, flag, item)} uses it (unsupported eviction signal). ` +
            (guess ? `Did you mean "${guess}"?` : `Signals: ${NAMES.join(', ')}.`),
          guess ? oneFix(`Change to "${guess}"`, replaceWord(item.keySpan, item.key, guess)) : undefined,
        ),
      );
    }
    return out;
  },
};
