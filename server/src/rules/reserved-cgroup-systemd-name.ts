/**
 * Under the systemd cgroup driver the kubelet does not use a reserved cgroup
 * path as written: it keeps only the last path element and reads every "-"
 * as a slice level (cgroup_manager_linux.go ParseSystemdToCgroupName).
 * `/system.slice/kubelet.service` becomes `/kubelet.service.slice` and
 * `/kube-reserved` becomes `/kube.slice/kube-reserved.slice` — slices that
 * usually do not exist, so enforcement fails at startup. Only an enforced reservation's cgroup is looked up.
 */
import { finding, type Finding } from '../model/finding.ts';
import { systemdCgroupPath, trimSlashes } from '../node/cgroups.ts';
import { cgroupDriver, enforceItems } from '../node/read.ts';
import type { Rule } from './types.ts';

const FIELDS = [
  { field: 'kubeReservedCgroup', flag: 'kube-reserved-cgroup', enforce: 'kube-reserved' },
  { field: 'systemReservedCgroup', flag: 'system-reserved-cgroup', enforce: 'system-reserved' },
];

/**
 * True when the kubelet's slice is the one the user meant: a slice named as
 * systemd names it ("/kube-reserved.slice" is systemd's
 * /kube.slice/kube-reserved.slice too), its full expanded path, or a single
 * dash-free name ("/runtime" means "/runtime.slice").
 */
function sameAsWritten(name: string, resolved: string): boolean {
  const clean = '/' + trimSlashes(name, true);
  if (clean === resolved) return true;
  const parts = clean.split('/').filter(Boolean);
  if (parts.length === 1 && parts[0].endsWith('.slice')) return true;
  return parts.length === 1 && !parts[0].includes('-') && !parts[0].includes('.') && resolved === clean + '.slice';
}

export const reservedCgroupSystemdName: Rule = {
  id: 'reserved-cgroup-systemd-name',
  summary: 'under the systemd driver a reserved cgroup path turns into a different slice',
  severity: 'warning',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    if (cgroupDriver(node).value !== 'systemd') return out;
    // The kubelet looks the cgroup up only to enforce its reservation (node_container_manager_linux.go
    // enforceNodeAllocatableCgroups): one that is not enforced is never touched, so its name cannot stop the kubelet.
    const enforced = new Set(enforceItems(node).map((i) => String(i.value)));
    for (const { field, flag, enforce } of FIELDS) {
      if (!enforced.has(enforce) && !enforced.has(`${enforce}-compressible`)) continue;
      const s = node.settings.get(field);
      if (s?.kind !== 'scalar' || typeof s.value !== 'string' || s.value === '' || !s.span) continue;
      const resolved = systemdCgroupPath(s.value);
      if (sameAsWritten(s.value, resolved)) continue;
      const name = s.from.how === 'flag' ? `--${flag}` : field;
      out.push(
        finding(
          'reserved-cgroup-systemd-name',
          'warning',
          s.span,
          `The kubelet reads ${name} as the slice ${resolved}, not "${s.value}". With cgroupDriver systemd it keeps only the last path element and turns each "-" into a slice level. ` +
            `Unless ${resolved} exists, the kubelet fails to enforce the reservation and does not start. Name the slice itself, e.g. "${suggest(s.value)}", and put the daemons in it (Slice= in their units).`,
        ),
      );
    }
    return out;
  },
};

function suggest(name: string): string {
  const base = trimSlashes(name).split('/').pop() ?? name;
  const stem = base.replace(/\.(slice|service|scope)$/, '').replaceAll('-', '_');
  return `/${stem}.slice`;
}
