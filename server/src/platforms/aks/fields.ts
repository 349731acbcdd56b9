/**
 * The keys of AKS custom node configuration (`az aks nodepool add --kubelet-config FILE`, ARM/Bicep
 * `properties.kubeletConfig`), what AKS makes of each on the node, and the values AKS takes. Sources:
 * - Azure/AgentBaker 06836ee2 pkg/agent/datamodel/types.go CustomKubeletConfig (the keys AKS hands the node) and
 *   pkg/agent/utils.go setCustomKubeletConfig (the KubeletConfiguration it writes: containerLogMaxSizeMB N becomes
 *   containerLogMaxSize "NM", pkg/agent/utils_test.go 1000 → "1000M"; cpuCfsQuotaPeriod also turns on the gate
 *   CustomCPUCFSQuotaPeriod; podMaxPids is podPidsLimit);
 * - MicrosoftDocs/azure-aks-docs fb060abe articles/aks/custom-node-configuration-reference.md (allowed values and
 *   defaults; seccompDefault takes Unconfined or RuntimeDefault; kubeReserved and hardEvictionThreshold are preview).
 * az reads the file with get_file_json and hands the object to its SDK model, which keeps the keys it knows and drops
 * the rest without a word (Azure/azure-cli acs agentpool_decorator.py get_kubelet_config; msrest's key extractors).
 */
export type AksType = 'string' | 'bool' | 'int' | 'list' | 'object';

export interface AksField {
  type: AksType;
  /** The KubeletConfiguration field it becomes. */
  to: string;
  /** Why AKS rejects the value, as the end of a sentence; undefined when it takes it. */
  check?: (v: string | number | boolean) => string | undefined;
  convert?: (v: string | number | boolean) => string | number | boolean;
  /** The values it takes, when it takes a few words. */
  values?: readonly string[];
  doc: string;
}

const intRange = (lo: number, hi: number) => (v: string | number | boolean) =>
  typeof v === 'number' && (v < lo || v > hi) ? `it takes ${lo} to ${hi}` : undefined;
const ONE_OF = (values: readonly string[]) => (v: string | number | boolean) =>
  typeof v === 'string' && !values.includes(v) ? `it takes ${values.join(', ')}` : undefined;

const TOPOLOGY = ['none', 'best-effort', 'restricted', 'single-numa-node'];

export const SECCOMP: Readonly<Record<string, boolean>> = { RuntimeDefault: true, Unconfined: false };

export const KUBELET_FIELDS: Readonly<Record<string, AksField>> = {
  cpuManagerPolicy: { type: 'string', to: 'cpuManagerPolicy', check: ONE_OF(['none', 'static']), values: ['none', 'static'], doc: 'CPU manager policy: none (default) or static.' },
  cpuCfsQuota: { type: 'bool', to: 'cpuCFSQuota', doc: 'Enforce CPU limits with CFS quota (default true). The kubelet calls it cpuCFSQuota.' },
  cpuCfsQuotaPeriod: { type: 'string', to: 'cpuCFSQuotaPeriod', doc: 'CFS quota period, a duration such as 100ms (default). AKS turns on the kubelet gate CustomCPUCFSQuotaPeriod with it.' },
  imageGcHighThreshold: { type: 'int', to: 'imageGCHighThresholdPercent', check: intRange(0, 100), doc: 'Disk usage in percent that starts image garbage collection: 0 to 100 (default 85). The kubelet calls it imageGCHighThresholdPercent.' },
  imageGcLowThreshold: { type: 'int', to: 'imageGCLowThresholdPercent', check: intRange(0, 100), doc: 'Disk usage in percent image garbage collection frees down to, not above the high one (default 80). The kubelet calls it imageGCLowThresholdPercent.' },
  topologyManagerPolicy: { type: 'string', to: 'topologyManagerPolicy', check: ONE_OF(TOPOLOGY), values: TOPOLOGY, doc: 'Topology manager policy: none (default), best-effort, restricted or single-numa-node.' },
  allowedUnsafeSysctls: { type: 'list', to: 'allowedUnsafeSysctls', doc: 'Unsafe sysctls Pods may set: kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.*, net.*.' },
  failSwapOn: { type: 'bool', to: 'failSwapOn', doc: 'Refuse to start with swap on (default true); false with linux-os-config swapFileSizeMB gives the node swap.' },
  containerLogMaxSizeMB: {
    type: 'int',
    to: 'containerLogMaxSize',
    convert: (v) => `${v}M`,
    check: (v) => (typeof v === 'number' && v < 1 ? 'it takes a positive number of megabytes' : undefined),
    doc: 'Size in megabytes a container log reaches before rotation (default 50). AKS writes containerLogMaxSize "<N>M" (decimal megabytes).',
  },
  containerLogMaxFiles: { type: 'int', to: 'containerLogMaxFiles', doc: 'Rotated log files kept per container: 2 or more (default 5).' },
  podMaxPids: { type: 'int', to: 'podPidsLimit', doc: 'Most processes per Pod; -1 (default) for no limit. The kubelet calls it podPidsLimit.' },
  seccompDefault: {
    type: 'string',
    to: 'seccompDefault',
    check: ONE_OF(Object.keys(SECCOMP)),
    values: Object.keys(SECCOMP),
    convert: (v) => SECCOMP[String(v)] ?? false,
    doc: 'Default seccomp profile of every Pod: Unconfined (default) or RuntimeDefault (the kubelet\'s seccompDefault true).',
  },
  kubeReserved: { type: 'object', to: 'kubeReserved', doc: 'Preview (CustomNodeConfigPreview): cpuMillicores and memoryMB reserved for Kubernetes daemons, instead of AKS\'s formula.' },
  hardEvictionThreshold: { type: 'object', to: 'evictionHard', doc: 'Preview (CustomNodeConfigPreview): hard eviction thresholds memoryAvailable, nodeFsAvailable, nodeFsInodesFree.' },
};

/** kubeReserved (preview): AKS's keys → the kubelet's resource and unit (custom-node-configuration-reference.md: millicores, MiB). */
export const RESERVED: Readonly<Record<string, { resource: string; unit: string }>> = {
  cpuMillicores: { resource: 'cpu', unit: 'm' },
  memoryMB: { resource: 'memory', unit: 'Mi' },
};

/** hardEvictionThreshold (preview): AKS's keys → the kubelet's eviction signals. */
export const HARD_EVICTION: Readonly<Record<string, string>> = {
  memoryAvailable: 'memory.available',
  nodeFsAvailable: 'nodefs.available',
  nodeFsInodesFree: 'nodefs.inodesFree',
};

/** hardEvictionThreshold values: Ki, Mi, Gi or a percentage up to 100 (nodeFsInodesFree: a number or a percentage). */
export function hardEvictionCheck(key: string, v: string): string | undefined {
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(v);
  if (pct) return Number(pct[1]) > 100 ? 'a percentage is at most 100%' : undefined;
  if (key === 'nodeFsInodesFree') return /^\d+$/.test(v) ? undefined : 'it takes a number or a percentage';
  return /^\d+(?:\.\d+)?(?:Ki|Mi|Gi)$/.test(v) ? undefined : 'it takes a quantity in Ki, Mi or Gi, or a percentage';
}

/** KubeletConfiguration fields AKS sets itself, which the file has no key for (az drops them). */
export const AKS_OWNS: Readonly<Record<string, string>> = {
  maxPods: "The node pool's --max-pods sets maxPods",
  systemReserved: 'AKS reserves no system-reserved; its kubeReserved (preview) takes cpuMillicores and memoryMB',
  evictionHard: 'AKS sets evictionHard itself; hardEvictionThreshold (preview) is its key',
  readOnlyPort: 'AKS keeps the read-only port closed (readOnlyPort 0)',
  featureGates: "AKS sets the kubelet's feature gates itself",
};
