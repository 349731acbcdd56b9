/**
 * Bottlerocket's settings.kubernetes TOML (bottlerocket.ts) and its kubelet-config template
 * (bottlerocket-os/bottlerocket-core-kit packages/kubernetes-1.30/kubelet-config, commit 097546f3): fixed values,
 * maxPods 110 unless settings.kubernetes.max-pods (pluto sets it from the instance type on the node), and the
 * kube-reserved it computes for keys the user leaves out (sources/api/schnauzer helpers.rs kube_reserve_memory:
 * 11 × max-pods + 255 Mi; kube_reserve_cpu: tiered from the cores, added once the capacity is known;
 * ephemeral-storage 1Gi).
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import bottlerocket from './bottlerocket.ts';
import { EKS_DEFAULT_MAX_PODS, eksCapacitySettings, eksMemoryMiB } from '../nodeadm/reservations.ts';

export interface BottlerocketFacts {
  /** settings.kubernetes max-pods as written. */
  maxPods?: number;
  reservedCpus?: boolean;
  systemReserved?: boolean;
}

function base(p: PlatformInfo): Map<string, Setting> {
  const f = (p.facts ?? {}) as BottlerocketFacts;
  const from = (field: string, label = 'Bottlerocket default'): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  const pods = f.maxPods ?? EKS_DEFAULT_MAX_PODS;
  s.set('maxPods', scalar(pods, from('maxPods', `Bottlerocket default for maxPods ${pods} (the instance type decides it on the node)`)));
  s.set('kubeReserved', map({ memory: eksMemoryMiB(pods), 'ephemeral-storage': '1Gi' }, from('kubeReserved', `Bottlerocket default (11 × max-pods + 255 Mi for max-pods ${pods})`)));
  if (!f.reservedCpus) s.set('kubeReservedCgroup', scalar('/runtime', from('kubeReservedCgroup')));
  if (f.systemReserved && !f.reservedCpus) s.set('systemReservedCgroup', scalar('/system', from('systemReservedCgroup')));
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver')));
  s.set('cgroupRoot', scalar('/', from('cgroupRoot')));
  s.set('cpuCFSQuota', scalar(true, from('cpuCFSQuota')));
  s.set('cpuManagerPolicy', scalar('none', from('cpuManagerPolicy')));
  s.set('podPidsLimit', scalar(1048576, from('podPidsLimit')));
  s.set('hairpinMode', scalar('hairpin-veth', from('hairpinMode')));
  s.set('readOnlyPort', scalar(0, from('readOnlyPort')));
  s.set('runtimeRequestTimeout', scalar('15m', from('runtimeRequestTimeout')));
  s.set('protectKernelDefaults', scalar(true, from('protectKernelDefaults')));
  s.set('serializeImagePulls', scalar(false, from('serializeImagePulls')));
  s.set('failSwapOn', scalar(false, from('failSwapOn')));
  return s;
}

export default definePlatform({
  id: 'bottlerocket',
  name: 'Bottlerocket',
  docs: 'bottlerocket',
  formats: [bottlerocket],
  examples: EXAMPLES,
  codes: [],
  rules: [],
  merge: 'merge-patch',
  base,
  // Bottlerocket computes the memory from settings.kubernetes.max-pods, so a max-pods of the user's keeps it.
  capacitySettings: (_p, settings, capacity) => eksCapacitySettings('Bottlerocket', settings, capacity, true),
  source: { how: 'config-dir', label: 'settings.kubernetes' },
  cgroups: { kind: 'systemd' },
});
