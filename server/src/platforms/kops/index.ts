/**
 * kops Cluster and InstanceGroup specs (kops.ts) and their kubelet blocks (kops-kubelet.ts). What kops sets for every
 * kubelet unless the spec does (kubernetes/kops pkg/model/components/kubelet.go KubeletOptionsBuilder: evictionHard
 * when unset, cgroupRoot "/"); cgroupDriver systemd, protectKernelDefaults and the graceful-shutdown periods as kops's
 * own integration test renders them for Kubernetes 1.32 (tests/integration/update_cluster/karpenter nodeupconfig at
 * commit 0f9411b5, corpus-embedded 027). A nodeup config is kops's rendered result and already holds them. The
 * blocks merge in kops's order: defaults, spec.kubelet, then controlPlaneKubelet, then the InstanceGroup's.
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import kops from './kops.ts';
import kopsKubelet from './kops-kubelet.ts';
import { FLAG_FIELDS } from './parse-kops.ts';

/** kops's names of the fields it passes as flags (their `flag:` tags): `evictionHard`, not `--eviction-hard`. */
const NAMES: Record<string, string> = Object.fromEntries(Object.entries(FLAG_FIELDS).map(([own, flag]) => [`--${flag}`, own]));

function base(p: PlatformInfo): Map<string, Setting> {
  const s = new Map<string, Setting>();
  if (p.facts?.rendered === true) return s;
  // kops sets some only for newer kubelets (pkg/model/components/kubelet.go at v1.24.0: cgroupDriver systemd from
  // Kubernetes 1.20, protectKernelDefaults from 1.22, the graceful-shutdown periods from 1.21).
  const from = (field: string, since?: string): Provenance => ({ how: 'platform', label: 'kops default', field, ...(since ? { since } : {}) });
  s.set('evictionHard', map({ 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '10%', 'imagefs.inodesFree': '5%' }, from('evictionHard')));
  s.set('cgroupRoot', scalar('/', from('cgroupRoot')));
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver', '1.20')));
  s.set('protectKernelDefaults', scalar(true, from('protectKernelDefaults', '1.22')));
  s.set('shutdownGracePeriod', scalar('30s', from('shutdownGracePeriod', '1.21')));
  s.set('shutdownGracePeriodCriticalPods', scalar('10s', from('shutdownGracePeriodCriticalPods', '1.21')));
  return s;
}

export default definePlatform({
  id: 'kops',
  name: 'kops',
  docs: 'kops',
  formats: [kops, kopsKubelet],
  examples: EXAMPLES,
  codes: [],
  rules: [],
  merge: 'merge-patch',
  base,
  source: { how: 'config-dir', label: 'the kops kubelet spec' },
  cgroups: { kind: 'systemd' },
  names: NAMES,
});
