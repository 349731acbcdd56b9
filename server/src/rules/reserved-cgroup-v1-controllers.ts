/**
 * With the cgroupfs driver on cgroup v1 the kubelet requires an enforced
 * reserved cgroup to exist in every controller hierarchy it manages
 * (cgroup_manager_linux.go Exists: cpu, cpuacct, cpuset, memory, pids,
 * systemd, and hugetlb): `cgroup ["kube"] has some missing paths`. systemd
 * creates a service's cgroup only in the hierarchies its accounting uses,
 * never cpuset or hugetlb — hence the `ExecStartPre=mkdir -p
 * /sys/fs/cgroup/cpuset/...` lines in units like the seed's.
 */
import { finding, type Finding } from '../model/finding.ts';
import { trimSlashes } from '../node/cgroups.ts';
import { cgroupDriver, enforceItems, stringSetting } from '../node/read.ts';
import type { Rule } from './types.ts';

const CONTROLLERS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'hugetlb', 'pids', 'systemd'];
const PAIRS = [
  { field: 'kubeReservedCgroup', value: 'kube-reserved' },
  { field: 'systemReservedCgroup', value: 'system-reserved' },
];

export const reservedCgroupV1Controllers: Rule = {
  id: 'reserved-cgroup-v1-controllers',
  summary: 'cgroupfs on cgroup v1: an enforced reserved cgroup must exist in every controller hierarchy',
  severity: 'information',
  fix: true,
  fixDoes: 'inserts an `ExecStartPre=-/bin/mkdir -p ...` line before `ExecStart=` that creates the cgroup in every v1 hierarchy',
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    if (cgroupDriver(node).value !== 'cgroupfs') return out;
    const enforced = new Set(enforceItems(node).map((i) => String(i.value)));
    const pre = (node.service?.execStartPre ?? []).map((d) => d.value).join('\n');
    const exec = node.service?.execStart;
    for (const p of PAIRS) {
      if (!enforced.has(p.value) && !enforced.has(`${p.value}-compressible`)) continue;
      const cg = stringSetting(node, p.field);
      const s = node.settings.get(p.field);
      if (!cg || cg === '/' || s?.kind !== 'scalar' || !s.span) continue;
      const path = '/' + trimSlashes(cg, true);
      const missing = CONTROLLERS.filter((c) => !pre.includes(`/sys/fs/cgroup/${c}${path}`));
      if (!missing.includes('cpuset') && !missing.includes('hugetlb')) continue;
      const line = `ExecStartPre=-/bin/mkdir -p ${CONTROLLERS.map((c) => `/sys/fs/cgroup/${c}${path}`).join(' ')}`;
      const at = exec ? { line: exec.span.range.start.line, character: 0 } : undefined;
      out.push(
        finding(
          'reserved-cgroup-v1-controllers',
          'information',
          s.span,
          `${path} is missing in ${missing.length} cgroup v1 hierarchies: the kubelet would not start. On a cgroup v1 host with the cgroupfs driver, it must exist in every controller hierarchy the kubelet uses (${CONTROLLERS.join(', ')}); ` +
            `nothing here creates it in ${missing.join(', ')}, and the kubelet does not create it itself, so it would fail to start ("has some missing paths"). ` +
            `Create it before the kubelet starts, for example with an ExecStartPre=mkdir line. (cgroup v2 hosts need only the one directory.)`,
          exec && at
            ? { fixes: [{ title: `Add ExecStartPre= creating ${path} in every cgroup v1 hierarchy`, edits: [{ file: exec.span.file, range: { start: at, end: at }, newText: line + '\n' }] }] }
            : undefined,
        ),
      );
    }
    return out;
  },
};
