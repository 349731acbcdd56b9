/**
 * cm/memorymanager/memory_manager.go validateReservedMemory: with
 * memoryManagerPolicy Static, the sum of reservedMemory per resource must
 * equal what Node Allocatable reserves for it (kubeReserved + systemReserved
 * + the hard memory.available threshold); otherwise the kubelet does not
 * start ("the total amount ... is not equal to the value ... determined by
 * Node Allocatable feature").
 */
import { finding, type Finding } from '../model/finding.ts';
import { parseQuantity, value } from '../quantity/quantity.ts';
import type { ConfigNode } from '../parse/types.ts';
import { formatBytes } from '../quantity/quantity.ts';
import type { Rule } from './types.ts';

function entry(n: ConfigNode | undefined, key: string): ConfigNode | undefined {
  return n?.kind === 'map' ? n.entries.find((e) => e.key === key)?.value : undefined;
}

export const memoryManagerReservedMismatch: Rule = {
  id: 'memory-manager-reserved-mismatch',
  summary: 'the Static memory manager needs reservedMemory to add up to the node allocatable memory reservation',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node, allocatable }) {
    const out: Finding[] = [];
    const policy = node.settings.get('memoryManagerPolicy');
    if (policy?.kind !== 'scalar' || policy.value !== 'Static' || !policy.span) return out;
    const rm = node.settings.get('reservedMemory');
    if (rm && rm.from.how !== 'config' && rm.from.how !== 'config-dir') return out; // --reserved-memory: not read here
    const line = allocatable.lines.memory;
    if (line.eviction === undefined) return out; // a percentage threshold without capacity: cannot tell
    if (line.unknown) return out; // a reservation written as a template expression
    const want = line.kubeReserved + line.systemReserved + line.eviction;
    const doc = [...node.kubeletConfigs].reverse().find((d) => d.root.entries.some((e) => e.key === 'reservedMemory'));
    const list = doc?.root.entries.find((e) => e.key === 'reservedMemory');
    let sum = 0n;
    if (list?.value.kind === 'seq') {
      for (const item of list.value.items) {
        const mem = entry(entry(item, 'limits'), 'memory');
        if (mem?.kind !== 'scalar') continue;
        const q = parseQuantity(String(mem.value));
        if (q.ok) sum += value(q.q);
      }
    }
    if (sum === want) return out;
    const where = list ? list.keySpan : policy.span;
    out.push(
      finding(
        'memory-manager-reserved-mismatch',
        'error',
        where,
        `reservedMemory does not match the reserved memory: the kubelet refuses to start. With memoryManagerPolicy Static, reservedMemory must add up to the memory that Node Allocatable reserves: kube-reserved ${formatBytes(line.kubeReserved)} + system-reserved ${formatBytes(line.systemReserved)} + hard eviction ${formatBytes(line.eviction)} = ${want} bytes (${formatBytes(want)}), ` +
          `but reservedMemory sums to ${sum} bytes (${formatBytes(sum)}). The kubelet refuses to start.`,
        list ? { related: [{ span: policy.span, message: 'Static memory manager policy' }] } : undefined,
      ),
    );
    return out;
  },
};
