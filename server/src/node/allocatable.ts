/**
 * Node Allocatable as the kubelet computes it
 * (pkg/kubelet/cm/node_container_manager_linux.go GetNodeAllocatableReservation,
 * hardEvictionReservation; pkg/kubelet/nodestatus/setters.go MachineInfo):
 *
 *   allocatable = capacity - systemReserved - kubeReserved - hard eviction  (clamped at 0)
 *   memory additionally minus every hugepages-* capacity.
 *
 * Only hard `memory.available` and `nodefs.available` thresholds count; the
 * cpu line has no eviction term; ephemeral-storage only with
 * localStorageCapacityIsolation; pid reservations only lower kubepods pids.max.
 */
import { exactCeil, parseQuantity, type Quantity } from '../quantity/quantity.ts';
import { parsePercentage, thresholdQuantity } from '../quantity/threshold.ts';
import type { Capacity, Item, NodeModel } from './model.ts';
import { boolSetting, parseGoBool, enforceItems, evictionHardItems, mapItems, numberSetting, stringSetting } from './read.ts';

export type Resource = 'cpu' | 'memory' | 'ephemeral-storage';
export const RESOURCES: readonly Resource[] = ['cpu', 'memory', 'ephemeral-storage'];

export interface ResourceLine {
  capacity?: bigint;
  kubeReserved: bigint;
  systemReserved: bigint;
  /** Hard eviction reservation; undefined when it is a percentage and capacity is unknown. */
  eviction?: bigint;
  /** The eviction threshold as written (`500Mi`, `10%`), when one applies. */
  evictionText?: string;
  /** True when that threshold is the kubelet's default rather than a setting. */
  evictionDefault?: boolean;
  hugepages?: bigint;
  allocatable?: bigint;
  /** Limit the kubelet puts on the kubepods cgroup (capacity - system - kube), when enforced. */
  kubepodsLimit?: bigint;
  /**
   * Settings of this line whose value is a template expression (`kubeReserved.memory`): the amount is unknown, not
   * 0, so allocatable and the kubepods limit are left undefined.
   */
  unknown?: string[];
  /**
   * The parts of this line those settings make unknown: their amounts above (`kubeReserved`, `systemReserved`) hold a
   * stand-in number, never to be shown or added; an unknown hard eviction threshold leaves `eviction` undefined.
   */
  unknownParts?: ('kubeReserved' | 'systemReserved' | 'eviction')[];
  /**
   * The settings of `unknown` that are no template expression but an amount the platform computes on the node from
   * the machine's size (GKE's and AKS's kube-reserved, until a capacity is given), each with what its provenance says.
   */
  computed?: { setting: string; by: string }[];
}

export interface Allocatable {
  lines: Record<Resource, ResourceLine>;
  pods: bigint;
  /** The setting that makes the pod count unknown (a template expression in maxPods or podsPerCore). */
  podsUnknown?: string;
  pid: { kubeReserved: bigint; systemReserved: bigint };
  ignoreEviction: boolean;
  localStorage: boolean;
  kubepodsEnforced: boolean;
  hasCapacity: boolean;
}

/**
 * The kubelet subtracts exact Quantities (GetNodeAllocatableReservation, then
 * Sub and a clamp at 0), so amounts here are exact too: apimachinery's
 * Value()/MilliValue() would wrap past int64 and turn a huge reservation into
 * none. Beyond what the analyzer computes exactly, an amount counts as larger
 * than any node.
 */
const BEYOND_ANY_NODE = 1n << 256n;

export function exactAmount(q: Quantity, milli: boolean): bigint {
  return exactCeil(q, milli ? -3 : 0) ?? (q.coef < 0n ? -BEYOND_ANY_NODE : BEYOND_ANY_NODE);
}

/** Reservation per resource from kubeReserved/systemReserved items; invalid entries are left to the rules. */
export function reservationMap(items: readonly Item[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const i of items) {
    if (i.key === undefined || i.value === null) continue;
    const q = parseQuantity(String(i.value));
    if (!q.ok) continue;
    const amount = exactAmount(q.q, i.key === 'cpu');
    // The kubelet refuses a negative reservation (quantity-negative); it never adds room.
    if (amount >= 0n) out.set(i.key, amount);
  }
  return out;
}

/**
 * Reservations whose value is a template expression, by resource (`kubeReserved.memory`); a whole map written as
 * one expression makes every resource unknown.
 */
export function templatedReservations(node: NodeModel): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const field of ['kubeReserved', 'systemReserved']) {
    const s = node.settings.get(field);
    if (s?.kind === 'scalar' && s.template) for (const r of [...RESOURCES, 'pid']) add(out, r, field);
    else if (s?.kind === 'map') {
      for (const i of s.items) {
        // A key written as a template expression may name any resource.
        if (i.keyTemplate) for (const r of [...RESOURCES, 'pid']) add(out, r, `${field}.${i.key}`);
        else if (i.template && i.key !== undefined) add(out, i.key, `${field}.${i.key}`);
      }
    }
  }
  const cpus = node.settings.get('reservedSystemCPUs');
  if (cpus?.kind === 'scalar' && cpus.template) add(out, 'cpu', 'reservedSystemCPUs');
  return out;
}

/**
 * What computes a reservation that is unknown without being a template expression: the platform's own amount (an item
 * with no value whose provenance is the platform, node/model.ts Item.template), by its provenance label.
 */
function computedBy(node: NodeModel, setting: string): string | undefined {
  const [field, key] = setting.split('.', 2);
  const s = node.settings.get(field);
  const item = s?.kind === 'map' && key !== undefined ? s.items.find((i) => i.key === key) : undefined;
  return item && item.value === null && item.from.how === 'platform' ? item.from.label : undefined;
}

/** Which parts of a line the template settings `why` (`kubeReserved.memory`, `evictionHard`) make unknown. */
function unknownParts(why: readonly string[]): ('kubeReserved' | 'systemReserved' | 'eviction')[] {
  const out = new Set<'kubeReserved' | 'systemReserved' | 'eviction'>();
  for (const w of why) {
    if (w.startsWith('kubeReserved')) out.add('kubeReserved');
    else if (w.startsWith('systemReserved')) out.add('systemReserved');
    else if (w.startsWith('evictionHard')) out.add('eviction');
    else if (w === 'reservedSystemCPUs') {
      // getReservedCPUs: a non-empty cpuset replaces the cpu of both maps, so neither is known.
      out.add('kubeReserved');
      out.add('systemReserved');
    }
  }
  return [...out];
}

/** An amount of a line to show, or undefined when a template expression makes it unknown. */
export function knownPart(line: ResourceLine, part: 'kubeReserved' | 'systemReserved'): bigint | undefined {
  return line.unknownParts?.includes(part) ? undefined : line[part];
}

/** Size of a Linux cpuset list like `0-3,8`. */
export function cpusetSize(s: string): number | undefined {
  if (s.trim() === '') return 0;
  let n = 0;
  for (const part of s.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!m) return undefined;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) return undefined;
    n += b - a + 1;
  }
  return n;
}

export function computeAllocatable(node: NodeModel, capacity: Capacity | undefined): Allocatable {
  const kube = reservationMap(mapItems(node, 'kubeReserved'));
  const system = reservationMap(mapItems(node, 'systemReserved'));

  // cmd/kubelet/app/server.go getReservedCPUs: reservedSystemCPUs replaces the cpu of both maps.
  const cpus = stringSetting(node, 'reservedSystemCPUs');
  const cpusN = cpus !== undefined ? cpusetSize(cpus) : undefined;
  if (cpusN !== undefined && cpusN > 0) {
    kube.delete('cpu');
    system.set('cpu', BigInt(cpusN) * 1000n);
  }

  const ignoreEviction = flagBool(node, 'experimental-allocatable-ignore-eviction');
  const localStorage = boolSetting(node, 'localStorageCapacityIsolation', true);
  const hard = evictionHardItems(node).items;
  const cap = capacity;

  const hugepages = cap ? [...cap.hugepages.values()].reduce((a, b) => a + b, 0n) : 0n;
  const unknown = templatedReservations(node);
  const evictionMap = node.settings.get('evictionHard');
  if (evictionMap?.kind === 'scalar' && evictionMap.template) for (const r of RESOURCES) if (r !== 'cpu') add(unknown, r, 'evictionHard');
  if (evictionMap?.kind === 'map') for (const i of evictionMap.items) if (i.keyTemplate) for (const r of RESOURCES) if (r !== 'cpu') add(unknown, r, `evictionHard.${i.key}`);
  const enforce = enforceItems(node).map((i) => String(i.value));
  const kubepodsEnforced = boolSetting(node, 'cgroupsPerQOS', true) && enforce.includes('pods');

  const lines = {} as Record<Resource, ResourceLine>;
  for (const r of RESOURCES) {
    const line: ResourceLine = {
      capacity: cap?.[r],
      kubeReserved: kube.get(r) ?? 0n,
      systemReserved: system.get(r) ?? 0n,
    };
    const signal = r === 'memory' ? 'memory.available' : r === 'ephemeral-storage' ? 'nodefs.available' : undefined;
    const th = signal && !ignoreEviction ? hard.find((i) => i.key === signal) : undefined;
    line.eviction = 0n;
    if (th?.template) add(unknown, r, `evictionHard.${th.key}`);
    if (th && th.value !== null) {
      const t = String(th.value);
      line.evictionText = t;
      line.evictionDefault = th.from.how === 'default';
      line.eviction = evictionBytes(t, line.capacity);
    }
    if (r === 'memory') line.hugepages = hugepages;
    if (r === 'ephemeral-storage' && !localStorage) {
      // Without local storage capacity isolation the kubelet reports no ephemeral-storage allocatable.
      line.capacity = undefined;
    }
    const why = unknown.get(r);
    if (why) {
      line.unknown = why;
      line.unknownParts = unknownParts(why);
      const computed = why.flatMap((w) => {
        const by = computedBy(node, w);
        return by === undefined ? [] : [{ setting: w, by }];
      });
      if (computed.length) line.computed = computed;
      if (line.unknownParts.includes('eviction')) line.eviction = undefined;
    }
    if (line.capacity !== undefined && line.eviction !== undefined && !why) {
      let a = line.capacity - line.kubeReserved - line.systemReserved - line.eviction;
      if (a < 0n) a = 0n;
      if (r === 'memory') {
        a -= hugepages;
        if (a < 0n) a = 0n;
      }
      line.allocatable = a;
    }
    // pkg/kubelet/cm/node_container_manager_linux.go enforceNodeAllocatableCgroups: the kubepods limit becomes a
    // cgroup config (ResourceConfig: cpu, memory, hugepages, pids); ephemeral-storage has no cgroup controller.
    if (line.capacity !== undefined && kubepodsEnforced && r !== 'ephemeral-storage' && !why) {
      const l = line.capacity - line.kubeReserved - line.systemReserved;
      line.kubepodsLimit = l < 0n ? 0n : l;
    }
    lines[r] = line;
  }

  const maxPods = BigInt(Math.trunc(numberSetting(node, 'maxPods', 110)));
  const perCore = BigInt(Math.trunc(numberSetting(node, 'podsPerCore', 0)));
  let pods = maxPods;
  if (perCore > 0n && cap?.cpu !== undefined) {
    const cores = cap.cpu / 1000n;
    if (cores * perCore < pods) pods = cores * perCore;
  }

  const podsSetting = ['maxPods', 'podsPerCore'].find((f) => {
    const s = node.settings.get(f);
    return s?.kind === 'scalar' && s.template;
  });
  return {
    lines,
    pods,
    ...(podsSetting ? { podsUnknown: podsSetting } : {}),
    pid: { kubeReserved: kube.get('pid') ?? 0n, systemReserved: system.get('pid') ?? 0n },
    ignoreEviction,
    localStorage,
    kubepodsEnforced,
    hasCapacity: cap !== undefined,
  };
}

function add(m: Map<string, string[]>, key: string, what: string): void {
  const l = m.get(key);
  if (l) l.push(what);
  else m.set(key, [what]);
}

/** A threshold's bytes: a quantity, or a percentage of capacity through the kubelet's float32 step. */
function evictionBytes(text: string, capacity: bigint | undefined): bigint | undefined {
  if (text.endsWith('%')) {
    const p = parsePercentage(text);
    if (!p.ok) return 0n;
    if (p.dropped) return 0n; // "0%" and "100%" create no threshold at all
    return capacity === undefined ? undefined : thresholdQuantity(capacity, p.fraction);
  }
  const q = parseQuantity(text);
  return q.ok ? exactAmount(q.q, false) : 0n;
}

function flagBool(node: NodeModel, name: string): boolean {
  const f = node.flagOnly.get(name);
  if (!f) return false;
  return f.value === undefined || parseGoBool(f.value) === true;
}
