/** Plain-data views of an analysis shared by the output formats. */
import type { Analysis, NodeResult } from '../engine.ts';
import { knownPart, RESOURCES } from '../node/allocatable.ts';

export function big(n: bigint): number {
  return Number(n);
}

export interface NodeJson {
  id: string;
  files: string[];
  kubernetesVersion: string;
  kubernetesVersionSource?: string;
  capacitySource?: string;
  capacity?: Record<string, number>;
  reserved: Record<string, number>;
  breakdown: Record<string, { kubeReserved?: number; systemReserved?: number; evictionHard?: number; evictionThreshold?: string }>;
  allocatable?: Record<string, number>;
  /** False when the node has files the tool saw but could not read (`unread`): what they set is not known. */
  complete: boolean;
  unread?: { path: string; why: string }[];
  /** Files read because another names them, each with the reference and how it was found. */
  links?: { what: string; reference: string; from: string; to: string; by: string }[];
}

export function nodeJson({ node, allocatable: a }: NodeResult): NodeJson {
  const out: NodeJson = { id: node.id, files: node.files, kubernetesVersion: node.kubernetesVersion, reserved: {}, breakdown: {}, complete: !node.unread?.length };
  if (node.unread?.length) out.unread = node.unread.map((u) => ({ path: u.path, why: u.why }));
  if (node.links?.length) {
    out.links = node.links.map((l) => ({ what: l.what, reference: l.ref, from: `${l.span.file}:${l.span.range.start.line + 1}`, to: l.to, by: l.by }));
  }
  if (node.kubernetesVersionSource) out.kubernetesVersionSource = node.kubernetesVersionSource;
  if (node.capacitySource) out.capacitySource = node.capacitySource;
  const cap: Record<string, number> = {};
  const alloc: Record<string, number> = {};
  for (const r of RESOURCES) {
    const l = a.lines[r];
    const kube = knownPart(l, 'kubeReserved');
    const system = knownPart(l, 'systemReserved');
    // A template expression makes a part unknown: it is left out (never a stand-in number), and so is the sum.
    if (kube !== undefined && system !== undefined && (r === 'cpu' || l.eviction !== undefined || !l.unknownParts?.includes('eviction')))
      out.reserved[r] = big(kube + system + (l.eviction ?? 0n));
    out.breakdown[r] = {
      ...(kube !== undefined ? { kubeReserved: big(kube) } : {}),
      ...(system !== undefined ? { systemReserved: big(system) } : {}),
      ...(r !== 'cpu' && l.eviction !== undefined ? { evictionHard: big(l.eviction) } : {}),
      ...(l.evictionText ? { evictionThreshold: l.evictionText } : {}),
    };
    if (l.capacity !== undefined) cap[r] = big(l.capacity);
    if (l.allocatable !== undefined) alloc[r] = big(l.allocatable);
  }
  if (a.hasCapacity) {
    cap.pods = big(a.pods);
    alloc.pods = big(a.pods);
    out.capacity = cap;
    out.allocatable = alloc;
  }
  return out;
}

export function counts(analysis: Analysis): Record<'error' | 'warning' | 'information' | 'hint', number> {
  const c = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const f of analysis.findings) c[f.severity]++;
  return c;
}
