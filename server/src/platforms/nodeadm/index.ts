/**
 * EKS nodeadm on Amazon Linux 2023 (awslabs/amazon-eks-ami nodeadm v20260724): the NodeConfig (eks-nodeadm.ts).
 * nodeadm writes its own config.json as the kubelet's --config (nodeadm/internal/kubelet/config.go
 * defaultKubeletSubConfig, withDefaultReservedResources) and the user's kubelet.config as the drop-in
 * config.json.d/40-nodeadm.conf, which the kubelet merges as a JSON merge patch (kubernetes cmd/kubelet/app/server.go
 * mergeKubeletConfigurations): maps merge key by key. Its image ships kubelet.service, so the user's drop-ins for it
 * join the NodeConfig's node.
 */
import type { Provenance, Setting } from '../../node/model.ts';
import { map, sameForEveryNode, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import nodeadmFormat from './eks-nodeadm.ts';
import { nodeadmKubeletGate } from './nodeadm-kubelet-gate.ts';
import { nodeadmMaxPodsExpressionIgnored } from './nodeadm-max-pods-expression-ignored.ts';
import { EKS_DEFAULT_MAX_PODS, eksCapacitySettings, eksMemoryMiB } from './reservations.ts';

/** nodeadm's config.json, as it writes it before the instance type is known (maxPods: its fallback). */
export const nodeadmBase = sameForEveryNode((): Map<string, Setting> => {
  const from = (field: string, label = 'nodeadm default'): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  s.set('address', scalar('0.0.0.0', from('address')));
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver')));
  s.set('cgroupRoot', scalar('/', from('cgroupRoot')));
  s.set('clusterDomain', scalar('cluster.local', from('clusterDomain')));
  s.set('containerRuntimeEndpoint', scalar('unix:///run/containerd/containerd.sock', from('containerRuntimeEndpoint')));
  s.set('evictionHard', map({ 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' }, from('evictionHard')));
  s.set('hairpinMode', scalar('hairpin-veth', from('hairpinMode')));
  s.set('protectKernelDefaults', scalar(true, from('protectKernelDefaults')));
  s.set('readOnlyPort', scalar(0, from('readOnlyPort')));
  s.set('serializeImagePulls', scalar(false, from('serializeImagePulls')));
  s.set('serverTLSBootstrap', scalar(true, from('serverTLSBootstrap')));
  // maxPods and kubeReserved.memory come from the instance type's ENI limit on the node; unknown here, so
  // nodeadm's own fallback is shown and named as such.
  const pods = EKS_DEFAULT_MAX_PODS;
  s.set('maxPods', scalar(pods, from('maxPods', `nodeadm default for maxPods ${pods} (the instance type's ENI limit decides it on the node)`)));
  s.set('kubeReserved', map({ 'ephemeral-storage': '1Gi', memory: eksMemoryMiB(pods) }, from('kubeReserved', `nodeadm default (11 × maxPods + 255 Mi for maxPods ${pods}, tiered CPU)`)));
  s.set('systemReservedCgroup', scalar('/system', from('systemReservedCgroup')));
  s.set('kubeReservedCgroup', scalar('/runtime', from('kubeReservedCgroup')));
  return s;
});

export default definePlatform({
  id: 'nodeadm',
  name: 'nodeadm',
  docs: 'eks-nodeadm',
  formats: [nodeadmFormat],
  examples: EXAMPLES,
  codes: [],
  rules: [nodeadmKubeletGate, nodeadmMaxPodsExpressionIgnored],
  merge: 'merge-patch',
  base: nodeadmBase,
  capacitySettings: (_p, settings, capacity) => eksCapacitySettings('nodeadm', settings, capacity, false),
  source: { how: 'config-dir' },
  // The AMI's slices (nodeadm sets systemReservedCgroup /system and kubeReservedCgroup /runtime itself).
  cgroups: { kind: 'systemd' },
});
