/**
 * kubernetes/kubernetes pkg/kubelet/apis/config/validation/validation_test.go
 * TestValidateKubeletConfiguration (read at commit 0056e52be6a442570b987023d1aaef50c068b3b7, with
 * validation.go at 001332b0422071acf4860769f18e34b5e9b7c1bc), one row per upstream case, written as
 * configuration files. Upstream validates the internal type after defaulting; a file goes through
 * v1beta1 defaults.go first, so a zero or empty value that defaulting replaces cannot reach
 * validation from a file: those rows say so in `note` and expect what the kubelet really does.
 * Upstream replaces the whole FeatureGates map in a case; so do these rows.
 */
import { test } from 'node:test';
import { checkCase, type Case, type ConfigKeys } from '../helpers/upstream-config.ts';
import { fieldInfo } from '../../server/src/catalog/fields.ts';
import { gateAt } from '../../server/src/catalog/feature-gates.ts';
import { compareVersions, NEWEST_VERSION } from '../../server/src/catalog/flags.ts';

/** successConfig, as a file. enforceNodeAllocatable is ["pods"] here: enforcing the reserved cgroups needs reservations at start-up. */
const SUCCESS: ConfigKeys = {
  cgroupsPerQOS: 'true',
  enforceNodeAllocatable: '\n  - pods',
  systemReservedCgroup: '/system.slice',
  kubeReservedCgroup: '/kubelet.service',
  podLogsDir: '/logs',
  eventBurst: '10',
  eventRecordQPS: '5',
  healthzPort: '10248',
  imageGCHighThresholdPercent: '85',
  imageGCLowThresholdPercent: '80',
  iptablesDropBit: '15',
  iptablesMasqueradeBit: '14',
  kubeAPIBurst: '10',
  kubeAPIQPS: '5',
  maxOpenFiles: '1000000',
  maxPods: '110',
  oomScoreAdj: '-999',
  podsPerCore: '100',
  port: '65535',
  readOnlyPort: '0',
  registryBurst: '10',
  registryPullQPS: '5',
  hairpinMode: 'promiscuous-bridge',
  nodeLeaseDurationSeconds: '1',
  cpuCFSQuotaPeriod: '25ms',
  topologyManagerScope: 'pod',
  topologyManagerPolicy: 'single-numa-node',
  shutdownGracePeriod: '30s',
  shutdownGracePeriodCriticalPods: '10s',
  memoryThrottlingFactor: '0.9',
  // Upstream names the crash-loop gate EnableKubeletCrashLoopBackoffMax at that commit; the released name is used.
  featureGates: '\n  CustomCPUCFSQuotaPeriod: true\n  GracefulNodeShutdown: true\n  MemoryQoS: true\n  KubeletCrashLoopBackOffMax: true',
  logging: '\n  format: text',
  containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
  containerLogMaxWorkers: '1',
  containerLogMonitorInterval: '10s',
  // Upstream's intermediate API had maxSeconds: 3; released as maxContainerRestartPeriod.
  crashLoopBackOff: '\n  maxContainerRestartPeriod: 3s',
};

const gates = (g: Record<string, boolean>) => '\n' + Object.entries(g).map(([k, v]) => `  ${k}: ${v}`).join('\n');

const CASES: Case[] = [
  { name: 'Success' },
  { name: 'invalid NodeLeaseDurationSeconds', set: { nodeLeaseDurationSeconds: '-1' }, errorAt: 'nodeLeaseDurationSeconds:', note: 'upstream uses 0; from a file 0 is defaulted to 40, so -1' },
  { name: 'invalid NodeLeaseDurationSeconds (0 from a file is defaulted)', set: { nodeLeaseDurationSeconds: '0' } },
  { name: 'specify EnforceNodeAllocatable without enabling CgroupsPerQOS', set: { cgroupsPerQOS: 'false' }, errorAt: '- pods' },
  { name: 'specify SystemCgroups without CgroupRoot', set: { systemCgroups: '/' }, errorAt: 'systemCgroups:' },
  { name: 'invalid EventBurst', set: { eventBurst: '-1' }, errorAt: 'eventBurst:' },
  { name: 'invalid EventRecordQPS', set: { eventRecordQPS: '-1' }, errorAt: 'eventRecordQPS:' },
  { name: 'invalid HealthzPort', set: { healthzPort: '65536' }, errorAt: 'healthzPort:' },
  { name: 'specify CPUCFSQuotaPeriod without enabling CPUCFSQuotaPeriod', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: false }), cpuCFSQuotaPeriod: '200ms' }, errorAt: 'cpuCFSQuotaPeriod:' },
  { name: 'invalid CPUCFSQuotaPeriod', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: true }), cpuCFSQuotaPeriod: '2s' }, errorAt: 'cpuCFSQuotaPeriod:' },
  { name: 'invalid ImageGCHighThresholdPercent', set: { imageGCHighThresholdPercent: '101' }, errorAt: 'imageGCHighThresholdPercent:' },
  { name: 'invalid ImageGCLowThresholdPercent', set: { imageGCLowThresholdPercent: '-1' }, errorAt: 'imageGCLowThresholdPercent:' },
  { name: 'ImageGCLowThresholdPercent is equal to ImageGCHighThresholdPercent', set: { imageGCHighThresholdPercent: '0', imageGCLowThresholdPercent: '0' }, errorAt: 'imageGCLowThresholdPercent:' },
  { name: 'ImageGCLowThresholdPercent is greater than ImageGCHighThresholdPercent', set: { imageGCHighThresholdPercent: '0', imageGCLowThresholdPercent: '1' }, errorAt: 'imageGCLowThresholdPercent:' },
  { name: 'invalid IPTablesDropBit', set: { iptablesDropBit: '32' }, errorAt: 'iptablesDropBit:' },
  { name: 'invalid IPTablesMasqueradeBit', set: { iptablesMasqueradeBit: '32' }, errorAt: 'iptablesMasqueradeBit:' },
  { name: 'invalid KubeAPIBurst', set: { kubeAPIBurst: '-1' }, errorAt: 'kubeAPIBurst:' },
  { name: 'invalid KubeAPIQPS', set: { kubeAPIQPS: '-1' }, errorAt: 'kubeAPIQPS:' },
  { name: 'invalid NodeStatusMaxImages', set: { nodeStatusMaxImages: '-2' }, errorAt: 'nodeStatusMaxImages:' },
  { name: 'invalid MaxOpenFiles', set: { maxOpenFiles: '-1' }, errorAt: 'maxOpenFiles:' },
  { name: 'invalid MaxPods', set: { maxPods: '-1' }, errorAt: 'maxPods:' },
  { name: 'invalid OOMScoreAdj', set: { oomScoreAdj: '1001' }, errorAt: 'oomScoreAdj:' },
  { name: 'invalid PodsPerCore', set: { podsPerCore: '-1' }, errorAt: 'podsPerCore:' },
  { name: 'invalid Port', set: { port: '65536' }, errorAt: 'port: 65536' },
  { name: 'invalid ReadOnlyPort', set: { readOnlyPort: '65536' }, errorAt: 'readOnlyPort:' },
  { name: 'invalid RegistryBurst', set: { registryBurst: '-1' }, errorAt: 'registryBurst:' },
  { name: 'invalid RegistryPullQPS', set: { registryPullQPS: '-1' }, errorAt: 'registryPullQPS:' },
  { name: 'invalid MaxParallelImagePulls', set: { maxParallelImagePulls: '0' }, errorAt: 'maxParallelImagePulls:' },
  { name: 'invalid MaxParallelImagePulls and SerializeImagePulls combination', set: { maxParallelImagePulls: '3', serializeImagePulls: 'true' }, errorAt: 'maxParallelImagePulls:' },
  { name: 'valid MaxParallelImagePulls and SerializeImagePulls combination', set: { maxParallelImagePulls: '1', serializeImagePulls: 'true' } },
  { name: 'specify ServerTLSBootstrap without enabling RotateKubeletServerCertificate', set: { featureGates: gates({ RotateKubeletServerCertificate: false }), serverTLSBootstrap: 'true' }, errorAt: 'serverTLSBootstrap:' },
  { name: 'invalid TopologyManagerPolicy', set: { topologyManagerPolicy: 'invalid-policy' }, errorAt: 'topologyManagerPolicy:' },
  { name: 'invalid TopologyManagerScope', set: { topologyManagerScope: 'invalid-scope' }, errorAt: 'topologyManagerScope:' },
  { name: 'ShutdownGracePeriodCriticalPods is greater than ShutdownGracePeriod', set: { featureGates: gates({ GracefulNodeShutdown: true }), shutdownGracePeriodCriticalPods: '2s', shutdownGracePeriod: '1s' }, errorAt: 'shutdownGracePeriodCriticalPods:' },
  { name: 'ShutdownGracePeriod is less than 1 sec', set: { featureGates: gates({ GracefulNodeShutdown: true }), shutdownGracePeriod: '1ms' }, errorAt: 'shutdownGracePeriod: 1ms' },
  { name: 'ShutdownGracePeriodCriticalPods is less than 1 sec', set: { featureGates: gates({ GracefulNodeShutdown: true }), shutdownGracePeriodCriticalPods: '1ms' }, errorAt: 'shutdownGracePeriodCriticalPods:' },
  { name: 'specify ShutdownGracePeriod without enabling GracefulNodeShutdown', set: { featureGates: gates({ GracefulNodeShutdown: false }), shutdownGracePeriod: '1s' }, errorAt: 'shutdownGracePeriod: 1s' },
  { name: 'specify ShutdownGracePeriodCriticalPods without enabling GracefulNodeShutdown', set: { featureGates: gates({ GracefulNodeShutdown: false }), shutdownGracePeriod: null, shutdownGracePeriodCriticalPods: '1s' }, errorAt: 'shutdownGracePeriodCriticalPods:' },
  { name: 'invalid MemorySwap.SwapBehavior', set: { featureGates: gates({ NodeSwap: true }), memorySwap: '\n  swapBehavior: invalid-behavior' }, errorAt: 'swapBehavior:' },
  { name: 'specify MemorySwap.SwapBehavior without enabling NodeSwap', version: '1.33', set: { featureGates: gates({ NodeSwap: false }), memorySwap: '\n  swapBehavior: LimitedSwap' }, errorAt: 'swapBehavior:', note: 'NodeSwap is locked on from 1.34' },
  { name: 'CrashLoopBackOff.MaxSeconds too low', set: { featureGates: gates({ KubeletCrashLoopBackOffMax: true }), crashLoopBackOff: '\n  maxContainerRestartPeriod: 0s' }, errorAt: 'maxContainerRestartPeriod:' },
  { name: 'CrashLoopBackOff.MaxSeconds too high', set: { featureGates: gates({ KubeletCrashLoopBackOffMax: true }), crashLoopBackOff: '\n  maxContainerRestartPeriod: 301s' }, errorAt: 'maxContainerRestartPeriod:' },
  { name: 'CrashLoopBackOff.MaxSeconds feature gate on, no config, ok', set: { featureGates: gates({ KubeletCrashLoopBackOffMax: true, CustomCPUCFSQuotaPeriod: true }), crashLoopBackOff: null } },
  { name: 'CrashLoopBackOff.MaxSeconds feature gate on, no seconds config, ok', set: { featureGates: gates({ KubeletCrashLoopBackOffMax: true, CustomCPUCFSQuotaPeriod: true }), crashLoopBackOff: '{}' } },
  { name: 'specify SystemReservedEnforcementKey without specifying SystemReservedCgroup', set: { enforceNodeAllocatable: '\n  - system-reserved', systemReservedCgroup: null }, errorAt: '- system-reserved' },
  { name: 'specify SystemReservedCompressibleEnforcementKey without specifying SystemReservedCgroup', set: { enforceNodeAllocatable: '\n  - system-reserved-compressible', systemReservedCgroup: null }, errorAt: '- system-reserved-compressible' },
  { name: 'specify SystemReservedCompressibleEnforcementKey with SystemReservedEnforcementKey', set: { enforceNodeAllocatable: '\n  - system-reserved-compressible\n  - system-reserved' }, errorAt: '- system-reserved-compressible' },
  { name: 'specify KubeReservedCompressibleEnforcementKey without specifying KubeReservedCgroup', set: { enforceNodeAllocatable: '\n  - kube-reserved-compressible', kubeReservedCgroup: null }, errorAt: '- kube-reserved-compressible' },
  { name: 'specify KubeReservedEnforcementKey without specifying KubeReservedCgroup', set: { enforceNodeAllocatable: '\n  - kube-reserved', kubeReservedCgroup: null }, errorAt: '- kube-reserved' },
  { name: 'specify KubeReservedCompressibleEnforcementKey with KubeReservedEnforcementKey', set: { enforceNodeAllocatable: '\n  - kube-reserved-compressible\n  - kube-reserved' }, errorAt: '- kube-reserved-compressible' },
  { name: 'specify NodeAllocatableNoneKey with additional enforcements', set: { enforceNodeAllocatable: '\n  - none\n  - kube-reserved' }, errorAt: '- none' },
  { name: 'duplicated EnforceNodeAllocatable', set: { enforceNodeAllocatable: '\n  - none\n  - none' }, errorAt: '- none' },
  { name: 'invalid EnforceNodeAllocatable', set: { enforceNodeAllocatable: '\n  - invalid-enforce-node-allocatable' }, errorAt: '- invalid-enforce-node-allocatable' },
  { name: 'invalid HairpinMode', set: { hairpinMode: 'invalid-hair-pin-mode' }, errorAt: 'hairpinMode:' },
  { name: 'specify ReservedSystemCPUs with SystemReservedCgroup', set: { reservedSystemCPUs: '"0-3"', kubeReservedCgroup: null }, errorAt: 'reservedSystemCPUs:' },
  { name: 'specify ReservedSystemCPUs with KubeReservedCgroup', set: { reservedSystemCPUs: '"0-3"', systemReservedCgroup: null }, errorAt: 'reservedSystemCPUs:' },
  { name: 'invalid ReservedSystemCPUs', set: { reservedSystemCPUs: 'invalid-reserved-system-cpus', systemReservedCgroup: null, kubeReservedCgroup: null }, errorAt: 'reservedSystemCPUs:' },
  { name: 'enable MemoryQoS without specifying MemoryThrottlingFactor', set: { featureGates: gates({ MemoryQoS: true, CustomCPUCFSQuotaPeriod: true }), memoryThrottlingFactor: null }, note: 'defaults.go sets 0.9 when the file leaves it out' },
  { name: 'invalid MemoryThrottlingFactor', set: { memoryThrottlingFactor: '1.1' }, errorAt: 'memoryThrottlingFactor:' },
  { name: 'invalid Taint.TimeAdded', set: { registerWithTaints: '\n  - timeAdded: "2024-05-01T10:00:00Z"' }, errorAt: 'timeAdded:' },
  { name: 'specify tracing with KubeletTracing disabled', version: '1.33', set: { featureGates: gates({ KubeletTracing: false, CustomCPUCFSQuotaPeriod: true }), tracing: '\n  samplingRatePerMillion: 99999' }, errorAt: 'tracing:', note: 'KubeletTracing is locked on from 1.34' },
  { name: 'specify tracing invalid sampling rate', set: { featureGates: gates({ KubeletTracing: true, CustomCPUCFSQuotaPeriod: true }), tracing: '\n  samplingRatePerMillion: -1' }, errorAt: 'samplingRatePerMillion:' },
  { name: 'specify tracing invalid endpoint', set: { featureGates: gates({ KubeletTracing: true, CustomCPUCFSQuotaPeriod: true }), tracing: '\n  endpoint: "dn%2s://localhost:4317"' }, errorAt: 'endpoint:' },
  { name: 'invalid GracefulNodeShutdownBasedOnPodPriority', set: { featureGates: gates({ GracefulNodeShutdownBasedOnPodPriority: true }), shutdownGracePeriodByPodPriority: '\n  - priority: 0\n    shutdownGracePeriodSeconds: 0' }, errorAt: 'shutdownGracePeriodByPodPriority:' },
  { name: 'Specifying shutdownGracePeriodByPodPriority without enable GracefulNodeShutdownBasedOnPodPriority', set: { featureGates: gates({ GracefulNodeShutdownBasedOnPodPriority: false }), shutdownGracePeriodByPodPriority: '\n  - priority: 0\n    shutdownGracePeriodSeconds: 0' }, errorAt: 'shutdownGracePeriodByPodPriority:' },
  { name: 'enableSystemLogQuery is enabled without NodeLogQuery feature gate', version: '1.35', set: { enableSystemLogQuery: 'true' }, errorAt: 'enableSystemLogQuery:', note: 'NodeLogQuery is GA and locked on from 1.36 (kube_features.go)' },
  { name: 'enableSystemLogQuery is enabled without NodeLogQuery feature gate (1.36: the gate is GA, locked on)', version: '1.36', set: { enableSystemLogQuery: 'true' } },
  { name: 'enableSystemLogQuery is enabled without enableSystemLogHandler', set: { featureGates: gates({ NodeLogQuery: true, CustomCPUCFSQuotaPeriod: true }), enableSystemLogHandler: 'false', enableSystemLogQuery: 'true' }, errorAt: 'enableSystemLogQuery:' },
  { name: 'imageMaximumGCAge should not be specified without feature gate', version: '1.34', set: { featureGates: gates({ ImageMaximumGCAge: false, CustomCPUCFSQuotaPeriod: true }), imageMaximumGCAge: '1ns' }, errorAt: 'imageMaximumGCAge:', note: 'ImageMaximumGCAge is locked on from 1.35' },
  { name: 'imageMaximumGCAge should not be negative', set: { featureGates: gates({ ImageMaximumGCAge: true, CustomCPUCFSQuotaPeriod: true }), imageMaximumGCAge: '-1ns' }, errorAt: 'imageMaximumGCAge:' },
  { name: 'imageMaximumGCAge should not be less than imageMinimumGCAge', set: { featureGates: gates({ ImageMaximumGCAge: true, CustomCPUCFSQuotaPeriod: true }), imageMaximumGCAge: '1ns', imageMinimumGCAge: '2ns' }, errorAt: 'imageMaximumGCAge:' },
  { name: 'containerLogMaxWorkers must be greater than or equal to 1', set: { containerLogMaxWorkers: '0' }, errorAt: 'containerLogMaxWorkers:' },
  { name: 'containerLogMonitorInterval must be a positive time duration', set: { containerLogMonitorInterval: '-1s' }, errorAt: 'containerLogMonitorInterval:' },
  { name: 'containerLogMonitorInterval must be at least 3s or higher', set: { containerLogMonitorInterval: '2s' }, errorAt: 'containerLogMonitorInterval:' },
  { name: 'pod logs path must be not empty', set: { podLogsDir: '""' }, note: 'defaults.go replaces an empty podLogsDir by /var/log/pods' },
  { name: 'pod logs path must be absolute', set: { podLogsDir: './test' }, errorAt: 'podLogsDir:' },
  { name: 'pod logs path must be normalized', set: { podLogsDir: '/path/../' }, errorAt: 'podLogsDir:' },
  { name: 'pod logs path is ascii only', set: { podLogsDir: '/🧪' }, errorAt: 'podLogsDir:' },
  { name: 'invalid ContainerRuntimeEndpoint', flags: '--container-runtime-endpoint=', errorAt: '--container-runtime-endpoint=', note: 'from a file an empty value is defaulted; an empty flag is not' },
  { name: 'invalid ContainerRuntimeEndpoint (empty in a file is defaulted)', set: { containerRuntimeEndpoint: '""' } },
  { name: 'invalid Logging configuration', set: { logging: '\n  format: invalid' }, errorAt: 'format:' },
  { name: 'invalid FeatureGate', set: { featureGates: SUCCESS.featureGates + '\n  invalid: true' }, errorAt: 'invalid: true' },
];

for (const c of CASES) {
  test(`validation_test.go TestValidateKubeletConfiguration "${c.name}": ${c.errorAt ? 'refused' : 'accepted'}${c.note ? ` (${c.note})` : ''}`, () => checkCase(SUCCESS, c));
}

/**
 * The same verdicts for every minor version from 1.23 (the first with all the gates the base uses) to the newest:
 * the base keeps the fields and gates that version has (catalog/fields.ts `since`, catalog/feature-gates.ts), and
 * the rows that set no gate and need no particular version run unchanged wherever their fields exist.
 */
const VERSIONS = Array.from({ length: Number(NEWEST_VERSION.split('.')[1]) - 22 }, (_, i) => `1.${23 + i}`);

function baseAt(v: string): ConfigKeys {
  const out: ConfigKeys = {};
  for (const [k, text] of Object.entries(SUCCESS)) {
    const since = fieldInfo(k)?.since;
    if (since && compareVersions(since, v) > 0) continue;
    if (k === 'featureGates') {
      const known = text.split('\n').filter((l) => l.trim() !== '' && gateAt(l.trim().split(':')[0], v).status === 'known');
      if (known.length > 0) out[k] = '\n' + known.join('\n');
      continue;
    }
    out[k] = text;
  }
  return out;
}

const fieldsExist = (c: Case, v: string) =>
  Object.keys(c.set ?? {}).every((k) => { const since = fieldInfo(k)?.since; return !since || compareVersions(since, v) <= 0; });

for (const v of VERSIONS) {
  const base = baseAt(v);
  const rows = CASES.filter((c) => !c.version && !c.flags && !c.set?.featureGates && fieldsExist(c, v));
  test(`validation_test.go TestValidateKubeletConfiguration at ${v}: ${rows.length} rows without gate changes keep their verdict`, () => {
    for (const c of rows) checkCase(base, { ...c, version: v });
  });
}

/**
 * validation_reserved_memory_test.go TestValidateReservedMemoryConfiguration (read at commit
 * b15a9909cc24883d31f93e53d62b8e728b71741c), one row per upstream case.
 */
const RESERVED_MEMORY: Case[] = [
  { name: 'The kubelet configuration does not have reserved memory parameter' },
  { name: 'The kubelet configuration has valid reserved memory parameter', set: { reservedMemory: '\n  - numaNode: 0\n    limits:\n      memory: "128"' } },
  { name: 'The reserved memory has duplications for the NUMA node and limit type', set: { reservedMemory: '\n  - numaNode: 0\n    limits:\n      memory: "128"\n  - numaNode: 0\n    limits:\n      memory: "64"' }, errorAt: 'memory: "64"' },
  { name: 'The reserved memory has unsupported limit type', set: { reservedMemory: '\n  - numaNode: 0\n    limits:\n      blabla: "128"' }, errorAt: 'blabla:' },
  { name: 'The reserved memory has limit type with zero value', set: { reservedMemory: '\n  - numaNode: 0\n    limits:\n      memory: "0"' }, errorAt: 'memory: "0"' },
];

// The same checks on --reserved-memory (ReservedMemoryVar: repeated flags add up, and they replace the file's list).
RESERVED_MEMORY.push(
  { name: 'The reserved memory has duplications for the NUMA node and limit type (--reserved-memory, two flags)', set: { reservedMemory: '\n  - numaNode: 1\n    limits:\n      memory: 1Gi' }, flags: '--reserved-memory=0:memory=128 --reserved-memory=0:memory=64', errorAt: '--reserved-memory=0:memory=64' },
  { name: 'The reserved memory has limit type with zero value (--reserved-memory)', flags: '--reserved-memory=0:memory=1Gi;1:memory=0', errorAt: '--reserved-memory=0:memory=1Gi;1:memory=0' },
  { name: 'The reserved memory has limit type with zero value (--reserved-memory, then an empty one that does not clear it)', flags: '--reserved-memory=0:memory=0 --reserved-memory=', errorAt: '--reserved-memory=0:memory=0' },
  { name: 'The kubelet configuration has valid reserved memory parameter (--reserved-memory over a bad file list)', set: { reservedMemory: '\n  - numaNode: 0\n    limits:\n      memory: "0"' }, flags: '--reserved-memory=0:memory=1Gi,hugepages-2Mi=1Gi;1:memory=1Gi' },
);

for (const c of RESERVED_MEMORY) {
  test(`validation_reserved_memory_test.go TestValidateReservedMemoryConfiguration "${c.name}": ${c.errorAt ? 'refused' : 'accepted'}`, () => checkCase(SUCCESS, c));
}

/**
 * pkg/kubelet/eviction/helpers_test.go TestParseThresholdConfig (map form, read at index id 145684239),
 * one row per upstream case; the kubelet runs ParseThresholdConfig at start-up and exits on its error.
 */
const map = (m: Record<string, string>) => '\n' + Object.entries(m).map(([k, v]) => `  ${k}: "${v}"`).join('\n');
const THRESHOLDS: Case[] = [
  { name: 'no values', set: { evictionHard: '{}', evictionSoft: '{}', evictionSoftGracePeriod: '{}', evictionMinimumReclaim: '{}' } },
  { name: 'all memory eviction values', set: { evictionHard: map({ 'memory.available': '150Mi' }), evictionSoft: map({ 'memory.available': '300Mi' }), evictionSoftGracePeriod: map({ 'memory.available': '30s' }), evictionMinimumReclaim: map({ 'memory.available': '0' }) } },
  { name: 'all memory eviction values in percentages', set: { evictionHard: map({ 'memory.available': '10%' }), evictionSoft: map({ 'memory.available': '30%' }), evictionSoftGracePeriod: map({ 'memory.available': '30s' }), evictionMinimumReclaim: map({ 'memory.available': '5%' }) } },
  { name: 'disk eviction values', set: { evictionHard: map({ 'imagefs.available': '150Mi', 'nodefs.available': '100Mi' }), evictionSoft: map({ 'imagefs.available': '300Mi', 'nodefs.available': '200Mi' }), evictionSoftGracePeriod: map({ 'imagefs.available': '30s', 'nodefs.available': '30s' }), evictionMinimumReclaim: map({ 'imagefs.available': '2Gi', 'nodefs.available': '1Gi' }) } },
  { name: 'disk eviction values in percentages', set: { evictionHard: map({ 'imagefs.available': '15%', 'nodefs.available': '10.5%' }), evictionSoft: map({ 'imagefs.available': '30%', 'nodefs.available': '20.5%' }), evictionSoftGracePeriod: map({ 'imagefs.available': '30s', 'nodefs.available': '30s' }), evictionMinimumReclaim: map({ 'imagefs.available': '10%', 'nodefs.available': '5%' }) } },
  { name: 'inode eviction values', set: { evictionHard: map({ 'imagefs.inodesFree': '150Mi', 'nodefs.inodesFree': '100Mi' }), evictionSoft: map({ 'imagefs.inodesFree': '300Mi', 'nodefs.inodesFree': '200Mi' }), evictionSoftGracePeriod: map({ 'imagefs.inodesFree': '30s', 'nodefs.inodesFree': '30s' }), evictionMinimumReclaim: map({ 'imagefs.inodesFree': '2Gi', 'nodefs.inodesFree': '1Gi' }) } },
  { name: 'disable via 0%', set: { evictionHard: map({ 'memory.available': '0%' }), evictionSoft: map({ 'memory.available': '0%' }) } },
  { name: 'disable via 100%', set: { evictionHard: map({ 'memory.available': '100%' }), evictionSoft: map({ 'memory.available': '100%' }) } },
  { name: 'invalid-signal', set: { evictionHard: map({ 'mem.available': '150Mi' }) }, errorAt: 'mem.available:' },
  { name: 'hard-signal-negative', set: { evictionHard: map({ 'memory.available': '-150Mi' }) }, errorAt: '"-150Mi"' },
  { name: 'hard-signal-negative-percentage', set: { evictionHard: map({ 'memory.available': '-15%' }) }, errorAt: '"-15%"' },
  { name: 'hard-signal-percentage-greater-than-100%', set: { evictionHard: map({ 'memory.available': '150%' }) }, errorAt: '"150%"' },
  { name: 'soft-signal-negative', set: { evictionSoft: map({ 'memory.available': '-150Mi' }) }, errorAt: '"-150Mi"' },
  { name: 'valid-and-invalid-signal', set: { evictionHard: map({ 'memory.available': '150Mi', 'invalid.foo': '150Mi' }) }, errorAt: 'invalid.foo:' },
  { name: 'soft-no-grace-period', set: { evictionSoft: map({ 'memory.available': '150Mi' }) }, errorAt: 'memory.available: "150Mi"' },
  { name: 'soft-negative-grace-period', set: { evictionSoft: map({ 'memory.available': '150Mi' }), evictionSoftGracePeriod: map({ 'memory.available': '-30s' }) }, errorAt: '"-30s"' },
  { name: 'negative-reclaim', set: { evictionMinimumReclaim: map({ 'memory.available': '-300Mi' }) }, errorAt: '"-300Mi"' },
];

for (const c of THRESHOLDS) {
  test(`helpers_test.go TestParseThresholdConfig "${c.name}": ${c.errorAt ? 'refused' : 'accepted'}`, () => checkCase(SUCCESS, c));
}

/**
 * pkg/kubelet/cm/node_container_manager_linux.go enforceNodeAllocatableCgroups -> enforceExistingCgroup:
 * the reservation of an enforced kube-/system-reserved entry comes from parseResourceList
 * (cmd/kubelet/app/server.go), nil for an empty map, and getCgroupConfig(nil) fails the start-up with
 * "cgroup is not configured properly". Not a table upstream: one row per branch of that path.
 */
const ENFORCEMENT: Case[] = [
  { name: 'system-reserved enforced, systemReserved unset', set: { enforceNodeAllocatable: '\n  - pods\n  - system-reserved' }, errorAt: '- system-reserved' },
  { name: 'system-reserved-compressible enforced, systemReserved unset', set: { enforceNodeAllocatable: '\n  - pods\n  - system-reserved-compressible' }, errorAt: '- system-reserved-compressible' },
  { name: 'kube-reserved enforced, kubeReserved empty', set: { enforceNodeAllocatable: '\n  - kube-reserved', kubeReserved: '{}' }, errorAt: '- kube-reserved' },
  { name: 'kube-reserved-compressible enforced, kubeReserved empty', set: { enforceNodeAllocatable: '\n  - kube-reserved-compressible', kubeReserved: '{}' }, errorAt: '- kube-reserved-compressible' },
  { name: 'kube-reserved enforced by flag, nothing reserved', set: { enforceNodeAllocatable: null }, flags: '--enforce-node-allocatable=pods,kube-reserved', errorAt: '--enforce-node-allocatable=pods,kube-reserved' },
  { name: 'system-reserved enforced with memory reserved', set: { enforceNodeAllocatable: '\n  - pods\n  - system-reserved', systemReserved: '\n  memory: 1Gi' } },
  { name: 'system-reserved-compressible enforced with only memory reserved (writes no limit, starts)', set: { enforceNodeAllocatable: '\n  - pods\n  - system-reserved-compressible', systemReserved: '\n  memory: 1Gi' } },
  { name: 'kube-reserved reserved by flag, enforced in the file', set: { enforceNodeAllocatable: '\n  - pods\n  - kube-reserved' }, flags: '--kube-reserved=cpu=200m' },
  { name: 'pods only: reservations not needed', set: { enforceNodeAllocatable: '\n  - pods' } },
  { name: 'kube-reserved-compressible before 1.32 fails validation as an unknown value, not here', version: '1.31', set: { enforceNodeAllocatable: '\n  - kube-reserved-compressible', podLogsDir: null, containerLogMaxWorkers: null, containerLogMonitorInterval: null, crashLoopBackOff: null, featureGates: gates({ CustomCPUCFSQuotaPeriod: true }) }, errorAt: '- kube-reserved-compressible', onlyCodes: ['enforce-unknown-value'] },
];

for (const c of ENFORCEMENT) {
  test(`node_container_manager_linux.go enforceExistingCgroup "${c.name}": ${c.errorAt ? 'refused' : 'accepted'}`, () => checkCase(SUCCESS, c));
}

/**
 * Branches of validation.go (001332b0422071acf4860769f18e34b5e9b7c1bc) and of component-base
 * tracing/api/v1 config.go that the upstream table has no row for; written from the source, one row each.
 */
const BRANCHES: Case[] = [
  { name: 'runOnce true is refused from 1.32 (PR #126336 removed run-once mode)', version: '1.32', set: { runOnce: 'true' }, errorAt: 'runOnce:' },
  { name: 'runOnce true still starts a 1.31 kubelet', version: '1.31', set: { runOnce: 'true', podLogsDir: null, containerLogMaxWorkers: null, containerLogMonitorInterval: null, crashLoopBackOff: null, featureGates: gates({ CustomCPUCFSQuotaPeriod: true, GracefulNodeShutdown: true }) } },
  { name: 'tracing endpoint with an http scheme (only dns, unix, unix-abstract)', set: { tracing: '\n  endpoint: "http://collector:4317"' }, errorAt: 'endpoint:' },
  { name: 'tracing endpoint host:port gets dns:// and parses', set: { tracing: '\n  endpoint: "otel-collector.monitoring:4317"\n  samplingRatePerMillion: 100' } },
  { name: 'tracing endpoint with a port that is not a number', set: { tracing: '\n  endpoint: "collector:otlp"' }, errorAt: 'endpoint:' },
  { name: 'tracing samplingRatePerMillion above one million', set: { tracing: '\n  samplingRatePerMillion: 1000001' }, errorAt: 'samplingRatePerMillion:' },
  { name: 'memoryReservationPolicy TieredReservation without MemoryQoS', version: '1.36', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: true }), memoryReservationPolicy: 'TieredReservation' }, errorAt: 'memoryReservationPolicy:' },
  { name: 'memoryReservationPolicy TieredReservation with MemoryQoS', version: '1.36', set: { memoryReservationPolicy: 'TieredReservation' } },
  { name: 'memoryReservationPolicy not one of None, TieredReservation', version: '1.36', set: { memoryReservationPolicy: 'Tiered' }, errorAt: 'memoryReservationPolicy:' },
  { name: 'preloadedImagesVerificationAllowlist with the default policy (NeverVerifyPreloadedImages)', version: '1.35', set: { preloadedImagesVerificationAllowlist: '\n  - registry.k8s.io/pause' }, errorAt: 'preloadedImagesVerificationAllowlist:' },
  { name: 'preloadedImagesVerificationAllowlist with NeverVerifyAllowlistedImages', version: '1.35', set: { imagePullCredentialsVerificationPolicy: 'NeverVerifyAllowlistedImages', preloadedImagesVerificationAllowlist: '\n  - registry.k8s.io/pause' } },
  { name: 'preloadedImagesVerificationAllowlist pattern with a wildcard inside a name', version: '1.35', set: { imagePullCredentialsVerificationPolicy: 'NeverVerifyAllowlistedImages', preloadedImagesVerificationAllowlist: '\n  - registry.k8s.io/pause*' }, errorAt: '- registry.k8s.io/pause*' },
  { name: 'preloadedImagesVerificationAllowlist pattern with a whole-segment wildcard', version: '1.35', set: { imagePullCredentialsVerificationPolicy: 'NeverVerifyAllowlistedImages', preloadedImagesVerificationAllowlist: '\n  - registry.k8s.io/*' } },
  { name: 'imagePullCredentialsVerificationPolicy with KubeletEnsureSecretPulledImages off (alpha in 1.33)', version: '1.33', set: { imagePullCredentialsVerificationPolicy: 'AlwaysVerify' }, errorAt: 'imagePullCredentialsVerificationPolicy:' },
  { name: 'registerWithTaints with a key that is not a qualified name', set: { registerWithTaints: '\n  - key: "bad key"\n    effect: NoSchedule' }, errorAt: 'key: "bad key"' },
  { name: 'registerWithTaints with an effect the API does not have', set: { registerWithTaints: '\n  - key: dedicated\n    effect: NoScheduleX' }, errorAt: 'effect: NoScheduleX' },
  { name: 'registerWithTaints valid', set: { registerWithTaints: '\n  - key: node-role.kubernetes.io/infra\n    value: "true"\n    effect: NoSchedule' } },
  { name: 'port 0 in a file is defaulted to 10250', set: { port: '0' } },
  { name: 'cpuCFSQuotaPeriod from a flag with its gate off (1.36: CustomCPUCFSQuotaPeriod is GA, on by default)', version: '1.36', set: { featureGates: gates({ GracefulNodeShutdown: true }), cpuCFSQuotaPeriod: null }, flags: '--cpu-cfs-quota-period=50ms' },
  { name: 'cpuCFSQuotaPeriod from a flag with its gate off: reported at the flag', version: '1.35', set: { featureGates: gates({ GracefulNodeShutdown: true }), cpuCFSQuotaPeriod: null }, flags: '--cpu-cfs-quota-period=50ms', errorAt: '--cpu-cfs-quota-period=50ms' },
  { name: '--feature-gates turns the gate on over the file', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: false }) }, flags: '--feature-gates=CustomCPUCFSQuotaPeriod=true' },
  { name: 'maxParallelImagePulls 3 alone: defaults.go makes serializeImagePulls false', set: { maxParallelImagePulls: '3' } },
  { name: 'cpuCFSQuotaPeriod with AllAlpha (CustomCPUCFSQuotaPeriod is alpha in 1.35)', version: '1.35', set: { featureGates: gates({ AllAlpha: true }) } },
  { name: 'AllAlpha=true in 1.37 turns on TopologyAwareWorkloadScheduling (alpha), which needs GenericWorkload (beta, off): refused at AllAlpha', version: '1.37', set: { featureGates: gates({ AllAlpha: true }) }, errorAt: 'AllAlpha: true' },
  { name: 'AllAlpha=true with AllBeta=true in 1.37: every dependency of an alpha gate is alpha or beta', version: '1.37', set: { featureGates: gates({ AllAlpha: true, AllBeta: true }) } },
  { name: 'graceful shutdown with AllBeta=false (GracefulNodeShutdown is beta)', set: { featureGates: gates({ AllBeta: false, CustomCPUCFSQuotaPeriod: true }) }, errorAt: 'shutdownGracePeriod:' },
  { name: 'memorySwap UnlimitedSwap is still valid in 1.29 (NodeSwap on)', version: '1.29', set: { featureGates: gates({ NodeSwap: true, CustomCPUCFSQuotaPeriod: true }), memorySwap: '\n  swapBehavior: UnlimitedSwap', podLogsDir: null, containerLogMaxWorkers: null, containerLogMonitorInterval: null, crashLoopBackOff: null } },
  { name: 'memorySwap UnlimitedSwap is gone in 1.30 (KEP-2400: NoSwap replaced it)', version: '1.30', set: { featureGates: gates({ NodeSwap: true, CustomCPUCFSQuotaPeriod: true }), memorySwap: '\n  swapBehavior: UnlimitedSwap', crashLoopBackOff: null }, errorAt: 'swapBehavior:' },
  { name: 'port 0 from a flag reaches validation', flags: '--port=0', errorAt: '--port=0' },
  { name: 'imageMaximumGCAge not above the default imageMinimumGCAge (2m)', set: { imageMaximumGCAge: '1m' }, errorAt: 'imageMaximumGCAge:' },
  { name: 'podLogsDir with a trailing slash is not clean', set: { podLogsDir: '/var/log/pods/' }, errorAt: 'podLogsDir:' },
];

for (const c of BRANCHES) {
  test(`validation.go branch without an upstream row: ${c.name}: ${c.errorAt ? 'refused' : 'accepted'}`, () => checkCase(SUCCESS, c));
}

/**
 * validation.go of 1.37 (kubernetes/kubernetes 45b76a348437ceb54ca5e067ee6b097319e163a4, index id 55954219581): the
 * checks new since 1.35. validation_test.go of 1.36/1.37 is not in the index (only commit 0056e52b), so these rows are
 * written from the source, one per branch: defaultPodSysctls (gate DefaultPodSysctls, sysctl name pattern, namespaced
 * per k8s.io/component-helpers/node/util/sysctl, duplicates after NormalizeName) and memoryThrottlingFactor, which from
 * 1.37 has no default and must be 0.9 or unset while MemoryQoS is off.
 */
const WITH_SYSCTLS = SUCCESS.featureGates + '\n  DefaultPodSysctls: true';
const V137: Case[] = [
  { name: 'imageMinimumGCAge negative is refused from 1.36 (upstream 92129d36)', version: '1.36', set: { imageMinimumGCAge: '-1s' }, errorAt: 'imageMinimumGCAge:' },
  { name: 'imageMinimumGCAge negative passes validation before 1.36 (validation.go 0ea83df1 has no such check)', version: '1.35', set: { imageMinimumGCAge: '-1s' } },
  { name: 'defaultPodSysctls without the DefaultPodSysctls gate (alpha, off)', version: '1.37', set: { defaultPodSysctls: '\n  net.ipv4.ip_forward: "1"' }, errorAt: 'defaultPodSysctls:' },
  { name: 'defaultPodSysctls with the gate: a namespaced net sysctl', version: '1.37', set: { featureGates: WITH_SYSCTLS, defaultPodSysctls: '\n  net.ipv4.ip_forward: "1"\n  kernel.shm_rmid_forced: "1"' } },
  { name: 'defaultPodSysctls with the gate: an empty map needs no gate', version: '1.37', set: { defaultPodSysctls: '{}' } },
  { name: 'defaultPodSysctls with the gate: kernel.domainname is not known to be namespaced', version: '1.37', set: { featureGates: WITH_SYSCTLS, defaultPodSysctls: '\n  kernel.domainname: example' }, errorAt: 'kernel.domainname:' },
  { name: 'defaultPodSysctls with the gate: an upper-case name is not a sysctl name', version: '1.37', set: { featureGates: WITH_SYSCTLS, defaultPodSysctls: '\n  Net.IPv4.ip_forward: "1"' }, errorAt: 'Net.IPv4.ip_forward:' },
  { name: 'defaultPodSysctls with the gate: the same sysctl written with / and with .', version: '1.37', set: { featureGates: WITH_SYSCTLS, defaultPodSysctls: '\n  net.ipv4.ip_forward: "1"\n  net/ipv4/ip_forward: "1"' }, errorAt: 'net/ipv4/ip_forward:' },
  { name: 'memoryThrottlingFactor 0.8 with MemoryQoS off is refused from 1.37', version: '1.37', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: true, MemoryQoS: false }), memoryThrottlingFactor: '0.8' }, errorAt: 'memoryThrottlingFactor:' },
  { name: 'memoryThrottlingFactor 0.9 (the former default) with MemoryQoS off still passes in 1.37', version: '1.37', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: true, MemoryQoS: false }), memoryThrottlingFactor: '0.9' } },
  { name: 'memoryThrottlingFactor 0.8 with MemoryQoS at its 1.37 default (beta, on)', version: '1.37', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: true }), memoryThrottlingFactor: '0.8' } },
  { name: 'memoryThrottlingFactor unset with MemoryQoS on: no default and no longer required in 1.37', version: '1.37', set: { memoryThrottlingFactor: null } },
  { name: 'memoryThrottlingFactor 0.8 with MemoryQoS off passes a 1.36 kubelet', version: '1.36', set: { featureGates: gates({ CustomCPUCFSQuotaPeriod: true, MemoryQoS: false }), memoryThrottlingFactor: '0.8' } },
  { name: 'memoryThrottlingFactor above 1 is refused in 1.37 too', version: '1.37', set: { memoryThrottlingFactor: '1.5' }, errorAt: 'memoryThrottlingFactor:' },
];

for (const c of V137) {
  test(`validation.go 1.37 (45b76a34): ${c.name}: ${c.errorAt ? 'refused' : 'accepted'}`, () => checkCase(SUCCESS, c));
}

/** component-base logs/api/v1 Validate and metrics ValidateShowHiddenMetricsVersion, called by validation.go. */
const COMPONENT_BASE: Case[] = [
  { name: 'logs: vmodule with the json format', set: { logging: '\n  format: json\n  vmodule:\n    - filePattern: kubelet*\n      verbosity: 4' }, errorAt: 'vmodule:' },
  { name: 'logs: vmodule filePattern with a comma', set: { logging: '\n  format: text\n  vmodule:\n    - filePattern: "a,b"\n      verbosity: 4' }, errorAt: 'filePattern:' },
  { name: 'logs: vmodule with the text format', set: { logging: '\n  format: text\n  vmodule:\n    - filePattern: kubelet*\n      verbosity: 4' } },
  { name: 'logs: text splitStream with LoggingAlphaOptions off', set: { logging: '\n  format: text\n  options:\n    text:\n      splitStream: true' }, errorAt: 'splitStream:' },
  { name: 'logs: json infoBufferSize with LoggingAlphaOptions on', set: { featureGates: SUCCESS.featureGates + '\n  LoggingAlphaOptions: true', logging: '\n  format: json\n  options:\n    json:\n      infoBufferSize: 64Ki' } },
  { name: 'metrics: showHiddenMetricsForVersion is the previous release', version: '1.33', set: { showHiddenMetricsForVersion: '"1.32"' } },
  { name: 'metrics: showHiddenMetricsForVersion two releases back', version: '1.33', set: { showHiddenMetricsForVersion: '"1.31"' }, errorAt: 'showHiddenMetricsForVersion:' },
];

for (const c of COMPONENT_BASE) {
  test(`component-base validation called by validation.go: ${c.name}: ${c.errorAt ? 'refused' : 'accepted'}`, () => checkCase(SUCCESS, c));
}
