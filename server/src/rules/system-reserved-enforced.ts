/**
 * Enforcing system-reserved caps the cgroup of the OS daemons at the
 * reserved amount (node_container_manager_linux.go); the Kubernetes docs
 * warn that sshd, journald and friends can then be starved or OOM-killed.
 * From 1.32, system-reserved-compressible caps only cpu.
 */
import { finding, type Finding } from '../model/finding.ts';
import { compareVersions } from '../catalog/flags.ts';
import { enforceItems, mapItems } from '../node/read.ts';
import type { Rule } from './types.ts';

export const systemReservedEnforced: Rule = {
  id: 'system-reserved-enforced',
  summary: 'enforcing system-reserved can starve sshd, journald and other OS daemons',
  severity: 'information',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const item = enforceItems(node).find((i) => i.value === 'system-reserved');
    if (!item?.valueSpan) return out;
    const reserved = mapItems(node, 'systemReserved');
    // Nothing reserved: the kubelet does not start at all (enforce-reservation-empty says so).
    if (reserved.length === 0) return out;
    const mem = reserved.find((i) => i.key === 'memory');
    // -compressible writes only the cpu reservation: worth suggesting only when there is one.
    const compressible = compareVersions(node.kubernetesVersion, '1.32') >= 0 && reserved.some((i) => i.key === 'cpu');
    out.push(
      finding(
        'system-reserved-enforced',
        'information',
        item.valueSpan,
        `Enforcing "system-reserved" caps the OS daemons at the reservation${mem ? ` (memory ${mem.text})` : ''}. ` +
          `The kubelet limits their cgroup: ` +
          `if sshd, journald or the kernel's helpers need more, they are throttled or OOM-killed and the node can become unreachable. ` +
          (compressible
            ? `"system-reserved-compressible" caps only cpu, which is usually what you want; or leave it out and let the reservation lower allocatable only.`
            : `Consider leaving it out: the reservation still lowers allocatable without capping the daemons.`),
      ),
    );
    return out;
  },
};
