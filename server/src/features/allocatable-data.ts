/**
 * Node Allocatable as plain JSON for the editor's allocatable view and status
 * bar (the `kubelet/allocatable` request). Amounts travel as decimal strings in
 * base units (millicores, bytes, pods): they are bigints, and a JSON number
 * would round anything above 2^53.
 */
import type { Analysis, NodeResult } from '../engine.ts';
import { knownPart, RESOURCES, type Resource, type ResourceLine } from '../node/allocatable.ts';
import { formatAmount } from '../rules/lib/format.ts';
import { exactAmount, templateNote } from './allocatable-view.ts';
import { nodesOf, payloadOf } from './locate.ts';
import { readableText } from '../embed/to-host.ts';
import { mapStrings } from '../model/strings.ts';
import { candidateAllocatables, podsNote, type CandidateAllocatable } from './allocatable-candidates.ts';
import { startFailures, type StartFailure } from './start-failure.ts';

export { ALLOCATABLE_CHANGED, ALLOCATABLE_REQUEST } from './protocol.ts';

export type PartKind = 'kube-reserved' | 'system-reserved' | 'eviction-hard' | 'hugepages' | 'allocatable';

export interface AllocatablePart {
  kind: PartKind;
  /** Base units as a decimal string; absent when unknown (a percentage threshold without a capacity). */
  amount?: string;
  /** For people: "2 GiB", "28.51 GiB (30614224896 bytes)", "10% of capacity". */
  text: string;
  /** Where the amount comes from, when that helps: "memory.available<500Mi", "... (kubelet default)". */
  note?: string;
  /** Share of the bar, 0-100 with two decimals; absent without a capacity. */
  percent?: number;
}

export interface AllocatableResource {
  resource: 'cpu' | 'memory' | 'ephemeral-storage' | 'pods';
  unit: 'millicores' | 'bytes' | 'pods';
  capacity?: string;
  capacityText: string;
  /** In bar order; each part's percent is of the bar, which is the capacity unless the parts add up to more. */
  parts: AllocatablePart[];
  allocatable?: string;
  allocatableText: string;
  /** Reservations and eviction add up to more than the capacity: the kubelet clamps allocatable at 0. */
  overcommitted: boolean;
  /** Where the capacity ends on an overcommitted bar, as a percent of the bar. */
  capacityPercent?: number;
  /** Why there is no allocatable figure. */
  missing?: string;
}

export interface NodeAllocatable {
  /** The node's id: the path of its anchor file. */
  node: string;
  files: string[];
  kubernetesVersion: string;
  /** Where the version comes from, in words (an image tag, kubeadm's kubernetesVersion, a modeline, the setting, the default). */
  kubernetesVersionSource?: string;
  hasCapacity: boolean;
  capacitySource?: string;
  resources: AllocatableResource[];
  /** Allocatable on each instance type the node's files name, when they name several. */
  candidates?: CandidateAllocatable[];
  /** Short, for a status bar: "14.5 CPU · 28.51 GiB", "no capacity", or "invalid setting". */
  summary: string;
  notes: string[];
  /** Why kubeletConfig.nodeCapacity gave no capacity (it is set but cannot be read); absent otherwise. */
  capacityProblem?: string;
  /** The node's kubelet refuses to start (features/start-failure.ts): why, where; absent when nothing says so. */
  refusesToStart?: StartFailure[];
}

export interface AllocatableResponse {
  /** Nodes that read the file (usually one; a shared env file may serve several). */
  nodes: NodeAllocatable[];
}

export const CAPACITY_HELP =
  'Set the node capacity with the kubeletConfig.nodeCapacity setting, or with a line in any file of the node: ' +
  '# kubelet-lint: capacity cpu=16,memory=64Gi,ephemeral-storage=200Gi';

const SIGNAL: Record<string, string> = { memory: 'memory.available', 'ephemeral-storage': 'nodefs.available' };

/** amount / total as a percentage with two decimals, computed on bigints. */
function percentOf(amount: bigint, total: bigint): number {
  if (total <= 0n) return 0;
  return Number((amount * 10000n + total / 2n) / total) / 100;
}

function part(kind: PartKind, resource: Resource, amount: bigint | undefined, text?: string, note?: string): AllocatablePart {
  return {
    kind,
    ...(amount !== undefined ? { amount: amount.toString() } : {}),
    text: text ?? (amount !== undefined ? exactAmount(resource, amount) : '?'),
    ...(note ? { note } : {}),
  };
}

function resourceData(r: Resource, l: ResourceLine, result: NodeResult): AllocatableResource {
  const a = result.allocatable;
  const parts: AllocatablePart[] = [part('kube-reserved', r, knownPart(l, 'kubeReserved')), part('system-reserved', r, knownPart(l, 'systemReserved'))];
  if (r !== 'cpu') {
    const signal = SIGNAL[r];
    const note = l.evictionText ? `${signal}<${l.evictionText}${l.evictionDefault ? ' (kubelet default)' : ''}` : a.ignoreEviction ? 'not subtracted' : 'no threshold';
    const text = l.eviction === undefined && l.evictionText && !l.unknownParts?.includes('eviction') ? `${l.evictionText} of capacity` : undefined;
    parts.push(part('eviction-hard', r, l.eviction, text, note));
  }
  if (r === 'memory' && l.hugepages) parts.push(part('hugepages', r, l.hugepages, undefined, 'pre-allocated huge pages'));
  const allocatable = part('allocatable', r, l.allocatable);
  parts.push(allocatable);

  const out: AllocatableResource = {
    resource: r,
    unit: r === 'cpu' ? 'millicores' : 'bytes',
    ...(l.capacity !== undefined ? { capacity: l.capacity.toString() } : {}),
    capacityText: l.capacity !== undefined ? exactAmount(r, l.capacity) : '?',
    parts,
    ...(l.allocatable !== undefined ? { allocatable: l.allocatable.toString() } : {}),
    allocatableText: allocatable.text,
    overcommitted: false,
  };
  if (l.capacity !== undefined && l.allocatable !== undefined) {
    const used = parts.reduce((s, p) => s + BigInt(p.amount ?? '0'), 0n);
    out.overcommitted = used > l.capacity;
    const total = out.overcommitted ? used : l.capacity;
    for (const p of parts) p.percent = percentOf(BigInt(p.amount ?? '0'), total);
    if (out.overcommitted) out.capacityPercent = percentOf(l.capacity, total);
  } else if (l.unknown) {
    const computed = l.unknown.filter((w) => l.computed?.some((c) => c.setting === w));
    const templates = l.unknown.filter((w) => !computed.includes(w));
    const why: string[] = [];
    if (computed.length) why.push(`${computed.join(', ')}: ${l.computed!.find((c) => c.setting === computed[0])!.by}, unknown until a capacity is given`);
    if (templates.length) why.push(`${templates.join(', ')} ${templates.length === 1 ? 'is a template expression' : 'are template expressions'}: unknown until the template is rendered`);
    out.missing = why.join('; ');
  } else if (r === 'ephemeral-storage' && !a.localStorage) {
    out.missing = 'localStorageCapacityIsolation is false: the kubelet reports no ephemeral-storage allocatable';
  } else if (l.capacity === undefined) {
    out.missing = a.hasCapacity ? `the capacity gives no ${r}` : 'no node capacity given';
  } else {
    out.missing = 'the eviction threshold cannot be computed';
  }
  return out;
}

function podsData(result: NodeResult): AllocatableResource {
  const { pods, hasCapacity, podsUnknown } = result.allocatable;
  if (podsUnknown) {
    return {
      resource: 'pods',
      unit: 'pods',
      capacityText: '?',
      parts: [{ kind: 'allocatable', text: '?' }],
      allocatableText: '?',
      overcommitted: false,
      missing: `${podsUnknown} is a template expression: unknown until the template is rendered`,
    };
  }
  const text = pods.toString();
  return {
    resource: 'pods',
    unit: 'pods',
    // The kubelet reports maxPods (capped by podsPerCore) as both capacity and allocatable.
    ...(hasCapacity ? { capacity: text } : {}),
    capacityText: hasCapacity ? text : '?',
    parts: [{ kind: 'allocatable', amount: text, text, ...(hasCapacity ? { percent: 100 } : {}) }],
    allocatable: text,
    allocatableText: text,
    overcommitted: false,
  };
}

function notes(result: NodeResult): string[] {
  const a = result.allocatable;
  const out = ['allocatable = capacity − kube-reserved − system-reserved − hard eviction (memory also minus huge pages); cpu has no eviction term.'];
  if (a.ignoreEviction) out.push('--experimental-allocatable-ignore-eviction: hard eviction thresholds are not subtracted.');
  if (a.pid.kubeReserved || a.pid.systemReserved) {
    out.push(`pid reservations (kube ${a.pid.kubeReserved}, system ${a.pid.systemReserved}) only lower the kubepods pids.max.`);
  }
  if (a.kubepodsEnforced && a.hasCapacity) {
    const lim = RESOURCES.filter((r) => a.lines[r].kubepodsLimit !== undefined).map((r) => `${r} ${formatAmount(r, a.lines[r].kubepodsLimit!)}`);
    if (lim.length) out.push(`kubepods cgroup limit (enforced): ${lim.join(', ')}.`);
  }
  const pods = podsNote(result);
  if (pods) out.push(pods);
  const unknown = templateNote(a);
  if (unknown) out.push(unknown);
  // Reservations the platform computes on the node at boot (PlatformInfo.computedOnNode): no number here.
  const computed = result.node.platform?.computedOnNode;
  if (computed) out.push(`${computed.text}, so allocatable is lower on the node.`);
  if (!a.hasCapacity) out.push(CAPACITY_HELP);
  return out;
}

/** `capacityProblem`: why the kubeletConfig.nodeCapacity setting could not be read, if it could not. */
export function nodeAllocatable(result: NodeResult, capacityProblem?: string, failures: StartFailure[] = []): NodeAllocatable {
  const { node, allocatable: a } = result;
  const resources = [...RESOURCES.map((r) => resourceData(r, a.lines[r], result)), podsData(result)];
  // An invalid setting, not a missing one, is why this node has no capacity: say so wherever "no capacity" would show.
  const invalid = !a.hasCapacity && capacityProblem ? capacityProblem : undefined;
  if (invalid) for (const r of resources) if (r.missing === 'no node capacity given') r.missing = 'invalid kubeletConfig.nodeCapacity setting';
  const short = (['cpu', 'memory'] as const).filter((r) => a.lines[r].allocatable !== undefined).map((r) => formatAmount(r, a.lines[r].allocatable!));
  return {
    node: node.id,
    files: [...node.files],
    kubernetesVersion: node.kubernetesVersion,
    ...(node.kubernetesVersionSource ? { kubernetesVersionSource: node.kubernetesVersionSource } : {}),
    hasCapacity: a.hasCapacity,
    ...(node.capacitySource ? { capacitySource: node.capacitySource } : {}),
    resources,
    ...(node.capacityCandidates ? { candidates: candidateAllocatables(node) } : {}),
    summary: short.length ? short.join(' · ') : invalid ? 'invalid setting' : 'no capacity',
    notes: invalid ? [`The kubeletConfig.nodeCapacity setting is invalid: ${invalid}.`, ...notes(result)] : notes(result),
    ...(invalid ? { capacityProblem: invalid } : {}),
    ...(failures.length ? { refusesToStart: failures } : {}),
  };
}

/** The allocatable of every node that reads `path`. */
export function allocatableForFile(analysis: Analysis, path: string, capacityProblem?: string): AllocatableResponse {
  const lookup = payloadOf(analysis);
  // A payload's places in its carrier's lines, its paths (the node, its files) as `cloud-init.yaml → /etc/...`.
  return mapStrings({ nodes: nodesOf(analysis, path).map((n) => nodeAllocatable(n, capacityProblem, startFailures(analysis, n))) }, (s) => readableText(s, lookup));
}
