/**
 * Cluster API's KubeadmConfig, KubeadmConfigTemplate and KubeadmControlPlane (cluster-api.ts). Cluster API writes
 * no kubelet configuration of its own: its objects carry kubeadm's (InitConfiguration, JoinConfiguration, files[]),
 * which kubeadm applies on the machine, so the kubeadm documents in its payloads are read as kubeadm's and no base
 * is added.
 */
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import { CODES } from './codes.ts';
import clusterApi from './cluster-api.ts';

export default definePlatform({
  id: 'cluster-api',
  name: 'Cluster API',
  docs: 'cluster-api',
  formats: [clusterApi],
  examples: EXAMPLES,
  codes: CODES,
  rules: [],
  merge: 'merge-patch',
  base: () => new Map(),
  source: { how: 'config' },
  cgroups: { kind: 'systemd' },
});
