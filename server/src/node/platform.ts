/**
 * The configuration a platform tool writes for the kubelet before the user's settings, and how the two merge.
 *
 * - Talos (siderolabs/talos internal/app/machined/pkg/controllers/k8s/kubelet_spec.go NewKubeletConfiguration,
 *   constants from pkg/machinery/constants/constants.go; Talos v1.14): the user's extraConfig is decoded first, then
 *   Talos fills the fields left unset. `systemReserved` is filled only when the user's map is empty
 *   (`len(config.SystemReserved) == 0`), so a map of the user's replaces all of Talos's keys: rule 'fill-unset'.
 * - EKS nodeadm (awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go defaultKubeletSubConfig and
 *   withDefaultReservedResources; nodeadm v20260724): its config.json is the kubelet's --config and the user's
 *   kubelet.config is the drop-in config.json.d/40-nodeadm.conf, which the kubelet merges as a JSON merge patch
 *   (kubernetes cmd/kubelet/app/server.go mergeKubeletConfigurations): maps merge key by key: rule 'merge-patch'.
 */
import type { PlatformInfo } from '../parse/types.ts';
import type { Capacity, Item, Provenance, Setting } from './model.ts';

/** The tool's name in messages. */
export const TOOL_NAMES: Record<PlatformInfo['tool'], string> = { talos: 'Talos', nodeadm: 'nodeadm', openshift: 'OpenShift', eksctl: 'nodeadm', kops: 'kops', bottlerocket: 'Bottlerocket', k3s: 'k3s', karpenter: 'Karpenter', kind: 'kind' };

export interface PlatformBase {
  rule: 'fill-unset' | 'merge-patch';
  settings: Map<string, Setting>;
}

function scalar(value: string | number | boolean, from: Provenance): Setting {
  return { kind: 'scalar', value, text: String(value), from };
}

function map(entries: Record<string, string>, from: Provenance): Setting & { kind: 'map' } {
  const items: Item[] = Object.entries(entries).map(([key, v]) => ({ key, value: v, text: v, from }));
  return { kind: 'map', items, from };
}

/** Talos's values, from NewKubeletConfiguration: forced fields (ProtectedConfigurationFields) and defaults. */
function talosBase(p: PlatformInfo): Map<string, Setting> {
  const from = (field: string, extra = ''): Provenance => ({ how: 'platform', label: `Talos default${extra}`, field });
  const role = p.role === 'controlplane' ? ' (control plane)' : p.role === 'worker' ? ' (worker)' : ' (worker; 512Mi on control planes)';
  const memory = p.role === 'controlplane' ? '512Mi' : '384Mi';
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
  s.set('systemReserved', map({ cpu: '50m', memory, pid: '100', 'ephemeral-storage': '256Mi' }, from('systemReserved', role)));
  return s;
}

/** nodeadm's fallback when it cannot look the instance type up (nodeadm/internal/kubelet/eni_max_pods.go). */
const NODEADM_DEFAULT_MAX_PODS = 110;

/** nodeadm's tiered CPU reservation (getCPUMillicoresToReserve): 6% of the first core, 1% of the second, 0.5% up to 4, 0.25% above. */
export function nodeadmCpuMillis(totalMillis: number): number {
  const ranges = [0, 1000, 2000, 4000, totalMillis];
  const perTenThousand = [600, 100, 50, 25];
  let out = 0;
  for (let i = 0; i < perTenThousand.length; i++) {
    if (totalMillis <= ranges[i]) continue;
    out += Math.floor((Math.min(totalMillis, ranges[i + 1]) - ranges[i]) * perTenThousand[i] / 10000);
  }
  return out;
}

function nodeadmBase(cpuMillis: number | undefined): Map<string, Setting> {
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
  const pods = NODEADM_DEFAULT_MAX_PODS;
  const podsLabel = `nodeadm default for maxPods ${pods} (the instance type's ENI limit decides it on the node)`;
  s.set('maxPods', scalar(pods, from('maxPods', podsLabel)));
  const reserved: Record<string, string> = { 'ephemeral-storage': '1Gi', memory: `${11 * pods + 255}Mi` };
  if (cpuMillis !== undefined) reserved.cpu = `${nodeadmCpuMillis(cpuMillis)}m`;
  s.set('kubeReserved', map(reserved, from('kubeReserved', `nodeadm default (11 × maxPods + 255 Mi for maxPods ${pods}, tiered CPU)`)));
  s.set('systemReservedCgroup', scalar('/system', from('systemReservedCgroup')));
  s.set('kubeReservedCgroup', scalar('/runtime', from('kubeReservedCgroup')));
  return s;
}

/**
 * The OpenShift Machine Config Operator's kubelet.conf template (openshift/machine-config-operator
 * templates/{master,worker}/01-*-kubelet/_base/files/kubelet.yaml, read at commit 00f8f430) and the system-reserved
 * it passes as a flag: kubelet.service runs `--system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=...,
 * ephemeral-storage=${SYSTEM_RESERVED_ES}` from /etc/node-sizing.env, whose values default to 500m, 1Gi and 1Gi and
 * take the user's spec.kubeletConfig.systemReserved keys (pkg/controller/kubelet-config/helpers.go
 * createNewKubeletDynamicSystemReservedIgnition and generateKubeletIgnFiles). With autoSizingReserved the node
 * computes cpu and memory itself from its size, so no number is shown for them (allocatable says so).
 */
function openshiftBase(p: PlatformInfo): Map<string, Setting> {
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
  const reserved: Record<string, string> = p.autoSizing ? { 'ephemeral-storage': '1Gi' } : { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1Gi' };
  s.set('systemReserved', map(reserved, from('systemReserved', 'OpenShift default (/etc/node-sizing.env)')));
  return s;
}

/**
 * What kops sets for every kubelet unless the spec does (kubernetes/kops pkg/model/components/kubelet.go
 * KubeletOptionsBuilder: evictionHard when unset, cgroupRoot "/"); cgroupDriver systemd, protectKernelDefaults and the
 * graceful-shutdown periods as kops's own integration test renders them for Kubernetes 1.32
 * (tests/integration/update_cluster/karpenter nodeupconfig at commit 0f9411b5, corpus-embedded 027).
 */
function kopsBase(p: PlatformInfo): Map<string, Setting> {
  const s = new Map<string, Setting>();
  if (p.rendered) return s;
  const from = (field: string): Provenance => ({ how: 'platform', label: 'kops default', field });
  s.set('evictionHard', map({ 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '10%', 'imagefs.inodesFree': '5%' }, from('evictionHard')));
  s.set('cgroupRoot', scalar('/', from('cgroupRoot')));
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver')));
  s.set('protectKernelDefaults', scalar(true, from('protectKernelDefaults')));
  s.set('shutdownGracePeriod', scalar('30s', from('shutdownGracePeriod')));
  s.set('shutdownGracePeriodCriticalPods', scalar('10s', from('shutdownGracePeriodCriticalPods')));
  return s;
}

/**
 * Bottlerocket's kubelet-config template (bottlerocket-os/bottlerocket-core-kit packages/kubernetes-1.30/kubelet-config,
 * commit 097546f3): fixed values, maxPods 110 unless settings.kubernetes.max-pods (pluto sets it from the instance
 * type on the node), and the kube-reserved it computes for keys the user leaves out (sources/api/schnauzer helpers.rs
 * kube_reserve_memory: 11 × max-pods + 255 Mi; kube_reserve_cpu: tiered from the cores, added once the capacity is
 * known; ephemeral-storage 1Gi).
 */
function bottlerocketBase(p: PlatformInfo): Map<string, Setting> {
  const from = (field: string, label = 'Bottlerocket default'): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  const pods = p.maxPods ?? NODEADM_DEFAULT_MAX_PODS;
  s.set('maxPods', scalar(pods, from('maxPods', `Bottlerocket default for maxPods ${pods} (the instance type decides it on the node)`)));
  s.set('kubeReserved', map({ memory: `${11 * pods + 255}Mi`, 'ephemeral-storage': '1Gi' }, from('kubeReserved', `Bottlerocket default (11 × max-pods + 255 Mi for max-pods ${pods})`)));
  if (!p.reservedCpus) s.set('kubeReservedCgroup', scalar('/runtime', from('kubeReservedCgroup')));
  if (p.systemReserved && !p.reservedCpus) s.set('systemReservedCgroup', scalar('/system', from('systemReservedCgroup')));
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

/**
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
function k3sBase(): Map<string, Setting> {
  const from = (field: string, label = 'k3s default'): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  s.set('evictionHard', map({ 'imagefs.available': '5%', 'nodefs.available': '5%' }, from('evictionHard')));
  s.set('evictionMinimumReclaim', map({ 'imagefs.available': '10%', 'nodefs.available': '10%' }, from('evictionMinimumReclaim')));
  s.set('failSwapOn', scalar(false, from('failSwapOn')));
  s.set('cgroupDriver', scalar('cgroupfs', from('cgroupDriver', 'k3s default (systemd when k3s detects systemd cgroups)')));
  s.set('readOnlyPort', scalar(0, from('readOnlyPort')));
  s.set('serializeImagePulls', scalar(false, from('serializeImagePulls')));
  return s;
}

/**
 * The KubeletConfiguration kind generates for every node (kubernetes-sigs/kind pkg/cluster/internal/kubeadm/config.go
 * ConfigTemplateBetaV4, main at fed26882 after v0.33.0-alpha), under the user's kubeadmConfigPatches, which kind
 * applies as RFC 7386 merge patches (pkg/internal/patch): maps merge key by key. Its evictionHard has only "0%"
 * thresholds, which the kubelet drops, so a kind node has no hard eviction at all, memory included (the map being set,
 * the kubelet's defaults do not apply).
 */
function kindBase(): Map<string, Setting> {
  const from = (field: string, label = `kind default (kind ${KIND_VERSION})`): Provenance => ({ how: 'platform', label, field });
  const s = new Map<string, Setting>();
  // ConfigData.Derive: systemd; Config(): cgroupfs for Kubernetes before 1.24.
  s.set('cgroupDriver', scalar('systemd', from('cgroupDriver', `kind default (kind ${KIND_VERSION}; cgroupfs for Kubernetes before 1.24)`)));
  s.set('cgroupRoot', scalar('/kubelet', from('cgroupRoot')));
  s.set('failSwapOn', scalar(false, from('failSwapOn')));
  s.set('imageGCHighThresholdPercent', scalar(100, from('imageGCHighThresholdPercent')));
  s.set('evictionHard', map({ 'nodefs.available': '0%', 'nodefs.inodesFree': '0%', 'imagefs.available': '0%' }, from('evictionHard')));
  return s;
}

const KIND_VERSION = 'v0.33.0-alpha';

/** The karpenter-provider-aws release the Karpenter base holds for. */
const KARPENTER = 'karpenter-provider-aws v1.14.1';

/**
 * The pod count Karpenter sizes kube-reserved memory with (pkg/providers/instancetype/types.go NewInstanceType,
 * v1.14.1): AL2, AL2023 and Custom (FeatureFlags().UsesENILimitedMemoryOverhead) take the instance type's ENI limit
 * whatever maxPods says; Bottlerocket and Windows take the node's pods (maxPods when set, else the ENI limit,
 * or 110 on Windows, which has no ENI-limited pod density).
 */
function karpenterMemoryPods(p: PlatformInfo, eniPods: number | undefined): { pods: number; why: string } {
  const family = p.amiFamily;
  if ((family === 'Bottlerocket' || family === 'Windows') && p.maxPods !== undefined) return { pods: p.maxPods, why: `maxPods ${p.maxPods}` };
  if (family === 'Windows') return { pods: 110, why: '110 pods on Windows' };
  if (eniPods !== undefined) return { pods: eniPods, why: `the ENI limit of ${eniPods} pods` };
  return { pods: 110, why: '110 pods until an instance type is known' };
}

/**
 * What Karpenter assumes a node reserves when it decides whether pods fit on an instance type (aws/karpenter-provider-aws
 * pkg/providers/instancetype/types.go, v1.14.1): kubeReservedResources (memory 11 × pods + 255 Mi, ephemeral-storage
 * 1Gi, and the tiered CPU share, whose float arithmetic gives nodeadmCpuMillis's numbers for every whole vCPU count),
 * with the user's kubeReserved assigned over it key by key (lo.Assign); systemReserved only as the user writes it;
 * evictionThreshold: memory 100Mi and 10% of the disk, each replaced by the user's memory.available or
 * nodefs.available alone. maxPods (pods()) is the ENI limit unless spec.kubelet.maxPods, 110 on Windows. The user's
 * maps merge key by key: rule 'merge-patch'. This is Karpenter's scheduling model; the node applies what its AMI
 * family's bootstrap computes from the same spec.kubelet (nodeadm, Bottlerocket).
 */
function karpenterBase(p: PlatformInfo): Map<string, Setting> {
  const assumed = (field: string, what: string): Provenance => ({ how: 'platform', label: `Karpenter's assumed ${what} (${KARPENTER})`, field });
  const s = new Map<string, Setting>();
  const pods = p.amiFamily === 'Windows' ? 110 : undefined;
  s.set('maxPods', scalar(pods ?? 110, assumed('maxPods', pods ? 'maxPods 110 on Windows' : 'maxPods: the ENI limit of the instance type, 110 until one is known')));
  const m = karpenterMemoryPods(p, undefined);
  const kr = map({ memory: `${11 * m.pods + 255}Mi`, 'ephemeral-storage': '1Gi' }, assumed('kubeReserved', 'kube-reserved'));
  const memory = assumed('kubeReserved', `kube-reserved memory: 11 × ${m.pods} + 255 Mi for ${m.why}`);
  s.set('kubeReserved', { ...kr, items: kr.items.map((i) => (i.key === 'memory' ? { ...i, from: memory } : i)) });
  s.set('evictionHard', map({ 'memory.available': '100Mi', 'nodefs.available': '10%' }, assumed('evictionHard', 'eviction threshold')));
  return s;
}

export function platformBase(p: PlatformInfo, cpuMillis?: number): PlatformBase {
  if (p.tool === 'karpenter') return { rule: 'merge-patch', settings: karpenterBase(p) };
  if (p.tool === 'kind') return { rule: 'merge-patch', settings: kindBase() };
  if (p.tool === 'k3s') return { rule: 'merge-patch', settings: k3sBase() };
  if (p.tool === 'bottlerocket') return { rule: 'merge-patch', settings: bottlerocketBase(p) };
  if (p.tool === 'kops') return { rule: 'merge-patch', settings: kopsBase(p) };
  if (p.tool === 'talos') return { rule: 'fill-unset', settings: talosBase(p) };
  if (p.tool === 'openshift') return { rule: 'merge-patch', settings: openshiftBase(p) };
  // eksctl on Amazon Linux 2023 hands a node group's kubeletExtraConfig to nodeadm as kubelet.config (parse/eksctl.ts).
  return { rule: 'merge-patch', settings: nodeadmBase(cpuMillis) };
}

/**
 * What nodeadm computes from the machine, known only once the capacity is (a modeline or the analysis's capacity):
 * kubeReserved cpu from the cores, and maxPods with kubeReserved memory from the pod capacity, which stands for the
 * instance type's ENI limit nodeadm looks up. Undefined when nothing changes. Only values that are still nodeadm's
 * change: what the user's config or flags set stays.
 */
export function platformCapacitySettings(p: PlatformInfo, settings: ReadonlyMap<string, Setting>, capacity: Capacity | undefined): Map<string, Setting> | undefined {
  if (p.tool === 'karpenter') return karpenterCapacitySettings(p, settings, capacity);
  if ((p.tool !== 'nodeadm' && p.tool !== 'eksctl' && p.tool !== 'bottlerocket') || !capacity || (capacity.cpu === undefined && capacity.pods === undefined)) return undefined;
  const who = p.tool === 'bottlerocket' ? 'Bottlerocket' : 'nodeadm';
  const out = new Map(settings);
  let changed = false;
  const kr = settings.get('kubeReserved');
  let items = kr?.kind === 'map' ? kr.items : undefined;
  const nodeadms = (key: string) => items?.find((i) => i.key === key)?.from.how === 'platform';
  const pods = capacity.pods;
  if (pods !== undefined && pods > 0n && pods < 100000n) {
    const maxPods = settings.get('maxPods');
    const label = `${who} default for maxPods ${pods} (the pod capacity given)`;
    if (maxPods?.from.how === 'platform') {
      out.set('maxPods', { kind: 'scalar', value: Number(pods), text: String(pods), from: { how: 'platform', label, field: 'maxPods' } });
      changed = true;
    }
    // Bottlerocket computes the memory from settings.kubernetes.max-pods, so a max-pods of the user's keeps it.
    if (items && nodeadms('memory') && !(p.tool === 'bottlerocket' && maxPods?.from.how !== 'platform')) {
      const memory = `${11n * pods + 255n}Mi`;
      items = items.map((i) => (i.key === 'memory' ? { key: 'memory', value: memory, text: memory, from: { how: 'platform', label: `${who} default (11 × ${pods} + 255 Mi)`, field: 'kubeReserved' } } : i));
    }
  }
  // the tool's cpu of another candidate type (features/allocatable-candidates.ts) is computed again
  if (capacity.cpu !== undefined && items?.some((i) => i.from.how === 'platform') && !items.some((i) => i.key === 'cpu' && i.from.how !== 'platform')) {
    const cpu = `${nodeadmCpuMillis(Number(capacity.cpu))}m`;
    items = [...items.filter((i) => i.key !== 'cpu'), { key: 'cpu', value: cpu, text: cpu, from: { how: 'platform', label: `${who} default (tiered CPU for ${Number(capacity.cpu) / 1000} cores)`, field: 'kubeReserved' } }];
  }
  if (kr?.kind === 'map' && items && items !== kr.items) {
    out.set('kubeReserved', { ...kr, items });
    changed = true;
  }
  return changed ? out : undefined;
}

/**
 * Karpenter's assumptions once the instance type is known (the capacity's pods stand for its ENI limit): maxPods, the
 * kube-reserved memory from the pods karpenterMemoryPods names, and the tiered CPU. Values of the user's stay.
 */
function karpenterCapacitySettings(p: PlatformInfo, settings: ReadonlyMap<string, Setting>, capacity: Capacity | undefined): Map<string, Setting> | undefined {
  if (!capacity || (capacity.cpu === undefined && capacity.pods === undefined)) return undefined;
  const label = (what: string) => `Karpenter's assumed ${what} (${KARPENTER})`;
  const out = new Map(settings);
  let changed = false;
  const eni = capacity.pods !== undefined && capacity.pods > 0n && capacity.pods < 100000n ? Number(capacity.pods) : undefined;
  const maxPods = settings.get('maxPods');
  if (eni !== undefined && maxPods?.from.how === 'platform' && p.amiFamily !== 'Windows') {
    out.set('maxPods', scalar(eni, { how: 'platform', label: label(`maxPods: the ENI limit of ${eni} pods`), field: 'maxPods' }));
    changed = true;
  }
  const kr = settings.get('kubeReserved');
  if (kr?.kind !== 'map') return changed ? out : undefined;
  let items = kr.items;
  const assumed = (key: string) => items.find((i) => i.key === key)?.from.how === 'platform';
  const m = karpenterMemoryPods(p, eni);
  if (eni !== undefined && assumed('memory')) {
    const memory = `${11 * m.pods + 255}Mi`;
    items = items.map((i) => (i.key === 'memory' ? { key: 'memory', value: memory, text: memory, from: { how: 'platform', label: label(`kube-reserved memory: 11 × ${m.pods} + 255 Mi for ${m.why}`), field: 'kubeReserved' } } : i));
  }
  // Karpenter's cpu is its own unless the user's map names cpu; an assumed one (of another candidate type) is redone.
  if (capacity.cpu !== undefined && !items.some((i) => i.key === 'cpu' && i.from.how !== 'platform')) {
    const cpu = `${nodeadmCpuMillis(Number(capacity.cpu))}m`;
    const item = { key: 'cpu', value: cpu, text: cpu, from: { how: 'platform' as const, label: label(`kube-reserved cpu: tiered for ${Number(capacity.cpu) / 1000} cores`), field: 'kubeReserved' } };
    items = [...items.filter((i) => i.key !== 'cpu'), item];
  }
  if (items !== kr.items) {
    out.set('kubeReserved', { ...kr, items });
    changed = true;
  }
  return changed ? out : undefined;
}
