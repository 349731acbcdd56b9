/**
 * pkg/kubelet/cm/node_container_manager_linux.go: enforcing kube-reserved or
 * system-reserved (or their -compressible forms, 1.32+) hands the matching
 * reservation to enforceExistingCgroup. cmd/kubelet/app/server.go builds that
 * reservation with parseResourceList, which returns nil for an empty map, and
 * getCgroupConfig(nil, ...) is nil, so the container manager fails with
 * `"<cgroup>" cgroup is not configured properly` and the kubelet does not start.
 * The -compressible form takes the same path (only the cpu of a non-nil list is
 * used), so switching to it does not help; a reservation with any key does.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Item } from '../node/model.ts';
import { enforceItems, mapItems } from '../node/read.ts';
import { ENFORCE_VALUE_SINCE } from '../catalog/defaults.ts';
import { compareVersions } from '../catalog/flags.ts';
import type { Rule } from './types.ts';

const MAP_OF: Record<string, { field: string; flag: string }> = {
  'kube-reserved': { field: 'kubeReserved', flag: 'kube-reserved' },
  'kube-reserved-compressible': { field: 'kubeReserved', flag: 'kube-reserved' },
  'system-reserved': { field: 'systemReserved', flag: 'system-reserved' },
  'system-reserved-compressible': { field: 'systemReserved', flag: 'system-reserved' },
};

/** Enforced kube-/system-reserved entries whose reservation map is empty or unset. */
export function enforcedWithoutReservation(items: readonly Item[], reservation: (field: string) => readonly Item[]): { item: Item; field: string; flag: string }[] {
  const out: { item: Item; field: string; flag: string }[] = [];
  for (const item of items) {
    const m = MAP_OF[String(item.value)];
    if (m && reservation(m.field).length === 0) out.push({ item, ...m });
  }
  return out;
}

export const enforceReservationEmpty: Rule = {
  id: 'enforce-reservation-empty',
  summary: 'kube-reserved or system-reserved is enforced but nothing is reserved for it',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    for (const { item, field, flag } of enforcedWithoutReservation(enforceItems(node), (f) => mapItems(node, f))) {
      if (!item.valueSpan) continue;
      // A -compressible value older kubelets do not know fails validation first (enforce-unknown-value).
      const since = ENFORCE_VALUE_SINCE[String(item.value) as keyof typeof ENFORCE_VALUE_SINCE];
      if (since && compareVersions(node.kubernetesVersion, since) < 0) continue;
      const name = String(item.value);
      out.push(
        finding(
          'enforce-reservation-empty',
          'error',
          item.valueSpan,
          `"${name}" is enforced but ${field} reserves nothing, so the kubelet fails at start-up. ` +
            `With ${field} (--${flag}) empty the container manager has no limits to write and stops with "cgroup is not configured properly"` +
            (name.endsWith('-compressible') ? ' (the -compressible form fails the same way).' : `; "${name}-compressible" fails the same way.`) +
            ` Reserve something in ${field} (e.g. cpu and memory) or remove "${name}" from enforceNodeAllocatable.`,
        ),
      );
    }
    return out;
  },
};
