/**
 * validation.go (ValidateKubeletConfiguration): enforcing system-reserved[-compressible]
 * needs systemReservedCgroup, kube-reserved[-compressible] needs kubeReservedCgroup;
 * the kubelet refuses to start otherwise.
 */
import { finding } from '../model/finding.ts';
import { enforceItems, stringSetting } from '../node/read.ts';
import type { Rule } from './types.ts';

const NEEDS: Record<string, { field: string; flag: string }> = {
  'kube-reserved': { field: 'kubeReservedCgroup', flag: 'kube-reserved-cgroup' },
  'kube-reserved-compressible': { field: 'kubeReservedCgroup', flag: 'kube-reserved-cgroup' },
  'system-reserved': { field: 'systemReservedCgroup', flag: 'system-reserved-cgroup' },
  'system-reserved-compressible': { field: 'systemReservedCgroup', flag: 'system-reserved-cgroup' },
};

export const reservedCgroupMissing: Rule = {
  id: 'reserved-cgroup-missing',
  summary: 'enforceNodeAllocatable names kube-reserved/system-reserved but the matching reserved cgroup is not set',
  run({ node }) {
    const out = [];
    for (const item of enforceItems(node)) {
      const need = NEEDS[String(item.value)];
      if (!need || !item.valueSpan) continue;
      const cg = stringSetting(node, need.field);
      if (cg !== undefined && cg !== '') continue;
      out.push(
        finding(
          'reserved-cgroup-missing',
          'error',
          item.valueSpan,
          `enforceNodeAllocatable includes "${item.value}" but ${need.field} (--${need.flag}) is not set. ` +
            `The kubelet refuses to start: it has no cgroup to put the ${String(item.value).replace('-compressible', '')} limits on. ` +
            `Set ${need.field} to the parent cgroup of those daemons (it must already exist), or stop enforcing "${item.value}".`,
        ),
      );
    }
    return out;
  },
};
