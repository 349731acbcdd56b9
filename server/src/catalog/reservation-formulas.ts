/**
 * The reservation formulas managed Kubernetes services use (kubelet-facts §8), as facts: the "Insert recommended
 * reservations" refactor (features/refactors/reservations.ts) offers them, and a platform may compute its base with one.
 *
 * GKE (cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes):
 *   cpu    6% of the first core, 1% of the second, 0.5% of cores 3-4, 0.25% above 4;
 *   memory 255 MiB below 1 GiB; else 25% of the first 4 GiB, 20% of the next 4, 10% of the
 *          next 8, 6% of the next 112, 2% above 128 GiB;
 *   evictionHard memory.available 100Mi.
 * EKS (awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go, getCPUMillicoresToReserve and
 *   getMemoryMebibytesToReserve):
 *   cpu    the same tiers in integer millicores, each tier truncated ((part * basis points) / 10000);
 *   memory 11 MiB * maxPods + 255 MiB; ephemeral-storage 1Gi; no eviction setting.
 * AKS 1.29+ (learn.microsoft.com/azure/aks/node-resource-reservations):
 *   cpu    a table: 1/2/4/8/16/32/64 cores -> 60/100/140/180/260/420/740m (other core counts are
 *          not in the table, so the AKS action is not offered for them);
 *   memory min(20 MiB * maxPods + 50 MiB, 25% of memory); evictionHard memory.available 100Mi.
 *   §8 and Microsoft's page say "MB"; AKS nodes run with MiB (an AKS node's kubelet flags:
 *   --max-pods=110 --kube-reserved=cpu=180m,memory=2250Mi, i.e. 20*110+50 Mi), so MiB it is.
 *
 * Rounding: GKE cpu goes up to a whole millicore (a finer quantity is rounded up by the
 * kubelet anyway, Quantity.MilliValue); GKE and AKS memory go up to a whole MiB, the unit the
 * providers write.
 */
export type Provider = 'GKE' | 'EKS' | 'AKS';
export const PROVIDERS: readonly Provider[] = ['GKE', 'EKS', 'AKS'];

/** Whether the formula sizes memory by the node's pod count (the refactor's title then names maxPods). */
export const sizesMemoryByPods = (p: Provider): boolean => p !== 'GKE';

export interface Recommendation {
  /** kubeReserved in the order written: cpu, memory, then ephemeral-storage (EKS). */
  kubeReserved: [string, string][];
  /** evictionHard memory.available, when the provider sets it. */
  memoryAvailable?: string;
}

const MI = 1n << 20n;
const GI = 1n << 30n;

/** Tiers of a core count in millicores with their rate in basis points (1/10000): GKE's and EKS's cpu tiers. */
const CPU_TIERS: [bigint, bigint, bigint][] = [
  [0n, 1000n, 600n],
  [1000n, 2000n, 100n],
  [2000n, 4000n, 50n],
  [4000n, -1n, 25n],
];

/** Memory tiers in bytes with their rate in percent (GKE). */
const MEMORY_TIERS: [bigint, bigint, bigint][] = [
  [0n, 4n * GI, 25n],
  [4n * GI, 8n * GI, 20n],
  [8n * GI, 16n * GI, 10n],
  [16n * GI, 128n * GI, 6n],
  [128n * GI, -1n, 2n],
];

const AKS_CPU = new Map<bigint, bigint>([
  [1n, 60n],
  [2n, 100n],
  [4n, 140n],
  [8n, 180n],
  [16n, 260n],
  [32n, 420n],
  [64n, 740n],
]);

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
const part = (total: bigint, [start, end]: [bigint, bigint, bigint]): bigint => (total <= start ? 0n : (end < 0n || total < end ? total : end) - start);

/** GKE cpu: the exact tier sum, rounded up to a whole millicore. */
export function gkeCpuMillis(cpuMillis: bigint): bigint {
  return ceilDiv(CPU_TIERS.reduce((s, t) => s + part(cpuMillis, t) * t[2], 0n), 10000n);
}

/** EKS cpu: nodeadm's integer arithmetic, each tier truncated on its own. */
export function eksCpuMillis(cpuMillis: bigint): bigint {
  return CPU_TIERS.reduce((s, t) => s + (part(cpuMillis, t) * t[2]) / 10000n, 0n);
}

/** GKE memory in MiB: 255 below 1 GiB, else the tier sum rounded up to a whole MiB. */
export function gkeMemoryMiB(memoryBytes: bigint): bigint {
  if (memoryBytes < GI) return 255n;
  return ceilDiv(MEMORY_TIERS.reduce((s, t) => s + part(memoryBytes, t) * t[2], 0n), 100n * MI);
}

/** The formula's values for a capacity, or undefined when the provider has none for it (AKS off its table). */
export function recommend(provider: Provider, cpuMillis: bigint, memoryBytes: bigint, maxPods: bigint): Recommendation | undefined {
  switch (provider) {
    case 'GKE':
      return { kubeReserved: [['cpu', `${gkeCpuMillis(cpuMillis)}m`], ['memory', `${gkeMemoryMiB(memoryBytes)}Mi`]], memoryAvailable: '100Mi' };
    case 'EKS':
      return {
        kubeReserved: [['cpu', `${eksCpuMillis(cpuMillis)}m`], ['memory', `${11n * maxPods + 255n}Mi`], ['ephemeral-storage', '1Gi']],
      };
    case 'AKS': {
      const cpu = cpuMillis % 1000n === 0n ? AKS_CPU.get(cpuMillis / 1000n) : undefined;
      if (cpu === undefined) return undefined;
      const memory = [20n * maxPods + 50n, ceilDiv(memoryBytes, 4n * MI)].reduce((a, b) => (a < b ? a : b));
      return { kubeReserved: [['cpu', `${cpu}m`], ['memory', `${memory}Mi`]], memoryAvailable: '100Mi' };
    }
  }
}

