/**
 * eksctl ClusterConfig (eksctl.ts) and the node groups in it (eksctl-nodegroup.ts). On Amazon Linux 2023 eksctl
 * hands a node group's kubeletExtraConfig to nodeadm as kubelet.config (pkg/nodebootstrap), so the node is nodeadm's:
 * its base and arithmetic. eksctl refuses some keys ("cannot override %q in kubelet config, as it's critical to
 * eksctl functionality"; pkg/apis/eksctl.io/v1alpha5/validation.go validateNodeGroupKubeletExtraConfig).
 */
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import eksctl from './eksctl.ts';
import eksctlNodegroup from './eksctl-nodegroup.ts';
import { nodeadmBase } from '../nodeadm/index.ts';
import { eksCapacitySettings } from '../nodeadm/reservations.ts';

const FORBIDDEN = ['kind', 'apiVersion', 'address', 'clusterDomain', 'authentication', 'authorization', 'serverTLSBootstrap'];

export default definePlatform({
  id: 'eksctl',
  name: 'nodeadm',
  docs: 'eksctl',
  formats: [eksctl, eksctlNodegroup],
  examples: EXAMPLES,
  codes: [],
  rules: [],
  merge: 'merge-patch',
  base: nodeadmBase,
  capacitySettings: (_p, settings, capacity) => eksCapacitySettings('nodeadm', settings, capacity, false),
  source: { how: 'config-dir', label: 'kubeletExtraConfig' },
  refused: () => FORBIDDEN.map((field) => ({ field, message: `eksctl refuses ${field} in kubeletExtraConfig and stops. It says "cannot override, as it's critical to eksctl functionality".` })),
  cgroups: { kind: 'systemd' },
});
