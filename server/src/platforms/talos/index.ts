/**
 * Talos Linux (siderolabs/talos v1.14): machine configs and their patches (talos.ts), talhelper's talconfig.yaml
 * (talhelper.ts), and what Talos does with the kubelet settings in them.
 *
 * - The user's extraConfig is decoded first, then Talos fills the fields left unset
 *   (internal/app/machined/pkg/controllers/k8s/kubelet_spec.go NewKubeletConfiguration; constants from
 *   pkg/machinery/constants/constants.go). `systemReserved` is filled only when the user's map is empty
 *   (`len(config.SystemReserved) == 0`), so a map of the user's replaces all of Talos's keys: merge 'fill-unset'.
 * - Later patches of one machine merge as Talos merges them (pkg/machinery/merge: maps key by key).
 * - Talos refuses ProtectedConfigurationFields in extraConfig ("field %q can't be overridden";
 *   pkg/machinery/kubelet/kubelet.go, checked in kubelet_spec.go prepareExtraConfig) and extraArgs it merges with
 *   MergeDenied ("extra arg %q is not allowed"; kubelet_spec.go, pkg/argsbuilder).
 * - Talos has no systemd: its services run in its own cgroups. The kubelet runs in /podruntime/kubelet and Talos
 *   sets systemCgroups /system (kubelet_spec.go; constants CgroupSystem "/system", CgroupPodRuntime "/podruntime",
 *   which also holds the Kubernetes containerd and, on control planes, etcd).
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import talos from './talos.ts';
import talhelper from './talhelper.ts';

export interface TalosFacts {
  /** machine.type; undefined in a patch, which applies to either. */
  role?: 'worker' | 'controlplane';
}

/** Talos's values, from NewKubeletConfiguration: forced fields (ProtectedConfigurationFields) and defaults. */
function base(p: PlatformInfo): Map<string, Setting> {
  const role = (p.facts as TalosFacts | undefined)?.role;
  const from = (field: string, extra = ''): Provenance => ({ how: 'platform', label: `Talos default${extra}`, field });
  const which = role === 'controlplane' ? ' for a control plane' : role === 'worker' ? ' for a worker' : '; memory 384Mi on workers, 512Mi on control planes';
  const memory = role === 'controlplane' ? '512Mi' : '384Mi';
  const s = new Map<string, Setting>();
  // Forced whatever the user writes (the user may not set them, see platform-setting-refused).
  s.set('cgroupRoot', scalar('/', from('cgroupRoot')));
  s.set('rotateCertificates', scalar(true, from('rotateCertificates')));
  s.set('protectKernelDefaults', scalar(true, from('protectKernelDefaults')));
  // Filled when unset.
  s.set('address', scalar('0.0.0.0', from('address')));
  s.set('serializeImagePulls', scalar(false, from('serializeImagePulls')));
  s.set('failSwapOn', scalar(false, from('failSwapOn')));
  s.set('tlsMinVersion', scalar('VersionTLS13', from('tlsMinVersion')));
  s.set('streamingConnectionIdleTimeout', scalar('5m0s', from('streamingConnectionIdleTimeout')));
  // KubeletShutdownGracePeriod 30s, KubeletShutdownGracePeriodCriticalPods 10s.
  s.set('shutdownGracePeriod', scalar('30s', from('shutdownGracePeriod')));
  s.set('shutdownGracePeriodCriticalPods', scalar('10s', from('shutdownGracePeriodCriticalPods')));
  // KubeletSystemReservedCPU 50m, KubeletSystemReservedPid 100, KubeletSystemReservedEphemeralStorage 256Mi,
  // KubeletSystemReservedMemoryControlPlane 512Mi / KubeletSystemReservedMemoryWorker 384Mi.
  const reserved = map({ cpu: '50m', memory, pid: '100', 'ephemeral-storage': '256Mi' }, from('systemReserved', which));
  // No machine.type: the worker's memory stands in, and what rests on it says so (issue #37).
  if (!role) reserved.items = reserved.items.map((i) => (i.key === 'memory' ? { ...i, from: { ...i.from, assumed: 'the machine is a worker (384Mi; a control plane reserves 512Mi, and no machine.type says which)' } } : i));
  s.set('systemReserved', reserved);
  return s;
}

const PROTECTED = ['apiVersion', 'authentication', 'authorization', 'cgroupRoot', 'kind', 'kubeletCgroups', 'port', 'protectKernelDefaults', 'resolvConf', 'rotateCertificates', 'systemCgroups', 'staticPodPath', 'seccompDefault'];
const DENIED_FLAGS = ['bootstrap-kubeconfig', 'kubeconfig', 'container-runtime', 'container-runtime-endpoint', 'config', 'cert-dir'];

export default definePlatform({
  id: 'talos',
  name: 'Talos',
  docs: 'talos',
  formats: [talos, talhelper],
  examples: EXAMPLES,
  codes: [],
  rules: [],
  merge: 'fill-unset',
  base,
  source: { how: 'config', later: { how: 'config-dir', label: 'a Talos patch' } },
  refused: () => PROTECTED.map((field) => ({ field, message: `Talos refuses ${field} in extraConfig: it sets this field itself. It rejects the machine config ("field can't be overridden"); remove the field.` })),
  refusedFlags: new Map(DENIED_FLAGS.map((f) => [f, `Talos refuses the extra argument ${f}: it passes this flag to the kubelet itself. It rejects the config ("extra arg is not allowed"); remove it.`])),
  cgroups: {
    kind: 'own',
    systemReserved: '/system',
    kubeReserved: '/podruntime',
    note: 'Talos runs its services in its own cgroups, not systemd slices: /system holds the OS services, /podruntime the kubelet, the Kubernetes containerd and (on control planes) etcd',
  },
});
