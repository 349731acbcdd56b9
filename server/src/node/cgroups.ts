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
/**
 * `name` without its trailing slashes (and leading ones with `both`). A loop, not /\/+$/: that pattern retries
 * from every slash of a long run, quadratic in the run's length (docs/dev/regex-audit.md).
 */
export function trimSlashes(name: string, both = false): string {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) === 47) end--;
  let start = 0;
  if (both) while (start < end && name.charCodeAt(start) === 47) start++;
  return name.slice(start, end);
}

export function systemdCgroupPath(name: string): string {
  const base = trimSlashes(name).split('/').pop() ?? '';
  const stem = base.endsWith('.slice') ? base.slice(0, -'.slice'.length) : base;
  if (stem === '') return '/';
  const parts = stem.split('-').map((p) => p.replaceAll('_', '-'));
  // ToSystemd: escape each part, join with "-", expand the slice into its parents.
  const escaped = parts.map((p) => p.replaceAll('-', '_'));
  const out: string[] = [];
  for (let i = 1; i <= escaped.length; i++) out.push(escaped.slice(0, i).join('-') + '.slice');
  return '/' + out.join('/');
}
