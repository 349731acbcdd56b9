import { isNegative, parseQuantity, milliValue, value } from '../quantity/quantity.ts';
import { describeInstanceType, instanceType, suggestInstanceType, type InstanceType } from '../catalog/instance-types.ts';
import type { CandidateCapacity, Capacity } from './model.ts';

export type CapacityParse =
  | { ok: true; capacity: Capacity; /** Where the capacity came from, when a name stood for it ("m5.large: 2 vCPU, ..."). */ source?: string }
  | { ok: false; error: string; /** Set when the text is a name that is neither an instance type nor a preset. */ unknownName?: string };

/**
 * Parses `cpu=16,memory=64Gi,ephemeral-storage=200Gi,pods=110[,hugepages-2Mi=1Gi]`, an instance type name
 * (`m5.large`, `Standard_D4s_v5`: catalog/instance-types.ts) or a preset name, into base units. A name may be
 * followed by pairs that override what it stands for: `m5.large,ephemeral-storage=100Gi,pods=110`.
 */
export function parseCapacity(text: string): CapacityParse {
  const cap: Capacity = { hugepages: new Map() };
  let source: string | undefined;
  const overrides: string[] = [];
  const items = text.split(',').map((p) => p.trim());
  for (const [i, item] of items.entries()) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0 && i === 0) {
      const named = capacityOfName(item);
      if (!named.ok) return named;
      Object.assign(cap, named.capacity, { hugepages: new Map(named.capacity.hugepages) });
      source = named.source;
      continue;
    }
    if (eq <= 0) return { ok: false, error: `"${item}" is not resource=quantity` };
    const key = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    const q = parseQuantity(raw);
    if (!q.ok) return { ok: false, error: `${key}: ${q.error}` };
    if (isNegative(q.q)) return { ok: false, error: `${key}: capacity cannot be negative` };
    if (key === 'cpu') cap.cpu = milliValue(q.q);
    else if (key === 'memory' || key === 'ephemeral-storage' || key === 'pods') cap[key] = value(q.q);
    else if (key.startsWith('hugepages-')) cap.hugepages.set(key, value(q.q));
    else return { ok: false, error: `unknown resource "${key}" (use cpu, memory, ephemeral-storage, pods, hugepages-<size>)` };
    overrides.push(item);
  }
  if (cap.cpu === undefined && cap.memory === undefined && cap['ephemeral-storage'] === undefined && cap.pods === undefined) {
    return { ok: false, error: 'no resource given' };
  }
  if (source && overrides.length) source += `, with ${overrides.join(',')}`;
  return source ? { ok: true, capacity: cap, source } : { ok: true, capacity: cap };
}

/** An instance type or preset name alone. */
function capacityOfName(name: string): CapacityParse {
  const t = instanceType(name);
  if (t) return { ok: true, capacity: capacityOfInstanceType(t), source: describeInstanceType(t) };
  const preset = PRESETS.get(name);
  if (preset) {
    const c = parseCapacity(preset);
    return c.ok ? { ok: true, capacity: c.capacity, source: `preset ${name}: ${preset}` } : c;
  }
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

/**
 * Shapes the instance type table does not hold (GCE has no public machine-type table to generate from), so a
 * modeline can still say `capacity n2-standard-8`. GCE's documented n2-standard shape is 4 GiB per vCPU.
 */
const PRESETS = new Map<string, string>([
  ['docs-example', 'cpu=16,memory=32Gi,ephemeral-storage=100Gi'],
  ['n2-standard-4', 'cpu=4,memory=16Gi'],
  ['n2-standard-8', 'cpu=8,memory=32Gi'],
]);

/** Names the settings editor offers (scripts/settings.ts): the presets and a few common instance types. */
const OFFERED = ['docs-example', 'm5.large', 'm5.xlarge', 'm5.2xlarge', 'n2-standard-4', 'n2-standard-8', 'Standard_D4s_v5'];

/** The capacity as one comparable string (equal capacities, equal strings), for node/reuse.ts. */
export function capacityKey(c: Capacity | undefined): string {
  if (!c) return '';
  const huge = [...c.hugepages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`);
  return [`cpu=${c.cpu ?? ''}`, `memory=${c.memory ?? ''}`, `ephemeral-storage=${c['ephemeral-storage'] ?? ''}`, `pods=${c.pods ?? ''}`, ...huge].join(',');
}

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
