/**
 * kubeadm patch files for the kubelet's configuration (kubernetes cmd/kubeadm/app/util/patches/patches.go, kubeadm
 * 1.31; the kubeletconfiguration target exists since kubeadm 1.25): in the `patches.directory` of an
 * InitConfiguration or JoinConfiguration, a file named `kubeletconfiguration[suffix][+strategic|+merge].yaml`.
 */

/**
 * patches.go parseFilename: the target, a suffix without `.` or `+`, an optional `+patchtype`; extension .yaml or
 * .json. Here strategic or merge and YAML (a json patch is a list of operations, not settings).
 */
export function isKubeletPatch(name: string): boolean {
  // By hand: the regular expression this replaces backtracked quadratically over a long suffix, and its backtracking
  // also let a `+json` patch through.
  const target = 'kubeletconfiguration';
  if (!name.startsWith(target) || !name.endsWith('.yaml') || name.includes('\n')) return false;
  let i = target.length;
  while (name[i] !== '.' && name[i] !== '+') i++;
  return name[i] === '.' || name.startsWith('+strategic', i) || name.startsWith('+merge', i);
}

