/**
 * Capacities that instance type names stand for (catalog/instance-types.ts). Kept apart from node/capacity.ts so
 * that only the engine bundle carries the table: the language server's protocol side parses the
 * kubeletConfig.nodeCapacity setting through the engine when it holds a name (lsp/settings.ts).
 *
 * Stable API for formats that name instance types: capacitiesOfInstanceTypes(names).
 */
import { describeInstanceType, instanceType, suggestInstanceType, type InstanceType } from '../catalog/instance-types.ts';
import { PRESETS, parseCapacity, presetOnly, type CapacityParse } from './capacity.ts';
import type { CandidateCapacity, Capacity } from './model.ts';

/** parseCapacity that knows instance type names (`m5.large`, `Standard_D4s_v5`) as well as presets. */
export function parseCapacityOrType(text: string): CapacityParse {
  // Every node of a carrier reads the carrier's capacity modeline on every analysis: a cache of this pure function,
  // whose results are never changed (a node model shares its capacity, read only).
  let have = PARSED.get(text);
  if (!have) {
    if (PARSED.size >= 500) PARSED.clear();
    PARSED.set(text, (have = parseCapacity(text, capacityOfName)));
  }
  return have;
}

const PARSED = new Map<string, CapacityParse>();

/** An instance type or preset name alone. */
export function capacityOfName(name: string): CapacityParse {
  const t = instanceType(name);
  if (t) return { ok: true, capacity: capacityOfInstanceType(t), source: describeInstanceType(t) };
  const preset = presetOnly(name);
  if (preset.ok) return preset;
  const guess = suggestInstanceType(name) ?? [...PRESETS.keys()].find((p) => p.toLowerCase() === name.toLowerCase());
  return {
    ok: false,
    unknownName: name,
    error: `"${name}" is neither a known instance type nor resource=quantity${guess ? `; did you mean ${guess}?` : ''}`,
  };
}

/** The capacity an instance type stands for: its vCPU, memory, and its ENI max pods where the table has them. */
export function capacityOfInstanceType(t: InstanceType): Capacity {
  const cap: Capacity = { cpu: BigInt(t.vcpu) * 1000n, memory: BigInt(t.memoryMiB) * 1024n * 1024n, hugepages: new Map() };
  if (t.maxPods !== undefined) cap.pods = BigInt(t.maxPods);
  return cap;
}

export type InstanceCapacity = (CandidateCapacity & { ok: true }) | { name: string; ok: false; error: string };

/**
 * One capacity per instance type name, in the given order, duplicates dropped: for formats that name several
 * candidate types (Karpenter `node.kubernetes.io/instance-type` requirements, eksctl `instanceType`, CAPI
 * `machineType`). An unknown name gets an error with a did-you-mean instead of a capacity.
 */
export function capacitiesOfInstanceTypes(names: readonly string[]): InstanceCapacity[] {
  const out: InstanceCapacity[] = [];
  const seen = new Set<string>();
  for (const raw of names) {
    const name = raw.trim();
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const t = instanceType(name);
    if (t) out.push({ name: t.name, ok: true, capacity: capacityOfInstanceType(t), source: describeInstanceType(t) });
    else {
      const guess = suggestInstanceType(name);
      out.push({ name, ok: false, error: `"${name}" is not in the instance type table (EC2 and Azure)${guess ? `; did you mean ${guess}?` : ''}` });
    }
  }
  return out;
}

/** Names the settings editor offers (scripts/settings.ts): the presets and a few common instance types. */
const OFFERED = ['docs-example', 'm5.large', 'm5.xlarge', 'm5.2xlarge', 'n2-standard-4', 'n2-standard-8', 'Standard_D4s_v5'];

/** Names the settings editor offers (scripts/settings.ts). */
export function capacityPresets(): string[] {
  return [...OFFERED];
}

/** The capacity a preset or instance type name stands for ("cpu=4,memory=16Gi"), for descriptions. */
export function presetCapacity(name: string): string | undefined {
  const t = instanceType(name);
  if (t) {
    const mem = t.memoryMiB % 1024 === 0 ? `${t.memoryMiB / 1024}Gi` : `${t.memoryMiB}Mi`;
    return `cpu=${t.vcpu},memory=${mem}${t.maxPods === undefined ? '' : `,pods=${t.maxPods}`}`;
  }
  return PRESETS.get(name);
}
