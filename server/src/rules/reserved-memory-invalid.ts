/**
 * pkg/kubelet/apis/config/validation/validation_reserved_memory.go
 * validateReservedMemoryConfiguration: every reservedMemory limit must be
 * `memory` or `hugepages-<size>` (corev1helper.IsHugePageResourceName: the
 * prefix), not zero, and each (NUMA node, resource) pair may appear once across
 * all entries. Any of these stops the kubelet with "invalid configuration".
 * Read from the config file; `--reserved-memory` is not followed here.
 */
import { finding, type Finding } from '../model/finding.ts';
import { isZero, parseQuantity } from '../quantity/quantity.ts';
import type { Span } from '../model/range.ts';
import { child, configEntry } from './lib/validation/common.ts';
import type { Rule } from './types.ts';

export const reservedMemoryInvalid: Rule = {
  id: 'reserved-memory-invalid',
  summary: 'a reservedMemory entry the kubelet refuses: unknown limit type, zero amount, or a NUMA node and resource given twice',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const list = configEntry(node, 'reservedMemory');
    if (list?.value.kind !== 'seq') return out;
    const seen = new Map<string, Span>();
    const refuse = (span: Span, point: string, kubelet: string, related?: Span) =>
      out.push(
        finding('reserved-memory-invalid', 'error', span, `${point}. The kubelet does not start; it reports: "invalid configuration: ${kubelet}".`,
          related ? { related: [{ span: related, message: 'first given here' }] } : undefined),
      );
    for (const entry of list.value.items) {
      const numa = child(entry, 'numaNode');
      // An absent numaNode decodes as 0.
      const n = numa?.value.kind === 'scalar' && typeof numa.value.value === 'number' ? numa.value.value : numa ? undefined : 0;
      if (n === undefined) continue; // not a number: config-field-type
      const limits = child(entry, 'limits');
      if (limits?.value.kind !== 'map') continue;
      for (const lim of limits.value.entries) {
        const res = lim.key;
        if (res !== 'memory' && !res.startsWith('hugepages-')) {
          refuse(lim.keySpan, `reservedMemory limit "${res}" (NUMA node ${n}) is neither memory nor hugepages-<size>`,
            `the limit type "${res}" for NUMA node ${n} is not supported, only [memory hugepages-<HugePageSize>] is accepted`);
        }
        if (lim.value.kind === 'scalar' && lim.value.value !== null) {
          const q = parseQuantity(String(lim.value.value));
          if (q.ok && isZero(q.q)) {
            refuse(lim.value.span, `reservedMemory reserves zero ${res} on NUMA node ${n} (leave the entry out instead)`,
              `reserved memory may not be zero for NUMA node ${n} and resource "${res}"`);
          }
        }
        const key = `${n}\u0000${res}`;
        const first = seen.get(key);
        if (first) {
          refuse(lim.keySpan, `reservedMemory gives ${res} for NUMA node ${n} twice`,
            `the reserved memory has a duplicate value for NUMA node ${n} and resource "${res}"`, first);
        } else seen.set(key, lim.keySpan);
      }
    }
    return out;
  },
};
