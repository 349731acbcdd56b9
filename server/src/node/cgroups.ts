/**
 * How the kubelet names a cgroup under each driver
 * (pkg/kubelet/cm/cgroup_manager_linux.go):
 *
 * - cgroupfs: the path is used literally.
 * - systemd: CgroupName(name) = ParseSystemdToCgroupName: path.Base(name),
 *   strip ".slice", split on "-" (each part a nesting level), "_" -> "-";
 *   then ToSystemd joins the parts with "-" (escaping "-" as "_"), adds
 *   ".slice" and expands it: "a-b.slice" lives at /a.slice/a-b.slice.
 */
export function systemdCgroupPath(name: string): string {
  const base = name.replace(/\/+$/, '').split('/').pop() ?? '';
  const stem = base.endsWith('.slice') ? base.slice(0, -'.slice'.length) : base;
  if (stem === '') return '/';
  const parts = stem.split('-').map((p) => p.replaceAll('_', '-'));
  // ToSystemd: escape each part, join with "-", expand the slice into its parents.
  const escaped = parts.map((p) => p.replaceAll('-', '_'));
  const out: string[] = [];
  for (let i = 1; i <= escaped.length; i++) out.push(escaped.slice(0, i).join('-') + '.slice');
  return '/' + out.join('/');
}
