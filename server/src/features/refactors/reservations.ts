/**
 * Refactor "Insert recommended reservations": kubeReserved (and evictionHard where the
 * provider sets a memory threshold) computed from the node's capacity by the formulas managed
 * Kubernetes services use (kubelet-facts §8).
 *
 * GKE (cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes):
 *   cpu    6% of the first core, 1% of the second, 0.5% of cores 3-4, 0.25% above 4;
 *   memory 255 MiB below 1 GiB; else 25% of the first 4 GiB, 20% of the next 4, 10% of the
 *          next 8, 6% of the next 112, 2% above 128 GiB;
 *   evictionHard memory.available 100Mi.
 * EKS (awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go, getCPUMillicoresToReserve and
 *   getMemoryMebibytesToReserve):
 *   cpu    the same tiers in integer millicores, each tier truncated ((part * basis points) / 10000);
 *   memory 11 MiB * maxPods + 255 MiB; ephemeral-storage 1Gi; no eviction setting.
 * AKS 1.29+ (learn.microsoft.com/azure/aks/node-resource-reservations):
 *   cpu    a table: 1/2/4/8/16/32/64 cores -> 60/100/140/180/260/420/740m (other core counts are
 *          not in the table, so the AKS action is not offered for them);
 *   memory min(20 MiB * maxPods + 50 MiB, 25% of memory); evictionHard memory.available 100Mi.
 *   §8 and Microsoft's page say "MB"; AKS nodes run with MiB (an AKS node's kubelet flags:
 *   --max-pods=110 --kube-reserved=cpu=180m,memory=2250Mi, i.e. 20*110+50 Mi), so MiB it is.
 *
 * Rounding: GKE cpu goes up to a whole millicore (a finer quantity is rounded up by the
 * kubelet anyway, Quantity.MilliValue); GKE and AKS memory go up to a whole MiB, the unit the
 * providers write. maxPods is the node's effective maxPods (default 110).
 *
 * The eviction threshold is written into the thresholds in effect (the kubelet defaults when
 * the file has none), because setting any evictionHard key drops the defaults of the others.
 * Other keys of kubeReserved (pid, ...) are kept. Not offered when a flag or a --config-dir
 * drop-in sets kubeReserved or evictionHard (the written value would not take effect; the
 * "Move kubelet flags" refactor moves such a flag first), nor with reservedSystemCPUs (it
 * replaces kubeReserved's cpu).
 */
import type { Analysis, NodeResult } from '../../engine.ts';
import { comparePos, type Range } from '../../model/range.ts';
import type { Capacity, NodeModel } from '../../node/model.ts';
import { evictionHardItems, numberSetting, stringSetting } from '../../node/read.ts';
import type { FieldValue } from '../../rules/lib/migrate.ts';
import { configTarget, setFields } from './config-writer.ts';
import { changesOf, describeChanges, insertMissing } from './reservation-changes.ts';
import type { Refactor } from './types.ts';
import { PROVIDERS, recommend, sizesMemoryByPods, type Provider } from '../../catalog/reservation-formulas.ts';

export { eksCpuMillis, gkeCpuMillis, gkeMemoryMiB, PROVIDERS, recommend, type Provider, type Recommendation } from '../../catalog/reservation-formulas.ts';

/** The three actions for a KubeletConfiguration file, offered on a top-level key's line or inside the reservation entries. */
export function reservationRefactors(analysis: Analysis, path: string, range: Range): Refactor[] {
  const out: Refactor[] = [];
  for (const result of analysis.nodes) {
    if (!result.node.files.includes(path)) continue;
    const target = configTarget(analysis, result);
    if ('why' in target || target.doc.path !== path) continue;
    const here = target.doc.root.entries.some(
      (e) =>
        (range.start.line <= e.keySpan.range.start.line && e.keySpan.range.start.line <= range.end.line) ||
        (['kubeReserved', 'systemReserved', 'evictionHard'].includes(e.key) && comparePos(range.start, e.value.span.range.end) <= 0 && comparePos(e.keySpan.range.start, range.end) <= 0),
    );
    if (!here) continue;
    const cap = result.node.capacity;
    if (cap?.cpu === undefined || cap.memory === undefined) {
      // Listed but unavailable, so that the refactor menu says why rather than leave the user guessing.
      out.push({
        title: 'Insert recommended reservations',
        kind: 'refactor.rewrite',
        edits: [],
        disabled: 'The node capacity is unknown: set kubeletConfig.nodeCapacity or add a "# kubelet-lint: capacity cpu=4,memory=16Gi" line.',
      });
      continue;
    }
    for (const mode of ['insert', 'replace'] as const) {
      for (const provider of PROVIDERS) {
        const r = reservationRefactor(analysis, result, provider, mode);
        if (r) out.push(r);
      }
    }
  }
  return out;
}

/**
 * One provider's action on one node, or undefined when it cannot be offered (see the module comment). `insert` adds
 * only the keys the maps lack; `replace` (offered only when it changes a value written) also changes values.
 */
export function reservationRefactor(analysis: Analysis, result: NodeResult, provider: Provider, mode: 'insert' | 'replace' = 'insert'): Refactor | undefined {
  const { node } = result;
  const cap = node.capacity;
  if (cap?.cpu === undefined || cap.memory === undefined) return undefined;
  const target = configTarget(analysis, result);
  if ('why' in target) return undefined;
  if (stringSetting(node, 'reservedSystemCPUs')) return undefined;
  const maxPods = numberSetting(node, 'maxPods', 110);
  if (!Number.isInteger(maxPods) || maxPods < 0) return undefined;
  const rec = recommend(provider, cap.cpu, cap.memory, BigInt(maxPods));
  if (!rec) return undefined;

  const values: [string, FieldValue][] = [];
  const described: string[] = [];
  let replaces = false;
  const add = (field: string, base: [string, string][], over: [string, string][]) => {
    const c = changesOf(base, over);
    replaces ||= c.replaced.length > 0;
    const what = describeChanges(field, c, mode);
    if (!what) return;
    described.push(what);
    values.push([field, { kind: 'map', entries: mode === 'insert' ? insertMissing(base, over) : mergeKeys(base, over) }]);
  };
  const kube = fileMap(node, 'kubeReserved', target.doc.path);
  if (!kube) return undefined;
  add('kubeReserved', kube, rec.kubeReserved);
  if (rec.memoryAvailable) {
    const hard = evictionInEffect(node, target.doc.path);
    if (!hard) return undefined;
    add('evictionHard', hard, [['memory.available', rec.memoryAvailable]]);
  }
  if (values.length === 0 || (mode === 'replace' && !replaces)) return undefined;
  // Nothing to do when the file already says exactly this.
  const inFile = (field: string) => (node.settings.get(field)?.from.how === 'config' ? fileMap(node, field, target.doc.path) : undefined);
  if (values.every(([field, v]) => v.kind === 'map' && sameEntries(v.entries, inFile(field) ?? []) && inFile(field) !== undefined)) return undefined;
  const edits = setFields(target, values);
  if (!edits) return undefined;
  const verb = mode === 'insert' ? 'Insert recommended reservations' : 'Replace reservations';
  return {
    title: `${verb} (${provider} formula) for ${describeCapacity(cap, sizesMemoryByPods(provider) ? maxPods : undefined)}: ${described.join('; ')}`,
    kind: 'refactor.rewrite',
    edits,
  };
}

/**
 * The config file's own map for a field, as [key, text] pairs; undefined when something other
 * than the file sets it (a flag or a --config-dir drop-in) or it is not a map of strings.
 */
function fileMap(node: NodeModel, field: string, path: string): [string, string][] | undefined {
  const s = node.settings.get(field);
  if (!s) return [];
  if (s.from.how !== 'config' || s.from.span?.file !== path || s.kind !== 'map') return s.kind === 'scalar' && s.value === null && s.from.how === 'config' ? [] : undefined;
  if (s.items.some((i) => i.key === undefined || i.nested)) return undefined;
  return s.items.map((i) => [i.key!, i.text]);
}

/** Hard thresholds the kubelet applies today (its defaults when the file sets none), when the file is where they come from. */
function evictionInEffect(node: NodeModel, path: string): [string, string][] | undefined {
  const s = node.settings.get('evictionHard');
  // An empty `evictionHard:` is a nil map to the decoder: the defaults apply, as when it is absent.
  if (s && !(s.kind === 'scalar' && s.value === null)) return fileMap(node, 'evictionHard', path);
  if (s && (s.from.how !== 'config' || s.from.span?.file !== path)) return undefined;
  return evictionHardItems(node).items.map((i) => [i.key ?? '', i.text]);
}

/** `base` with `over`'s keys replaced in place or appended. */
function mergeKeys(base: [string, string][], over: [string, string][]): [string, string][] {
  const out = base.map(([k, v]): [string, string] => [k, over.find(([o]) => o === k)?.[1] ?? v]);
  for (const [k, v] of over) if (!base.some(([b]) => b === k)) out.push([k, v]);
  return out;
}

function sameEntries(a: readonly [string, string | boolean][], b: readonly [string, string][]): boolean {
  return a.length === b.length && a.every(([k, v], i) => b[i][0] === k && b[i][1] === v);
}

const MI = 1n << 20n;
const GI = 1n << 30n;

function describeCapacity(cap: Capacity, maxPods: number | undefined): string {
  const cores = Number(cap.cpu!) / 1000;
  const gib = Number(cap.memory!) / Number(GI);
  const mem = Number.isInteger(gib) ? `${gib}Gi` : `${(Number(cap.memory!) / Number(MI)).toFixed(0)}Mi`;
  return `${cores} CPU, ${mem} memory${maxPods === undefined ? '' : `, ${maxPods} pods`}`;
}
