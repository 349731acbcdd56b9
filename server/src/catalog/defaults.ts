/**
 * Defaults the kubelet applies to an unset KubeletConfiguration, and the value
 * sets the analyzer validates against.
 *
 * Sources: pkg/kubelet/apis/config/v1beta1/defaults.go,
 * pkg/kubelet/eviction/defaults_linux.go, pkg/kubelet/eviction/api/types.go,
 * pkg/kubelet/apis/config/validation/validation.go, cmd/kubelet/app/server.go,
 * and shared/reference/kubelet-facts.md sections 1-3.
 */

import { compareVersions } from './flags.ts';

/**
 * Linux default hard eviction thresholds (signal -> quantity or percent).
 * `imagefs.inodesFree` joined the defaults in 1.30 (kubernetes/kubernetes PR #121834); use
 * {@link defaultEvictionHard} for a version-aware set.
 * Setting any evictionHard key in the config file (or the --eviction-hard flag)
 * drops every default not listed, unless mergeDefaultEvictionSettings is true.
 */
export const DEFAULT_EVICTION_HARD: Readonly<Record<string, string>> = Object.freeze({
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
  'imagefs.inodesFree': '5%',
});

/** First minor version whose default eviction set contains each signal (absent = always). */
const DEFAULT_EVICTION_HARD_SINCE: Readonly<Record<string, string>> = Object.freeze({
  'imagefs.inodesFree': '1.30',
});

/** defaultEvictionHard's answers by version (a handful of versions; every node of a long stream asks). */
const BY_VERSION = new Map<string | undefined, Readonly<Record<string, string>>>();

/** The Linux default hard eviction thresholds of a given kubelet minor version (a fresh copy). */
export function defaultEvictionHard(version?: string): Record<string, string> {
  let known = BY_VERSION.get(version);
  if (!known) {
    if (BY_VERSION.size >= 64) BY_VERSION.clear();
    BY_VERSION.set(version, (known = Object.freeze(evictionHardOf(version))));
  }
  return { ...known };
}

function evictionHardOf(version: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [signal, value] of Object.entries(DEFAULT_EVICTION_HARD)) {
    const since = DEFAULT_EVICTION_HARD_SINCE[signal];
    if (version !== undefined && since !== undefined && compareVersions(version, since) < 0) continue;
    out[signal] = value;
  }
  return out;
}

export const DEFAULT_ENFORCE_NODE_ALLOCATABLE: readonly string[] = Object.freeze(['pods']);
export const DEFAULT_CGROUP_DRIVER = 'cgroupfs';
export const DEFAULT_CGROUPS_PER_QOS = true;
/** Empty cgroupRoot is treated as '/' when cgroupsPerQOS is on. */
export const DEFAULT_CGROUP_ROOT = '';
export const DEFAULT_MAX_PODS = 110;
export const DEFAULT_PODS_PER_CORE = 0;
export const DEFAULT_POD_PIDS_LIMIT = -1;
export const DEFAULT_FAIL_SWAP_ON = true;
export const DEFAULT_LOCAL_STORAGE_CAPACITY_ISOLATION = true;
export const DEFAULT_MERGE_DEFAULT_EVICTION_SETTINGS = false;
export const DEFAULT_CPU_MANAGER_POLICY = 'none';
export const DEFAULT_MEMORY_MANAGER_POLICY = 'None';

/** All defaults above in one object, keyed by KubeletConfiguration field name. */
export const KUBELET_DEFAULTS = Object.freeze({
  evictionHard: DEFAULT_EVICTION_HARD,
  enforceNodeAllocatable: DEFAULT_ENFORCE_NODE_ALLOCATABLE,
  cgroupDriver: DEFAULT_CGROUP_DRIVER,
  cgroupsPerQOS: DEFAULT_CGROUPS_PER_QOS,
  cgroupRoot: DEFAULT_CGROUP_ROOT,
  maxPods: DEFAULT_MAX_PODS,
  podsPerCore: DEFAULT_PODS_PER_CORE,
  podPidsLimit: DEFAULT_POD_PIDS_LIMIT,
  failSwapOn: DEFAULT_FAIL_SWAP_ON,
  localStorageCapacityIsolation: DEFAULT_LOCAL_STORAGE_CAPACITY_ISOLATION,
  mergeDefaultEvictionSettings: DEFAULT_MERGE_DEFAULT_EVICTION_SETTINGS,
  cpuManagerPolicy: DEFAULT_CPU_MANAGER_POLICY,
  memoryManagerPolicy: DEFAULT_MEMORY_MANAGER_POLICY,
  kubeReserved: Object.freeze({}) as Readonly<Record<string, string>>,
  systemReserved: Object.freeze({}) as Readonly<Record<string, string>>,
  kubeReservedCgroup: '',
  systemReservedCgroup: '',
  reservedSystemCPUs: '',
});

/** Valid enforceNodeAllocatable values. `none` must stand alone; the `-compressible` values exist since 1.32. */
export const ENFORCE_VALUES = Object.freeze([
  'pods',
  'system-reserved',
  'system-reserved-compressible',
  'kube-reserved',
  'kube-reserved-compressible',
  'none',
] as const);
export type EnforceValue = (typeof ENFORCE_VALUES)[number];

/** First minor version accepting each enforceNodeAllocatable value (absent = always). */
export const ENFORCE_VALUE_SINCE: Readonly<Partial<Record<EnforceValue, string>>> = Object.freeze({
  'system-reserved-compressible': '1.32',
  'kube-reserved-compressible': '1.32',
});

/** Keys accepted in kubeReserved / systemReserved (anything else: `cannot reserve "X" resource`). */
export const RESERVABLE_RESOURCES = Object.freeze(['cpu', 'memory', 'ephemeral-storage', 'pid'] as const);
export type ReservableResource = (typeof RESERVABLE_RESOURCES)[number];

/** Valid cgroupDriver values (the kubelet treats anything other than systemd as cgroupfs). */
export const CGROUP_DRIVERS = Object.freeze(['cgroupfs', 'systemd'] as const);

export interface EvictionSignalInfo {
  signal: string;
  /** What the signal measures. */
  resource: 'memory' | 'ephemeral-storage' | 'inodes' | 'pids';
  /** Node condition raised when the signal crosses a threshold. */
  condition: 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';
  /**
   * Allocatable resource lowered by a hard threshold on this signal (only
   * memory.available and nodefs.available do this).
   */
  reducesAllocatable?: 'memory' | 'ephemeral-storage';
  /** User-set thresholds are ignored (the kubelet derives them from nodefs/imagefs). */
  ignoredWhenSet?: boolean;
  /** Short note for hover. */
  note: string;
}

/** Eviction signals the kubelet accepts (pkg/kubelet/eviction/api/types.go, eviction/helpers.go). Only `<` is a valid operator. */
export const EVICTION_SIGNALS: readonly EvictionSignalInfo[] = Object.freeze([
  { signal: 'memory.available', resource: 'memory', condition: 'MemoryPressure', reducesAllocatable: 'memory', note: 'Node memory not in use (capacity minus working set). A hard threshold is also subtracted from allocatable memory.' },
  { signal: 'allocatableMemory.available', resource: 'memory', condition: 'MemoryPressure', note: 'Memory still free within the pods cgroup (Node Allocatable).' },
  { signal: 'nodefs.available', resource: 'ephemeral-storage', condition: 'DiskPressure', reducesAllocatable: 'ephemeral-storage', note: 'Free space on the filesystem holding the kubelet root dir and pod logs. A hard threshold is also subtracted from allocatable ephemeral-storage.' },
  { signal: 'nodefs.inodesFree', resource: 'inodes', condition: 'DiskPressure', note: 'Free inodes on the node filesystem.' },
  { signal: 'imagefs.available', resource: 'ephemeral-storage', condition: 'DiskPressure', note: 'Free space on the filesystem the container runtime uses for images (and writable layers).' },
  { signal: 'imagefs.inodesFree', resource: 'inodes', condition: 'DiskPressure', note: 'Free inodes on the image filesystem.' },
  { signal: 'containerfs.available', resource: 'ephemeral-storage', condition: 'DiskPressure', ignoredWhenSet: true, note: 'Free space on the filesystem holding writable container layers; thresholds are derived from nodefs/imagefs and user values are ignored.' },
  { signal: 'containerfs.inodesFree', resource: 'inodes', condition: 'DiskPressure', ignoredWhenSet: true, note: 'Free inodes on the container filesystem; thresholds are derived from nodefs/imagefs and user values are ignored.' },
  { signal: 'pid.available', resource: 'pids', condition: 'PIDPressure', note: 'Process IDs still available on the node.' },
] satisfies EvictionSignalInfo[]);

const SIGNAL_MAP: ReadonlyMap<string, EvictionSignalInfo> = new Map(EVICTION_SIGNALS.map((s) => [s.signal, s]));

/** Looks an eviction signal up by name. O(1). */
export function evictionSignalInfo(signal: string): EvictionSignalInfo | undefined {
  return SIGNAL_MAP.get(signal);
}
