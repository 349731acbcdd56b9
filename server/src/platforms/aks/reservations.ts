/**
 * AKS's reservations (MicrosoftDocs/azure-aks-docs fb060abe articles/aks/node-resource-reservations.md, AKS 1.29 and
 * later): kube-reserved memory is the lesser of 20 MB × maxPods + 50 MB and 25% of the memory, with the hard eviction
 * threshold memory.available 100Mi; AKS nodes write MiB (an AKS node's --max-pods=110
 * --kube-reserved=cpu=180m,memory=2250Mi), as features/refactors/reservations.ts does.
 * kube-reserved cpu: the documented table (1/2/4/8/16/32/64 cores → 60/100/140/180/260/420/740m) is the bracket sum
 * Azure/karpenter-provider-azure computes for any core count (352646f5 pkg/providers/instancetype/instancetype.go
 * reservedCPUTaxVCPU: 6% of the first core, 4% of the second, 2% of cores 3 and 4, 1% of each core above 4;
 * KubeReservedResources truncates to whole millicores).
 */
const MI = 1n << 20n;

/** The cpu bracket sum in whole millicores (truncated, as Karpenter's int64 conversion does). */
export function aksCpuMillis(cpuMillis: bigint): bigint {
  const tiers: [bigint, bigint, bigint][] = [[0n, 1000n, 6n], [1000n, 2000n, 4n], [2000n, 4000n, 2n], [4000n, -1n, 1n]];
  let hundredths = 0n;
  for (const [start, end, pct] of tiers) {
    if (cpuMillis <= start) continue;
    const top = end < 0n || cpuMillis < end ? cpuMillis : end;
    hundredths += (top - start) * pct;
  }
  return hundredths / 100n;
}

/** kube-reserved memory in MiB: min(20 × maxPods + 50, 25% of the memory rounded up to a MiB). */
export function aksMemoryMiB(memoryBytes: bigint, maxPods: bigint): bigint {
  const byPods = 20n * maxPods + 50n;
  const quarter = (memoryBytes + 4n * MI - 1n) / (4n * MI);
  return byPods < quarter ? byPods : quarter;
}
