/**
 * k3s and RKE2: their config.yaml and config.yaml.d/ (k3s.ts, merged as pkg/configfilearg does: k3s-files.ts), and
 * their units, whose `k3s agent|server --kubelet-arg=...` runs the kubelet inside k3s.
 *
 * What k3s passes to every kubelet: an evictionHard map without memory.available, so the kubelet's 100Mi memory
 * default is gone; evictionMinimumReclaim; failSwapOn false; cgroupDriver cgroupfs (systemd when k3s finds systemd
 * managing cgroups); readOnlyPort 0; serializeImagePulls false; no reservations. Read in k3s-io/k3s:
 * - pkg/daemons/agent/agent_linux.go kubeletArgs at commit 82394d7d (flags: eviction-hard imagefs.available<5%,
 *   nodefs.available<5%; eviction-minimum-reclaim 10%);
 * - pkg/daemons/agent/agent.go defaultKubeletConfig, the version that writes 00-k3s-defaults.conf into the
 *   --config-dir it passes (k3s v1.32 and later): the same values as a KubeletConfiguration;
 * - agent_linux.go kubeletArgsAndConfig at commit 00014d28 (the newest stored, Kubernetes 1.37 era): read-only-port 0
 *   as a flag (k3s issue 12164), cgroupDriver systemd when cfg.Systemd, SerializeImagePulls false with a runtime socket.
 * A copy of defaultKubeletConfig with imagefs/nodefs.available 15% and minimum reclaim 20% also exists in the stored
 * sources, in a file whose repository could not be told; until a k3s release is seen with it, 5% / 10% stay.
 * RKE2 (rancher/rke2 at 6ce1a801, v1.36, which embeds k3s main 2a1e2e8cf41b) runs the same agent; it adds only
 * --file-check-frequency=5s, --sync-frequency=30s and --volume-plugin-dir (pkg/executor/staticpod Kubelet) and log
 * flags (pkg/cli/defaults), none of which changes allocatable.
 */
import type { Provenance, Setting } from '../../node/model.ts';
import { map, sameForEveryNode, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import { CODES } from './codes.ts';
import k3s from './k3s.ts';
import { k3sWrapper } from './k3s-files.ts';

const base = sameForEveryNode((): Map<string, Setting> => {
  const from = (field: string, label = 'k3s default'): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  s.set('evictionHard', map({ 'imagefs.available': '5%', 'nodefs.available': '5%' }, from('evictionHard')));
  s.set('evictionMinimumReclaim', map({ 'imagefs.available': '10%', 'nodefs.available': '10%' }, from('evictionMinimumReclaim')));
  s.set('failSwapOn', scalar(false, from('failSwapOn')));
  s.set('cgroupDriver', scalar('cgroupfs', from('cgroupDriver', 'k3s default (systemd when k3s detects systemd cgroups)')));
  s.set('readOnlyPort', scalar(0, from('readOnlyPort')));
  s.set('serializeImagePulls', scalar(false, from('serializeImagePulls')));
  return s;
});

export default definePlatform({
  id: 'k3s',
  name: 'k3s',
  docs: 'k3s',
  formats: [k3s],
  examples: EXAMPLES,
  codes: CODES,
  rules: [],
  merge: 'merge-patch',
  base,
  source: { how: 'config-dir' },
  cgroups: { kind: 'systemd' },
  wrapper: k3sWrapper,
});
