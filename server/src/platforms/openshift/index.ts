/**
 * OpenShift's KubeletConfig (openshift.ts), which the Machine Config Operator merges over its kubelet.conf template
 * with mergo (maps key by key, the rest replaced): merge 'merge-patch'.
 * - The template: openshift/machine-config-operator templates/{master,worker}/01-*-kubelet/_base/files/kubelet.yaml,
 *   read at commit 00f8f430. kubelet.service runs `--system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=...,
 *   ephemeral-storage=${SYSTEM_RESERVED_ES}` from /etc/node-sizing.env, whose values default to 500m, 1Gi and 1Gi
 *   and take the user's spec.kubeletConfig.systemReserved keys (pkg/controller/kubelet-config/helpers.go
 *   createNewKubeletDynamicSystemReservedIgnition and generateKubeletIgnFiles). With autoSizingReserved the node
 *   computes cpu and memory itself from its size, so no number is shown for them.
 * - Refused fields: "KubeletConfiguration: %s is not allowed to be set" (helpers.go validateUserKubeletConfig, commit
 *   01d2ca83); memorySwap only for its swapBehavior.
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import openshift from './openshift.ts';

function base(p: PlatformInfo): Map<string, Setting> {
  const from = (field: string, label = 'OpenShift MCO default'): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver')));
  s.set('cgroupRoot', scalar('/', from('cgroupRoot')));
  s.set('clusterDomain', scalar('cluster.local', from('clusterDomain')));
  s.set('containerLogMaxSize', scalar('50Mi', from('containerLogMaxSize')));
  s.set('maxPods', scalar(250, from('maxPods')));
  s.set('kubeAPIQPS', scalar(50, from('kubeAPIQPS')));
  s.set('kubeAPIBurst', scalar(100, from('kubeAPIBurst')));
  s.set('rotateCertificates', scalar(true, from('rotateCertificates')));
  s.set('serializeImagePulls', scalar(false, from('serializeImagePulls')));
  s.set('staticPodPath', scalar('/etc/kubernetes/manifests', from('staticPodPath')));
  s.set('systemCgroups', scalar('/system.slice', from('systemCgroups')));
  s.set('serverTLSBootstrap', scalar(true, from('serverTLSBootstrap')));
  s.set('tlsMinVersion', scalar('VersionTLS12', from('tlsMinVersion')));
  const reserved: Record<string, string> = p.computedOnNode ? { 'ephemeral-storage': '1Gi' } : { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1Gi' };
  s.set('systemReserved', map(reserved, from('systemReserved', 'OpenShift default (/etc/node-sizing.env)')));
  return s;
}

const refusal = (field: string, extra = '') => ({ field, message: `OpenShift refuses ${field} in spec.kubeletConfig. The MCO fails the whole KubeletConfig ("${field} is not allowed to be set").${extra}` });

const REFUSED = [
  ...['cgroupDriver', 'clusterDNS', 'clusterDomain', 'staticPodPath', 'failSwapOn'].map((f) => refusal(f)),
  refusal('featureGates', ' Kubelet gates come from the cluster FeatureGate resource.'),
  refusal('memorySwap.swapBehavior'),
];

export default definePlatform({
  id: 'openshift',
  name: 'OpenShift',
  docs: 'openshift',
  formats: [openshift],
  examples: EXAMPLES,
  codes: [],
  rules: [],
  merge: 'merge-patch',
  base,
  source: { how: 'config-dir', label: 'spec.kubeletConfig' },
  refused: () => REFUSED,
  cgroups: { kind: 'systemd' },
});
