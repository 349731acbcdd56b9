/**
 * node_container_manager_linux.go validateNodeAllocatable: when
 * kube-reserved + system-reserved + the hard eviction threshold of a resource
 * exceed its capacity, the kubelet refuses to start ("invalid Node
 * Allocatable configuration ... Expected capacity >= reservation").
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Span } from '../model/range.ts';
import { RESOURCES } from '../node/allocatable.ts';
import { mapItems, evictionHardItems } from '../node/read.ts';
import { formatAmount } from './lib/format.ts';
import type { Rule } from './types.ts';

export const reservationExceedsCapacity: Rule = {
  id: 'reservation-exceeds-capacity',
  summary: 'reservations and the hard eviction threshold add up to more than the node has',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node, allocatable }) {
    const out: Finding[] = [];
    if (!allocatable.hasCapacity) return out;
    for (const r of RESOURCES) {
      const line = allocatable.lines[r];
      if (line.capacity === undefined || line.unknown) continue; // a template expression: unknown, not 0
      const reserved = line.kubeReserved + line.systemReserved + (line.eviction ?? 0n);
      if (reserved <= line.capacity) continue;
      // The finding sits at the largest part (the one to fix: a system-reserved of 20Gi on a 16Gi node, not the
      // kube-reserved beside it); the others are related places.
      const parts: { span: Span; amount: bigint }[] = [];
      for (const [f, amount] of [['kubeReserved', line.kubeReserved], ['systemReserved', line.systemReserved]] as const) {
        for (const i of mapItems(node, f)) if (i.key === r && i.valueSpan) parts.push({ span: i.valueSpan, amount });
      }
      const signal = r === 'memory' ? 'memory.available' : r === 'ephemeral-storage' ? 'nodefs.available' : undefined;
      const ev = signal ? evictionHardItems(node).items.find((i) => i.key === signal) : undefined;
      if (ev?.valueSpan && line.eviction) parts.push({ span: ev.valueSpan, amount: line.eviction });
      // A stable sort: equal parts keep their order (kube-reserved, system-reserved, eviction).
      const places = parts.sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1)).map((p) => p.span);
      if (places.length === 0) continue;
      const words = [
        `kube-reserved ${formatAmount(r, line.kubeReserved)}`,
        `system-reserved ${formatAmount(r, line.systemReserved)}`,
        ...(line.eviction ? [`hard eviction ${formatAmount(r, line.eviction)}`] : []),
      ];
      const [first, ...rest] = places;
      out.push(
        finding(
          'reservation-exceeds-capacity',
          'error',
          first,
          `Reserved ${r} ${formatAmount(r, reserved)} is more than the capacity ${formatAmount(r, line.capacity)}: the kubelet refuses to start. ` +
            `${words.join(' + ')} = ${formatAmount(r, reserved)}, and the node's capacity is ${formatAmount(r, line.capacity)} (${node.capacitySource ?? 'given capacity'}); the kubelet fails with "Expected capacity >= reservation".`,
          { related: rest.map((span) => ({ span, message: `also part of the ${r} reservation` })) },
        ),
      );
    }
    return out;
  },
};
