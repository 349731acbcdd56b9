import { isNegative, parseQuantity, milliValue, value } from '../quantity/quantity.ts';
import type { Capacity } from './model.ts';

/**
 * Parses `cpu=16,memory=64Gi,ephemeral-storage=200Gi,pods=110[,hugepages-2Mi=1Gi]`
 * (or a preset name) into base units.
 */
export function parseCapacity(text: string): { ok: true; capacity: Capacity } | { ok: false; error: string } {
  const preset = PRESETS.get(text.trim());
  if (preset) return parseCapacity(preset);
  const cap: Capacity = { hugepages: new Map() };
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
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
  }
  if (cap.cpu === undefined && cap.memory === undefined && cap['ephemeral-storage'] === undefined && cap.pods === undefined) {
    return { ok: false, error: 'no resource given' };
  }
  return { ok: true, capacity: cap };
}

/** Common machine shapes, so a modeline can say `capacity m5.xlarge`. */
const PRESETS = new Map<string, string>([
  ['docs-example', 'cpu=16,memory=32Gi,ephemeral-storage=100Gi'],
  ['m5.large', 'cpu=2,memory=8Gi'],
  ['m5.xlarge', 'cpu=4,memory=16Gi'],
  ['m5.2xlarge', 'cpu=8,memory=32Gi'],
  ['n2-standard-4', 'cpu=4,memory=16Gi'],
  ['n2-standard-8', 'cpu=8,memory=32Gi'],
  ['Standard_D4s_v5', 'cpu=4,memory=16Gi'],
]);

/** The capacity as one comparable string (equal capacities, equal strings), for node/reuse.ts. */
export function capacityKey(c: Capacity | undefined): string {
  if (!c) return '';
  const huge = [...c.hugepages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`);
  return [`cpu=${c.cpu ?? ''}`, `memory=${c.memory ?? ''}`, `ephemeral-storage=${c['ephemeral-storage'] ?? ''}`, `pods=${c.pods ?? ''}`, ...huge].join(',');
}

/** Preset names (the settings editor offers them: scripts/settings.ts). */
export function capacityPresets(): string[] {
  return [...PRESETS.keys()];
}

/** The capacity a preset stands for ("cpu=4,memory=16Gi"), for descriptions. */
export function presetCapacity(name: string): string | undefined {
  return PRESETS.get(name);
}
