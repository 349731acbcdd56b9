/** Node Allocatable rendered for editors: a markdown table for hovers and a one-line summary for hints and lenses. */
import type { NodeResult } from '../engine.ts';
import { knownPart, RESOURCES, type Resource } from '../node/allocatable.ts';
import { formatAmount } from '../rules/lib/format.ts';
import { candidatesMarkdown, podsNote } from './allocatable-candidates.ts';

const UNITS: Record<string, bigint> = { B: 1n, KiB: 1n << 10n, MiB: 1n << 20n, GiB: 1n << 30n, TiB: 1n << 40n, PiB: 1n << 50n, EiB: 1n << 60n };

/** True when the human form ("28.51 GiB") is the exact amount. */
function humanIsExact(human: string, n: bigint): boolean {
  const m = /^(-?)(\d+)(?:\.(\d+))? (\w+)$/.exec(human);
  if (!m || !(m[4] in UNITS)) return false;
  const frac = m[3] ?? '';
  const scaled = BigInt(m[2] + frac) * UNITS[m[4]];
  const v = (m[1] ? -scaled : scaled);
  return v === n * 10n ** BigInt(frac.length);
}

/** "2 GiB", or "28.51 GiB (30614224896 bytes)" when the human form is rounded; cpu is exact already. */
export function exactAmount(r: Resource | 'pods', n: bigint): string {
  const human = formatAmount(r, n);
  if (r === 'cpu' || r === 'pods' || humanIsExact(human, n)) return human;
  return `${human} (${n} bytes)`;
}

export function allocatableSummary({ allocatable: a }: NodeResult): string {
  if (!a.hasCapacity) {
    return 'allocatable: no capacity given (set kubeletConfig.nodeCapacity or a "# kubelet-lint: capacity ..." line)';
  }
  const parts: string[] = [];
  for (const r of RESOURCES) {
    const l = a.lines[r];
    if (l.allocatable !== undefined) parts.push(formatAmount(r, l.allocatable));
    else if (l.unknown) parts.push(`? ${r}`); // a template expression
  }
  parts.push(`${a.podsUnknown ? '?' : a.pods} pods`);
  return `allocatable: ${parts.join(' · ')}`;
}

/**
 * What leaves amounts of the table unknown, or undefined: template expressions, and amounts the platform computes
 * from the machine's size (ResourceLine.computed), said apart since only the first wait for a template to render.
 */
export function templateNote(a: NodeResult['allocatable']): string | undefined {
  const templates: string[] = [];
  const computed = new Map<string, string[]>();
  for (const r of RESOURCES) {
    const line = a.lines[r];
    for (const w of line.unknown ?? []) {
      const c = line.computed?.find((x) => x.setting === w);
      if (c) (computed.get(c.by) ?? computed.set(c.by, []).get(c.by)!).push(`${w} (${r})`);
      else templates.push(`${w} (${r})`);
    }
  }
  if (a.podsUnknown) templates.push(`${a.podsUnknown} (pods)`);
  const out: string[] = [];
  for (const [by, what] of computed) out.push(`Unknown until a capacity is given (not counted as 0): ${[...new Set(what)].join(', ')}. ${by}.`);
  if (templates.length) out.push(`Template expressions, unknown until the template is rendered (not counted as 0): ${[...new Set(templates)].join(', ')}.`);
  return out.length ? out.join(' ') : undefined;
}

export function allocatableMarkdown(result: NodeResult): string {
  const { node, allocatable: a } = result;
  const out: string[] = [];
  out.push(`**Node Allocatable** of \`${node.id}\``, '');
  out.push('| resource | capacity | kube-reserved | system-reserved | hard eviction | allocatable |', '|---|--:|--:|--:|--:|--:|');
  for (const r of RESOURCES) {
    const l = a.lines[r];
    // The threshold as written, after the amount: "500 MiB (memory.available<500Mi)"; plain text, since a code
    // span inside parentheses renders with padding ("( 500Mi )") in VS Code's hover.
    const signal = r === 'memory' ? 'memory.available' : 'nodefs.available';
    const ev =
      r === 'cpu' ? '–' : l.evictionText ? `${l.eviction !== undefined ? exactAmount(r, l.eviction) : '?'} (${signal}<${l.evictionText})` : '0';
    const cells = [
      r,
      l.capacity !== undefined ? exactAmount(r, l.capacity) : '?',
      ...(['kubeReserved', 'systemReserved'] as const).map((k) => {
        const v = knownPart(l, k);
        return v === undefined ? '?' : exactAmount(r, v);
      }),
      ev,
      l.allocatable !== undefined ? `**${exactAmount(r, l.allocatable)}**` : '?',
    ];
    out.push(`| ${cells.join(' | ')} |`);
  }
  const pods = a.podsUnknown ? '?' : String(a.pods);
  out.push(`| pods | ${a.hasCapacity ? pods : '?'} | | | | **${pods}** |`, '');
  const unknown = templateNote(a);
  if (unknown) out.push(unknown, '');
  out.push('allocatable = capacity − kube-reserved − system-reserved − hard eviction (`memory.available`, `nodefs.available`; memory also minus hugepages)', '');
  if (a.hasCapacity) {
    out.push(`Capacity from ${node.capacitySource ?? 'the settings'}; kubelet ${node.kubernetesVersion}${node.kubernetesVersionSource ? ` (from ${node.kubernetesVersionSource})` : ''}.`);
  } else {
    out.push(
      'No node capacity is known, so allocatable cannot be computed. Give one with a modeline in any file of the node, ' +
        '`# kubelet-lint: capacity cpu=16,memory=64Gi,ephemeral-storage=200Gi`, or the `kubeletConfig.nodeCapacity` setting.',
    );
  }
  const podsDiffer = podsNote(result);
  if (podsDiffer) out.push('', podsDiffer);
  const candidates = candidatesMarkdown(node);
  if (candidates.length) out.push('', ...candidates);
  if (a.ignoreEviction) out.push('', '`--experimental-allocatable-ignore-eviction`: hard eviction thresholds are not subtracted.');
  if (!a.localStorage) out.push('', '`localStorageCapacityIsolation: false`: no ephemeral-storage allocatable is reported.');
  if (a.pid.kubeReserved || a.pid.systemReserved) {
    out.push('', `pid reservations (kube ${a.pid.kubeReserved}, system ${a.pid.systemReserved}) only lower the kubepods \`pids.max\`.`);
  }
  if (a.kubepodsEnforced && a.hasCapacity) {
    const lim = RESOURCES.map((r) => a.lines[r].kubepodsLimit).map((v, i) => (v !== undefined ? `${RESOURCES[i]} ${formatAmount(RESOURCES[i], v)}` : ''));
    out.push('', `kubepods cgroup limit (enforced): ${lim.filter(Boolean).join(', ')}.`);
  }
  return out.join('\n');
}

/** Fields whose value changes Node Allocatable: hovering them shows the table. */
export const ALLOCATABLE_FIELDS: ReadonlySet<string> = new Set([
  'kubeReserved', 'systemReserved', 'evictionHard', 'enforceNodeAllocatable', 'reservedSystemCPUs', 'kubeReservedCgroup',
  'systemReservedCgroup', 'maxPods', 'podsPerCore', 'localStorageCapacityIsolation', 'cgroupsPerQOS', 'mergeDefaultEvictionSettings',
]);
export const ALLOCATABLE_FLAGS: ReadonlySet<string> = new Set(['experimental-allocatable-ignore-eviction']);
