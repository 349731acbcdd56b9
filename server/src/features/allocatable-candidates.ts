/**
 * Node Allocatable per candidate instance type, for a node whose files name several (a Karpenter NodePool's
 * node.kubernetes.io/instance-type requirement, a mixed-instances group): the same reservations and eviction
 * thresholds give a different allocatable on each type. Also the note when the capacity's pods differ from the
 * kubelet's pod capacity (maxPods).
 */
import type { NodeResult } from '../engine.ts';
import { computeAllocatable } from '../node/allocatable.ts';
import type { NodeModel } from '../node/model.ts';
import { formatAmount } from '../rules/lib/format.ts';

export interface CandidateAllocatable {
  /** The instance type, as the cloud spells it. */
  name: string;
  /** "m5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table)" */
  source: string;
  /** "1.93 CPU", "6.9 GiB"; "?" when the capacity lacks the resource. */
  cpu: string;
  memory: string;
  /** The kubelet's pod capacity (maxPods, capped by podsPerCore) on this type. */
  pods: string;
  /** Whether the reservations and eviction leave nothing of cpu or memory on this type. */
  exhausted: boolean;
}

/** One row per candidate instance type of the node, in the order its file names them; empty without candidates. */
export function candidateAllocatables(node: NodeModel): CandidateAllocatable[] {
  return (node.capacityCandidates ?? []).map((c) => {
    // What a platform tool computes from the machine (Karpenter's and nodeadm's kube-reserved, the ENI max pods) is
    // computed again for each type: the node's settings hold it for the first one.
    const settings = node.platform && node.platformSpec?.capacitySettings ? node.platformSpec.capacitySettings(node.platform, node.settings, c.capacity) : undefined;
    const a = computeAllocatable(settings ? { ...node, settings } : node, c.capacity);
    const cpu = a.lines.cpu.allocatable;
    const memory = a.lines.memory.allocatable;
    return {
      name: c.name,
      source: c.source,
      cpu: cpu === undefined ? '?' : formatAmount('cpu', cpu),
      memory: memory === undefined ? '?' : formatAmount('memory', memory),
      pods: a.pods.toString(),
      exhausted: cpu === 0n || memory === 0n,
    };
  });
}

/** A markdown table of the candidates' allocatable (hover and view), or no lines without candidates. */
export function candidatesMarkdown(node: NodeModel): string[] {
  const rows = candidateAllocatables(node);
  if (rows.length === 0) return [];
  return [
    `**Allocatable per candidate instance type** (${rows.length}; the table above is for ${rows[0]!.name})`,
    '',
    '| instance type | capacity | cpu | memory | pods |',
    '|---|---|--:|--:|--:|',
    ...rows.map((r) => `| ${r.name} | ${r.source.slice(r.source.indexOf(': ') + 2)} | ${r.cpu} | ${r.memory} | ${r.pods} |`),
  ];
}

/**
 * The capacity gives a pod count (an EC2 type's ENI limit) that is not the kubelet's pod capacity: the kubelet
 * reports maxPods (pkg/kubelet/nodestatus/setters.go MachineInfo), so a count above the ENI limit leaves pods
 * without an IP address on the AWS VPC CNI. Undefined when they agree or the capacity has no pods.
 */
export function podsNote({ node, allocatable: a }: NodeResult): string | undefined {
  const given = node.capacity?.pods;
  if (given === undefined || given === a.pods) return undefined;
  return (
    `The capacity names ${given} pods, but the kubelet's pod capacity is maxPods (with podsPerCore), here ${a.pods}. ` +
    'On EC2 with the VPC CNI, the lower count is how many pods get an IP address.'
  );
}
