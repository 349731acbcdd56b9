/**
 * The keys of GKE's node system configuration (`gcloud container node-pools create --system-config-from-file`), as
 * gcloud reads them and the GKE API checks them. Sources, read at google-cloud-sdk-unofficial/google-cloud-sdk
 * 4643fc9c (gcloud 578.0.0):
 * - lib/googlecloudsdk/api_lib/container/util.py LoadSystemConfigFromYAML: the only keys gcloud takes (an unknown key
 *   fails the command, `unknown fields: [...] in "kubeletConfig"`) and their Python types (`value of "x" must be int`);
 *   the YAML is read as YAML 1.1 (core/yaml.py), like this project's YAML reader;
 * - lib/googlecloudsdk/command_lib/container/flags.py AddSystemConfigFlag: the table of keys and allowed values;
 * - generated_clients/apis/container/v1/container_v1_messages.py NodeKubeletConfig, EvictionSignals,
 *   EvictionMinimumReclaim: the ranges the GKE API enforces and the defaults.
 * Each key says the KubeletConfiguration field it becomes, so every kubelet rule applies at the user's line.
 */
import { parseGoDuration } from '../../quantity/duration.ts';
import { parseQuantity, value as quantityValue } from '../../quantity/quantity.ts';

export type GkeType = 'str' | 'bool' | 'int' | 'list' | 'dict';

export interface GkeField {
  /** The Python type gcloud checks (`isinstance`; a YAML bool passes an int check, as in Python). */
  type: GkeType;
  /** The KubeletConfiguration field it becomes; undefined when GKE keeps it to itself (nodeSwapSizeGib). */
  to?: string;
  /** Why GKE rejects the value, as the end of a sentence ("it takes 1024 to 4194303"); undefined when it accepts it. */
  check?: (v: string | number | boolean) => string | undefined;
  /** The value the kubelet gets, when it is not the user's (insecureKubeletReadonlyPortEnabled false → readOnlyPort 0). */
  convert?: (v: string | number | boolean) => string | number | boolean;
  /** One line for hover and completion. */
  doc: string;
}

const MI = 1024n * 1024n;

const intRange = (lo: number, hi: number) => (v: string | number | boolean) =>
  typeof v === 'number' && (v < lo || v > hi) ? `it takes ${lo} to ${hi}` : undefined;

/** A Go duration in nanoseconds, or undefined when it is not one. */
export function nanosOf(v: string | number | boolean): bigint | undefined {
  if (typeof v !== 'string') return undefined;
  const d = parseGoDuration(v);
  return d.ok ? d.nanos : undefined;
}

const MS = 1_000_000n;
const SECOND = 1000n * MS;

const durationRange = (lo: bigint, hi: bigint, words: string) => (v: string | number | boolean) => {
  const n = nanosOf(v);
  if (n === undefined) return `it takes a Go duration such as ${words.split(' to ')[0]}`;
  return n < lo || n > hi ? `it takes ${words}` : undefined;
};

/** containerLogMaxSize: a quantity in Ki, Mi or Gi from 10Mi to 500Mi (NodeKubeletConfig.containerLogMaxSize). */
function logSize(v: string | number | boolean): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi)$/.exec(v);
  if (!m) return 'it takes a number with the unit Ki, Mi or Gi, from 10Mi to 500Mi';
  const q = parseQuantity(v);
  if (!q.ok) return 'it takes a number with the unit Ki, Mi or Gi, from 10Mi to 500Mi';
  const bytes = quantityValue(q.q);
  return bytes < 10n * MI || bytes > 500n * MI ? 'it takes 10Mi to 500Mi' : undefined;
}

const ONE_OF = (values: readonly string[]) => (v: string | number | boolean) =>
  typeof v === 'string' && !values.includes(v) ? `it takes ${values.join(' or ')}` : undefined;

export const KUBELET_FIELDS: Readonly<Record<string, GkeField>> = {
  cpuManagerPolicy: { type: 'str', to: 'cpuManagerPolicy', check: ONE_OF(['none', 'static']), doc: 'CPU manager policy: none (default) or static.' },
  cpuCFSQuota: { type: 'bool', to: 'cpuCFSQuota', doc: 'Enforce CPU limits with CFS quota (default true).' },
  cpuCFSQuotaPeriod: { type: 'str', to: 'cpuCFSQuotaPeriod', check: durationRange(MS, SECOND, '1ms to 1s'), doc: 'CFS quota period, a duration from 1ms to 1s (default 100ms).' },
  podPidsLimit: { type: 'int', to: 'podPidsLimit', check: intRange(1024, 4194303), doc: 'Most processes per Pod: 1024 to 4194303.' },
  insecureKubeletReadonlyPortEnabled: {
    type: 'bool',
    to: 'readOnlyPort',
    convert: (v) => (v === true ? 10255 : 0),
    doc: "The kubelet's unauthenticated read-only port 10255: true opens it (readOnlyPort 10255), false closes it (readOnlyPort 0).",
  },
  allowedUnsafeSysctls: { type: 'list', to: 'allowedUnsafeSysctls', doc: 'Unsafe sysctls Pods may set: kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.* and net.* only.' },
  containerLogMaxSize: { type: 'str', to: 'containerLogMaxSize', check: logSize, doc: 'Size a container log reaches before rotation: 10Mi to 500Mi (default 10Mi).' },
  containerLogMaxFiles: { type: 'int', to: 'containerLogMaxFiles', check: intRange(2, 10), doc: 'Rotated log files kept per container: 2 to 10 (default 5).' },
  imageGcHighThresholdPercent: { type: 'int', to: 'imageGCHighThresholdPercent', check: intRange(10, 85), doc: 'Disk usage that starts image garbage collection: 10 to 85, above the low one (default 85).' },
  imageGcLowThresholdPercent: { type: 'int', to: 'imageGCLowThresholdPercent', check: intRange(10, 85), doc: 'Disk usage image garbage collection frees down to: 10 to 85, below the high one (default 80).' },
  imageMinimumGcAge: { type: 'str', to: 'imageMinimumGCAge', check: durationRange(0n, 120n * SECOND, '0s to 2m'), doc: 'Minimum age of an unused image before it is collected: at most 2m (default 2m).' },
  imageMaximumGcAge: { type: 'str', to: 'imageMaximumGCAge', check: (v) => (nanosOf(v) === undefined ? 'it takes a Go duration such as 24h' : undefined), doc: 'Unused images older than this are collected; 0s (default) turns it off.' },
  topologyManager: { type: 'dict', doc: 'Topology manager: policy (none, best-effort, restricted, single-numa-node) and scope (pod, container).' },
  memoryManager: { type: 'dict', doc: 'Memory manager: policy None or Static.' },
  singleProcessOomKill: { type: 'bool', to: 'singleProcessOOMKill', doc: 'Kill single processes on OOM instead of the whole container (cgroup v2).' },
  nodeSwapSizeGib: { type: 'int', check: (v) => (typeof v === 'number' && v < 0 ? 'it takes 0 or more' : undefined), doc: "GKE's swap file size in GiB, at most half the boot disk (0: no swap)." },
  maxParallelImagePulls: { type: 'int', to: 'maxParallelImagePulls', check: intRange(2, 5), doc: 'Image pulls at once: 2 to 5 (default 2 or 3 by disk type).' },
  shutdownGracePeriodSeconds: {
    type: 'int',
    to: 'shutdownGracePeriod',
    convert: (v) => `${v}s`,
    check: (v) => (typeof v === 'number' && ![0, 30, 120].includes(v) ? 'it takes 0, 30 or 120' : undefined),
    doc: 'Graceful node shutdown for Spot VMs, in seconds: 0, 30 or 120.',
  },
  shutdownGracePeriodCriticalPodsSeconds: {
    type: 'int',
    to: 'shutdownGracePeriodCriticalPods',
    convert: (v) => `${v}s`,
    check: intRange(0, 120),
    doc: 'Share of the shutdown grace period for critical Pods, in seconds: 0 to 120.',
  },
  evictionSoft: { type: 'dict', to: 'evictionSoft', doc: 'Soft eviction thresholds by signal: memoryAvailable, nodefsAvailable, nodefsInodesFree, imagefsAvailable, imagefsInodesFree, pidAvailable.' },
  evictionSoftGracePeriod: { type: 'dict', to: 'evictionSoftGracePeriod', doc: 'Grace period of each soft eviction signal, at most 5m.' },
  evictionMinimumReclaim: { type: 'dict', to: 'evictionMinimumReclaim', doc: 'Minimum reclaim of each eviction signal, a percentage up to 10%.' },
  evictionMaxPodGracePeriodSeconds: { type: 'int', to: 'evictionMaxPodGracePeriod', check: intRange(0, 300), doc: 'Longest Pod grace period on soft eviction, in seconds: 0 to 300.' },
  crashLoopBackOff: { type: 'dict', doc: 'Container restart back-off: maxContainerRestartPeriod, 1s to 300s.' },
};

/** Eviction signals in gcloud's camelCase (util.py eviction_map_string_fields) → the kubelet's names. */
export const SIGNALS: Readonly<Record<string, string>> = {
  memoryAvailable: 'memory.available',
  nodefsAvailable: 'nodefs.available',
  nodefsInodesFree: 'nodefs.inodesFree',
  imagefsAvailable: 'imagefs.available',
  imagefsInodesFree: 'imagefs.inodesFree',
  pidAvailable: 'pid.available',
};

/** EvictionSignals (v1 messages): percentage bounds of each soft threshold, memoryAvailable a quantity from 100Mi. */
const SOFT_PERCENT: Readonly<Record<string, [number, number]>> = {
  nodefsAvailable: [10, 50],
  nodefsInodesFree: [5, 50],
  imagefsAvailable: [15, 50],
  imagefsInodesFree: [5, 50],
  pidAvailable: [10, 50],
};

const percent = (v: string): number | undefined => {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(v);
  return m ? Number(m[1]) : undefined;
};

/** Why GKE rejects a value of an eviction map (undefined: accepted). */
export function signalCheck(map: string, signal: string, v: string): string | undefined {
  if (map === 'evictionSoft') {
    if (signal === 'memoryAvailable') {
      const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi)$/.exec(v);
      const q = m ? parseQuantity(v) : undefined;
      if (!q?.ok) return 'it takes a quantity in Ki, Mi or Gi, at least 100Mi';
      return quantityValue(q.q) < 100n * MI ? 'it takes at least 100Mi (and at most half the memory)' : undefined;
    }
    const p = percent(v);
    const [lo, hi] = SOFT_PERCENT[signal];
    if (p === undefined) return `it takes a percentage from ${lo}% to ${hi}%`;
    return p < lo || p > hi ? `it takes ${lo}% to ${hi}%` : undefined;
  }
  if (map === 'evictionSoftGracePeriod') {
    const n = nanosOf(v);
    if (n === undefined) return 'it takes a Go duration such as 30s';
    return n <= 0n || n > 300n * SECOND ? 'it takes a positive duration up to 5m' : undefined;
  }
  const p = percent(v);
  if (p === undefined) return 'it takes a percentage up to 10%';
  return p <= 0 || p > 10 ? 'it takes more than 0% and up to 10%' : undefined;
}

/** topologyManager.policy: the GKE API's values; gcloud's own help writes BestEffort, the kubelet reads best-effort. */
export const TOPOLOGY_POLICIES: Readonly<Record<string, string>> = {
  none: 'none', 'best-effort': 'best-effort', restricted: 'restricted', 'single-numa-node': 'single-numa-node',
  None: 'none', BestEffort: 'best-effort', Restricted: 'restricted', SingleNumaNode: 'single-numa-node',
};
export const TOPOLOGY_SCOPES = ['pod', 'container'];
/** memoryManager.policy: gcloud's help says Static or None, the API's text static or none; the kubelet reads Static/None. */
export const MEMORY_POLICIES: Readonly<Record<string, string>> = { none: 'None', None: 'None', static: 'Static', Static: 'Static' };

/** KubeletConfiguration fields GKE sets itself: the file has no key for them (gcloud rejects them as unknown). */
export const GKE_OWNS: Readonly<Record<string, string>> = {
  kubeReserved: 'GKE computes kube-reserved from the machine size',
  systemReserved: 'GKE reserves nothing as system-reserved; it computes kube-reserved from the machine size',
  evictionHard: 'GKE sets the hard eviction thresholds itself (memory.available 100Mi); evictionSoft is yours',
  maxPods: "The node pool's --max-pods-per-node sets maxPods",
  readOnlyPort: 'Write insecureKubeletReadonlyPortEnabled: false to close the read-only port',
  featureGates: "GKE sets the kubelet's feature gates itself",
};
