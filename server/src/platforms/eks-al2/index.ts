/**
 * Amazon Linux 2 EKS nodes bootstrapped by /etc/eks/bootstrap.sh (awslabs/amazon-eks-ami templates/al2/runtime,
 * bootstrap.sh and kubelet-config.json, last at b2289030^ before AL2 support was removed in July 2026). The shell
 * carriers read its calls (embed/shell.ts): the flags of `--kubelet-extra-args` become a drop-in's KUBELET_EXTRA_ARGS,
 * on the kubelet's command line over the --config file bootstrap.sh writes. That file is this platform's base:
 * - kubelet-config.json's fixed values (address, clusterDomain, hairpinMode, readOnlyPort 0, protectKernelDefaults,
 *   serializeImagePulls false, serverTLSBootstrap), cgroupDriver systemd with containerd, and systemReservedCgroup
 *   /system with kubeReservedCgroup /runtime unless the extra args name --reserved-cpus;
 * - evictionHard memory.available 100Mi, nodefs.available 10%, nodefs.inodesFree 5%;
 * - kubeReserved: cpu tiered from the cores (get_cpu_millicores_to_reserve), ephemeral-storage 1Gi, memory
 *   11 × MAX_PODS + 255 Mi with MAX_PODS from /etc/eks/eni-max-pods.txt (the instance type's ENI limit);
 * - maxPods: that same MAX_PODS, unless `--use-max-pods false` (then the kubelet's default, 110, while the memory
 *   reservation still follows the ENI limit).
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EKS_DEFAULT_MAX_PODS, eksCapacitySettings, eksMemoryMiB } from '../nodeadm/reservations.ts';
import { EXAMPLES } from './examples.ts';

export interface BootstrapFacts {
  /** --use-max-pods (default true): bootstrap.sh writes maxPods from the ENI table. */
  useMaxPods?: boolean;
  /** The extra args name --reserved-cpus: bootstrap.sh sets no reserved cgroups. */
  reservedCpus?: boolean;
}

function base(p: PlatformInfo): Map<string, Setting> {
  const f = (p.facts ?? {}) as BootstrapFacts;
  const from = (field: string, label = 'bootstrap.sh default'): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  s.set('address', scalar('0.0.0.0', from('address')));
  s.set('clusterDomain', scalar('cluster.local', from('clusterDomain')));
  s.set('hairpinMode', scalar('hairpin-veth', from('hairpinMode')));
  s.set('readOnlyPort', scalar(0, from('readOnlyPort')));
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver', 'bootstrap.sh default (containerd)')));
  s.set('cgroupRoot', scalar('/', from('cgroupRoot')));
  s.set('protectKernelDefaults', scalar(true, from('protectKernelDefaults')));
  s.set('serializeImagePulls', scalar(false, from('serializeImagePulls')));
  s.set('serverTLSBootstrap', scalar(true, from('serverTLSBootstrap')));
  s.set('evictionHard', map({ 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' }, from('evictionHard')));
  const pods = EKS_DEFAULT_MAX_PODS;
  if (f.useMaxPods !== false) s.set('maxPods', scalar(pods, from('maxPods', `bootstrap.sh default for maxPods ${pods} (the instance type's ENI limit decides it on the node)`)));
  s.set('kubeReserved', map({ 'ephemeral-storage': '1Gi', memory: eksMemoryMiB(pods) }, from('kubeReserved', `bootstrap.sh default (11 × MAX_PODS + 255 Mi for ${pods} pods, tiered CPU)`)));
  if (!f.reservedCpus) {
    s.set('systemReservedCgroup', scalar('/system', from('systemReservedCgroup')));
    s.set('kubeReservedCgroup', scalar('/runtime', from('kubeReservedCgroup')));
  }
  return s;
}

export default definePlatform({
  id: 'eks-al2',
  name: 'bootstrap.sh',
  docs: 'shell',
  // Its calls are in shell scripts and cloud-init, which the carriers every node may have read (formats/shell.ts).
  formats: [],
  examples: EXAMPLES,
  codes: [],
  rules: [],
  merge: 'merge-patch',
  base,
  // Memory follows the ENI pod limit whatever --use-max-pods says (get_memory_mebibytes_to_reserve $MAX_PODS).
  capacitySettings: (_p, settings, capacity) => eksCapacitySettings('bootstrap.sh', settings, capacity, false),
  source: { how: 'config' },
  cgroups: { kind: 'systemd' },
});
