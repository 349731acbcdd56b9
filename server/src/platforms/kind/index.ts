/**
 * kind cluster configs (kind-cluster.ts). The KubeletConfiguration kind generates for every node
 * (kubernetes-sigs/kind pkg/cluster/internal/kubeadm/config.go ConfigTemplateBetaV4, main at fed26882 after
 * v0.33.0-alpha), under the user's kubeadmConfigPatches, which kind applies as RFC 7386 merge patches
 * (pkg/internal/patch): maps merge key by key. Its evictionHard has only "0%" thresholds, which the kubelet drops, so
 * a kind node has no hard eviction at all, memory included (the map being set, the kubelet's defaults do not apply).
 */
import type { Provenance, Setting } from '../../node/model.ts';
import { map, sameForEveryNode, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import { CODES } from './codes.ts';
import kindCluster from './kind-cluster.ts';

const KIND_VERSION = 'v0.33.0-alpha';

const base = sameForEveryNode((): Map<string, Setting> => {
  const from = (field: string, label = `kind default (kind ${KIND_VERSION})`): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  // ConfigData.Derive: systemd; Config(): cgroupfs for Kubernetes before 1.24.
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver', `kind default (kind ${KIND_VERSION}; cgroupfs for Kubernetes before 1.24)`)));
  s.set('cgroupRoot', scalar('/kubelet', from('cgroupRoot')));
  s.set('failSwapOn', scalar(false, from('failSwapOn')));
  s.set('imageGCHighThresholdPercent', scalar(100, from('imageGCHighThresholdPercent')));
  s.set('evictionHard', map({ 'nodefs.available': '0%', 'nodefs.inodesFree': '0%', 'imagefs.available': '0%' }, from('evictionHard')));
  return s;
});

export default definePlatform({
  id: 'kind',
  name: 'kind',
  docs: 'kind',
  formats: [kindCluster],
  examples: EXAMPLES,
  codes: CODES,
  rules: [],
  merge: 'merge-patch',
  base,
  source: { how: 'config-dir' },
  cgroups: { kind: 'systemd' },
});
