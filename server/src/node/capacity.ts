import { isNegative, milliValue, nanos, parseQuantity, value } from '../quantity/quantity.ts';
import type { Capacity } from './model.ts';

export type CapacityParse =
  | { ok: true; capacity: Capacity; /** Where the capacity came from, when a name stood for it ("m5.large: 2 vCPU, ..."). */ source?: string }
  | { ok: false; error: string; /** Set when the text is a name that is neither an instance type nor a preset. */ unknownName?: string };

/**
 * Parses `cpu=16,memory=64Gi,ephemeral-storage=200Gi,pods=110[,hugepages-2Mi=1Gi]` or a name, into base units.
 * `named` says what a name stands for: presets only here, so that the language server's protocol side does not
 * carry the instance type table; node/instance-capacity.ts parseCapacityOrType knows instance types too. A name
 * may be followed by pairs that override what it stands for: `m5.large,ephemeral-storage=100Gi,pods=110`.
 */
const MAX_INT64 = (1n << 63n) - 1n;

export function parseCapacity(text: string, named: (name: string) => CapacityParse = presetOnly): CapacityParse {
  const cap: Capacity = { hugepages: new Map() };
  let source: string | undefined;
  const overrides: string[] = [];
  const items = text.split(',').map((p) => p.trim());
  for (const [i, item] of items.entries()) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0 && i === 0) {
      const n = named(item);
      if (!n.ok) return n;
      Object.assign(cap, n.capacity, { hugepages: new Map(n.capacity.hugepages) });
      source = n.source;
      continue;
    }
    if (eq <= 0) return { ok: false, error: `"${item}" is not resource=quantity` };
    const key = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    const q = parseQuantity(raw);
    // In words, not the kubelet's regular expression: this is a setting or a modeline, never the kubelet's own input.
    if (!q.ok) return { ok: false, error: `${key}: "${raw}" is not a quantity (a number with an optional suffix, like 4, 500m or 16Gi)` };
    if (isNegative(q.q)) return { ok: false, error: `${key}: capacity cannot be negative` };
    // The kubelet counts capacity in int64 (millicores for cpu, bytes otherwise); Quantity.MilliValue() wraps past it
    // and a huge cpu showed as "0 CPU". Such a capacity is refused, with the limit.
    const n = nanos(q.q);
    const unit = key === 'cpu' ? 1_000_000n : 1_000_000_000n;
    if (n === undefined || (n + unit - 1n) / unit > MAX_INT64) {
      return { ok: false, error: `${key}: ${raw} is more than the kubelet can count (${key === 'cpu' ? `${MAX_INT64} millicores` : `${MAX_INT64} bytes`}, an int64)` };
    }
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

/** A preset name alone (instance type names: node/instance-capacity.ts). */
export function presetOnly(name: string): CapacityParse {
  const preset = PRESETS.get(name);
  if (preset) {
    const c = parseCapacity(preset);
    return c.ok ? { ok: true, capacity: c.capacity, source: `preset ${name}: ${preset}` } : c;
  }
  return { ok: false, unknownName: name, error: `"${name}" is not resource=quantity` };
}

/**
 * Shapes the instance type table does not hold (GCE has no public machine-type table to generate from), so a
 * modeline can still say `capacity n2-standard-8`. GCE's documented n2-standard shape is 4 GiB per vCPU.
 */
export const PRESETS: ReadonlyMap<string, string> = new Map([
  ['docs-example', 'cpu=16,memory=32Gi,ephemeral-storage=100Gi'],
  ['n2-standard-4', 'cpu=4,memory=16Gi'],
  ['n2-standard-8', 'cpu=8,memory=32Gi'],
]);

/** The capacity as one comparable string (equal capacities, equal strings), for node/reuse.ts. */
export function capacityKey(c: Capacity | undefined): string {
  if (!c) return '';
  const huge = [...c.hugepages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`);
  return [`cpu=${c.cpu ?? ''}`, `memory=${c.memory ?? ''}`, `ephemeral-storage=${c['ephemeral-storage'] ?? ''}`, `pods=${c.pods ?? ''}`, ...huge].join(',');
}
