/**
 * Karpenter on AWS (karpenter.ts: NodePools, EC2NodeClasses, and the user data in them). What Karpenter assumes a
 * node reserves when it decides whether pods fit on an instance type (aws/karpenter-provider-aws
 * pkg/providers/instancetype/types.go, v1.14.1): kubeReservedResources (memory 11 × pods + 255 Mi, ephemeral-storage
 * 1Gi, and the tiered CPU share, whose float arithmetic gives nodeadmCpuMillis's numbers for every whole vCPU count),
 * with the user's kubeReserved assigned over it key by key (lo.Assign); systemReserved only as the user writes it;
 * evictionThreshold: memory 100Mi and 10% of the disk, each replaced by the user's memory.available or
 * nodefs.available alone. maxPods (pods()) is the ENI limit unless spec.kubelet.maxPods, 110 on Windows. The user's
 * maps merge key by key: merge 'merge-patch'. This is Karpenter's scheduling model; the node applies what its AMI
 * family's bootstrap computes from the same spec.kubelet (nodeadm, Bottlerocket).
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Capacity, Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import { CODES } from './codes.ts';
import karpenter from './karpenter.ts';
import { maxPodsAboveEniLimit } from './max-pods-above-eni-limit.ts';
import type { KarpenterFacts } from './facts.ts';
import { nodeadmCpuMillis } from '../nodeadm/reservations.ts';

/** The karpenter-provider-aws release the Karpenter base holds for. */
const KARPENTER = 'karpenter-provider-aws v1.14.1';

const facts = (p: PlatformInfo): KarpenterFacts => (p.facts ?? {}) as KarpenterFacts;

/**
 * The pod count Karpenter sizes kube-reserved memory with (types.go NewInstanceType, v1.14.1): AL2, AL2023 and Custom
 * (FeatureFlags().UsesENILimitedMemoryOverhead) take the instance type's ENI limit whatever maxPods says; Bottlerocket
 * and Windows take the node's pods (maxPods when set, else the ENI limit, or 110 on Windows, which has no ENI-limited
 * pod density).
 */
function memoryPods(p: PlatformInfo, eniPods: number | undefined): { pods: number; why: string } {
  const { amiFamily: family, maxPods } = facts(p);
  if ((family === 'Bottlerocket' || family === 'Windows') && maxPods !== undefined) return { pods: maxPods, why: `maxPods ${maxPods}` };
  if (family === 'Windows') return { pods: 110, why: '110 pods on Windows' };
  if (eniPods !== undefined) return { pods: eniPods, why: `the ENI limit of ${eniPods} pods` };
  return { pods: 110, why: '110 pods until an instance type is known' };
}

function base(p: PlatformInfo): Map<string, Setting> {
  const assumed = (field: string, what: string): Provenance => ({ how: 'platform', label: `Karpenter's assumed ${what} (${KARPENTER})`, field });
  const s = new Map<string, Setting>();
  const pods = facts(p).amiFamily === 'Windows' ? 110 : undefined;
  s.set('maxPods', scalar(pods ?? 110, assumed('maxPods', pods ? 'maxPods 110 on Windows' : 'maxPods: the ENI limit of the instance type, 110 until one is known')));
  const m = memoryPods(p, undefined);
  const kr = map({ memory: `${11 * m.pods + 255}Mi`, 'ephemeral-storage': '1Gi' }, assumed('kubeReserved', 'kube-reserved'));
  const memory = assumed('kubeReserved', `kube-reserved memory: 11 × ${m.pods} + 255 Mi for ${m.why}`);
  s.set('kubeReserved', { ...kr, items: kr.items.map((i) => (i.key === 'memory' ? { ...i, from: memory } : i)) });
  s.set('evictionHard', map({ 'memory.available': '100Mi', 'nodefs.available': '10%' }, assumed('evictionHard', 'eviction threshold')));
  return s;
}

/**
 * Karpenter's assumptions once the instance type is known (the capacity's pods stand for its ENI limit): maxPods, the
 * kube-reserved memory from the pods memoryPods names, and the tiered CPU. Values of the user's stay.
 */
function capacitySettings(p: PlatformInfo, settings: ReadonlyMap<string, Setting>, capacity: Capacity | undefined): Map<string, Setting> | undefined {
  if (!capacity || (capacity.cpu === undefined && capacity.pods === undefined)) return undefined;
  const label = (what: string) => `Karpenter's assumed ${what} (${KARPENTER})`;
  const out = new Map(settings);
  let changed = false;
  const eni = capacity.pods !== undefined && capacity.pods > 0n && capacity.pods < 100000n ? Number(capacity.pods) : undefined;
  const maxPods = settings.get('maxPods');
  if (eni !== undefined && maxPods?.from.how === 'platform' && facts(p).amiFamily !== 'Windows') {
    out.set('maxPods', scalar(eni, { how: 'platform', label: label(`maxPods: the ENI limit of ${eni} pods`), field: 'maxPods' }));
    changed = true;
  }
  const kr = settings.get('kubeReserved');
  if (kr?.kind !== 'map') return changed ? out : undefined;
  let items = kr.items;
  const assumed = (key: string) => items.find((i) => i.key === key)?.from.how === 'platform';
  const m = memoryPods(p, eni);
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

export default definePlatform({
  id: 'karpenter',
  name: 'Karpenter',
  docs: 'karpenter',
  formats: [karpenter],
  examples: EXAMPLES,
  codes: CODES,
  rules: [maxPodsAboveEniLimit],
  merge: 'merge-patch',
  base,
  capacitySettings,
  source: { how: 'config-dir' },
  cgroups: { kind: 'systemd' },
});
