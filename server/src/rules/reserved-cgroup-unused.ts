/**
 * node_container_manager_linux.go enforceNodeAllocatableCgroups uses
 * kubeReservedCgroup/systemReservedCgroup only for the values listed in
 * enforceNodeAllocatable. Set alone, the cgroup is not limited; the
 * reservation still lowers allocatable. Common and harmless.
 */
import { finding, type Finding } from '../model/finding.ts';
import { enforceItems } from '../node/read.ts';
import type { Rule } from './types.ts';

const PAIRS = [
  { field: 'kubeReservedCgroup', flag: 'kube-reserved-cgroup', value: 'kube-reserved' },
  { field: 'systemReservedCgroup', flag: 'system-reserved-cgroup', value: 'system-reserved' },
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
          `${p.field} is set but "${p.value}" is not in enforceNodeAllocatable, so the kubelet puts no limit on ${s.value}. ` +
            `The ${p.value} reservation still lowers allocatable and caps the pods' cgroup; add "${p.value}" to enforceNodeAllocatable only if you also want the daemons capped.`,
        ),
      );
    }
    return out;
  },
};
