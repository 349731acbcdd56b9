/**
 * The EKS reservation arithmetic that nodeadm, Bottlerocket and Karpenter share (awslabs/amazon-eks-ami
 * nodeadm/internal/kubelet/config.go getCPUMillicoresToReserve, withDefaultReservedResources; nodeadm v20260724).
 */
import type { Capacity, Setting } from '../../node/model.ts';

/** nodeadm's fallback when it cannot look the instance type up (nodeadm/internal/kubelet/eni_max_pods.go). */
export const EKS_DEFAULT_MAX_PODS = 110;

/** The tiered CPU reservation: 6% of the first core, 1% of the second, 0.5% up to 4, 0.25% above. */
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

/** kube-reserved memory for a pod count: 11 MiB per pod plus 255 MiB. */
export const eksMemoryMiB = (pods: number | bigint): string => `${BigInt(pods) * 11n + 255n}Mi`;

/**
 * What nodeadm (and Bottlerocket, which computes the same) takes from the machine, known only once the capacity is (a
 * modeline or the analysis's capacity): kubeReserved cpu from the cores, and maxPods with kubeReserved memory from
 * the pod capacity, which stands for the instance type's ENI limit nodeadm looks up. Undefined when nothing changes.
 * Only values that are still the tool's change: what the user's config or flags set stays. `podsFromUser`: the
 * memory stays when the user's maxPods decides it (Bottlerocket computes it from settings.kubernetes.max-pods).
 */
export function eksCapacitySettings(who: string, settings: ReadonlyMap<string, Setting>, capacity: Capacity | undefined, podsFromUser: boolean): Map<string, Setting> | undefined {
  if (!capacity || (capacity.cpu === undefined && capacity.pods === undefined)) return undefined;
  const out = new Map(settings);
  let changed = false;
  const kr = settings.get('kubeReserved');
  let items = kr?.kind === 'map' ? kr.items : undefined;
  const tools = (key: string) => items?.find((i) => i.key === key)?.from.how === 'platform';
  const pods = capacity.pods;
  if (pods !== undefined && pods > 0n && pods < 100000n) {
    const maxPods = settings.get('maxPods');
    const label = `${who} default for maxPods ${pods} (the pod capacity given)`;
    if (maxPods?.from.how === 'platform') {
      out.set('maxPods', { kind: 'scalar', value: Number(pods), text: String(pods), from: { how: 'platform', label, field: 'maxPods' } });
      changed = true;
    }
    if (items && tools('memory') && !(podsFromUser && maxPods?.from.how !== 'platform')) {
      const memory = eksMemoryMiB(pods);
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
