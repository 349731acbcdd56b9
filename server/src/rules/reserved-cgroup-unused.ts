/**
 * node_container_manager_linux.go enforceNodeAllocatableCgroups uses
 * kubeReservedCgroup/systemReservedCgroup only for the values listed in
 * enforceNodeAllocatable. Set alone, the cgroup is not limited; the
 * reservation still lowers allocatable. Common and harmless.
 */
import { finding, type Finding } from '../model/finding.ts';
import { enforceItems, mapItems } from '../node/read.ts';
import type { Rule } from './types.ts';

const PAIRS = [
  { field: 'kubeReservedCgroup', flag: 'kube-reserved-cgroup', value: 'kube-reserved', reservation: 'kubeReserved' },
  { field: 'systemReservedCgroup', flag: 'system-reserved-cgroup', value: 'system-reserved', reservation: 'systemReserved' },
];

export const reservedCgroupUnused: Rule = {
  id: 'reserved-cgroup-unused',
  summary: 'a reserved cgroup is set but its reservation is not enforced',
  severity: 'hint',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const enforced = new Set(enforceItems(node).map((i) => String(i.value)));
    for (const p of PAIRS) {
      const s = node.settings.get(p.field);
      if (s?.kind !== 'scalar' || !s.value || !s.span) continue;
      if (enforced.has(p.value) || enforced.has(`${p.value}-compressible`)) continue;
      out.push(
        finding(
          'reserved-cgroup-unused',
          'hint',
          s.span,
          `${p.field} has no effect: "${p.value}" is not in enforceNodeAllocatable. The kubelet puts no limit on ${s.value}. ` +
            (mapItems(node, p.reservation).length === 0
              ? // enforceExistingCgroup fails on an empty reservation (enforce-reservation-empty): no advice to enforce it.
                `${p.reservation} reserves nothing, so there is nothing to enforce; enforcing "${p.value}" now would stop the kubelet at start-up.`
              : `The ${p.value} reservation still lowers allocatable and caps the pods' cgroup; add "${p.value}" to enforceNodeAllocatable only if you also want the daemons capped.`),
        ),
      );
    }
    return out;
  },
};
