/**
 * GKE node system configuration: the YAML (or JSON) file given to `gcloud container node-pools create
 * --system-config-from-file`. gcloud reads it as util.py LoadSystemConfigFromYAML does (fields.ts): the top level
 * holds only `kubeletConfig` and `linuxConfig`, every unknown key or wrong type fails the command, and the GKE API
 * then checks the ranges. The parse returns the kubeletConfig keys as the KubeletConfiguration fields they become
 * (each at the user's key and value, converted values included: insecureKubeletReadonlyPortEnabled false is
 * readOnlyPort 0), so every kubelet rule applies at the user's lines; gcloud's and GKE's own refusals are reported
 * here in the file's names (`platform-config-invalid`). GKE's base and reservations are index.ts's.
 */
import { LineIndex, type Span } from '../../model/range.ts';
import { finding, type Finding, type Fix } from '../../model/finding.ts';
import type { ConfigFileParse, ConfigNode, KubeletConfigDoc, MapEntry, MapNode, PlatformInfo, ScalarNode } from '../../parse/types.ts';
import { parseYamlStream } from '../../parse/yaml.ts';
import { mapOf, templateAwareProblems } from '../../parse/platform.ts';
import { duplicateFindings, keepFirstKeys, templateBranches, type DuplicateReader } from '../../parse/duplicates.ts';
import { closest } from '../../catalog/suggest.ts';
import { GKE_OWNS, KUBELET_FIELDS, MEMORY_POLICIES, SIGNALS, TOPOLOGY_POLICIES, TOPOLOGY_SCOPES, nanosOf, signalCheck, type GkeType } from './fields.ts';

export const CODE = 'platform-config-invalid';

/** The keys gcloud takes under linuxConfig (util.py LoadSystemConfigFromYAML, 578.0.0 help of AddSystemConfigFlag). */
const LINUX_KEYS = [
  'sysctl', 'cgroupMode', 'hugepageConfig', 'transparentHugepageEnabled', 'transparentHugepageDefrag', 'swapConfig', 'kernelOverrides',
  'additionalEtcHosts', 'additionalEtcSystemdResolvedConf', 'additionalEtcResolvConf', 'timeZone', 'customNodeInit', 'accurateTimeConfig',
  'nodeKernelModuleLoading', 'nodeVfioConfig', 'diskIoScheduler',
];
const CGROUP_MODES = ['CGROUP_MODE_UNSPECIFIED', 'CGROUP_MODE_V1', 'CGROUP_MODE_V2'];

/** What GKE learns from the file for its base (index.ts). */
export interface GkeFacts {
  /** cgroupMode as written (CGROUP_MODE_V1 nodes use cgroup v1). */
  cgroupMode?: string;
  /** cpuCFSQuotaPeriod is set (GKE turns on the kubelet gate it needs). */
  cfsPeriod?: boolean;
}

const TYPE_WORDS: Record<GkeType, string> = { str: 'a string', bool: 'true or false', int: 'an integer', list: 'a list', dict: 'a mapping' };

/** gcloud's `isinstance` check of a value (util.py _CheckNodeConfigValueType); a bool is an int, as in Python. */
function hasType(n: ConfigNode, t: GkeType): boolean {
  if (t === 'dict') return n.kind === 'map';
  if (t === 'list') return n.kind === 'seq';
  if (n.kind !== 'scalar') return false;
  if (n.template === 'whole') return true;
  const v = n.value;
  if (t === 'str') return typeof v === 'string';
  if (t === 'bool') return typeof v === 'boolean';
  return typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v));
}

const shown = (n: ConfigNode): string => (n.kind === 'scalar' ? (typeof n.value === 'string' ? JSON.stringify(n.source) : n.source) : n.kind === 'map' ? 'a mapping' : 'a list');

const scalar = (n: ScalarNode, value: string | number | boolean): ScalarNode => ({ kind: 'scalar', value, source: String(value), span: n.span });

function renameFix(path: string, keySpan: Span, to: string): Fix {
  return { title: `Rename to ${to}`, edits: [{ file: path, range: keySpan.range, newText: to }], preferred: true };
}

/**
 * gcloud loads the file with the ruamel.yaml it bundles (578.0.0: lib/third_party/ruamel 0.15.93, core/yaml.py load
 * with the SafeLoader): its check_mapping_key keeps the first value of a key written twice and only prints a
 * DuplicateKeyFutureWarning, since allow_duplicate_keys is unset in 0.15.
 */
export const GKE_DUPLICATES: DuplicateReader = {
  tool: 'gcloud',
  refuses: false,
  keeps: 'first',
  why: 'Its YAML reader (ruamel.yaml 0.15) drops later values with only a "found duplicate key" warning',
};

export function parseGke(path: string, text: string, lines = new LineIndex(text)): ConfigFileParse {
  const r = parseYamlStream(path, text, lines);
  const problems: Finding[] = templateAwareProblems(path, text, r.problems, 'node system configuration');
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const doc0 = r.docs.find((d) => d.root);
  // The tree as gcloud reads it: the first of a key written twice.
  const root = mapOf(doc0?.root && keepFirstKeys(doc0.root, doc0.duplicates));
  if (doc0 && !templateBranches(text)) for (const x of duplicateFindings(doc0.duplicates, GKE_DUPLICATES)) problems.push(x);
  if (!root) return out;
  const bad = (span: Span, message: string, fixes?: Fix[]) => problems.push(finding(CODE, 'error', span, message, fixes ? { fixes } : undefined));
  let kubelet: MapEntry | undefined;
  let linux: MapEntry | undefined;
  for (const e of root.entries) {
    if (e.key === 'kubeletConfig') kubelet = e;
    else if (e.key === 'linuxConfig') linux = e;
    else if (!e.keyTemplate) {
      const near = closest(e.key, ['kubeletConfig', 'linuxConfig']);
      bad(e.keySpan, `gcloud refuses this file: it has no top-level field ${e.key}. It reads only kubeletConfig and linuxConfig.`, near ? [renameFix(path, e.keySpan, near)] : undefined);
    }
  }
  const facts: GkeFacts = {};
  if (linux) readLinux(path, linux, facts, bad);
  if (!kubelet) return out;
  const kc = mapOf(kubelet.value);
  if (!kc) {
    if (!(kubelet.value.kind === 'scalar' && kubelet.value.value === null)) bad(kubelet.keySpan, 'gcloud refuses this file: kubeletConfig must be a mapping of settings.');
    return out;
  }
  const entries: MapEntry[] = [];
  for (const e of kc.entries) {
    if (e.keyTemplate) continue;
    const spec = KUBELET_FIELDS[e.key];
    if (!spec) {
      unknownKey(path, e, bad);
      continue;
    }
    const v = e.value;
    if (v.kind === 'scalar' && v.value === null) continue; // `key:` with nothing: gcloud's .get() sees None, sets nothing
    if (!hasType(v, spec.type)) {
      bad(v.span, `gcloud refuses this file: ${e.key} must be ${TYPE_WORDS[spec.type]}, not ${shown(v)}.`);
      continue;
    }
    if (v.kind === 'scalar' && v.template === 'whole') {
      if (spec.to) entries.push({ key: spec.to, keySpan: e.keySpan, value: v });
      continue;
    }
    if (v.kind === 'scalar' && v.value !== null) {
      const why = spec.check?.(v.value);
      if (why) {
        bad(v.span, `GKE rejects ${e.key} ${v.source}: ${why}.`);
        continue;
      }
      if (e.key === 'cpuCFSQuotaPeriod') facts.cfsPeriod = true;
      if (spec.to) entries.push({ key: spec.to, keySpan: e.keySpan, value: spec.convert ? scalar(v, spec.convert(v.value)) : v });
      continue;
    }
    if (v.kind === 'seq') {
      if (spec.to) entries.push({ key: spec.to, keySpan: e.keySpan, value: v });
      continue;
    }
    // the mappings
    const m = v as MapNode;
    if (e.key in { evictionSoft: 1, evictionSoftGracePeriod: 1, evictionMinimumReclaim: 1 }) {
      const items = evictionMap(path, e.key, m, bad);
      if (items.length) entries.push({ key: spec.to!, keySpan: e.keySpan, value: { kind: 'map', entries: items, span: m.span } });
    } else if (e.key === 'topologyManager') {
      entries.push(...topologyManager(m, bad));
    } else if (e.key === 'memoryManager') {
      memoryManager(m, bad);
    } else if (e.key === 'crashLoopBackOff') {
      crashLoopBackOff(path, m, bad);
    }
  }
  const platform: PlatformInfo = {
    tool: 'gke',
    span: kubelet.keySpan,
    gates: [],
    configLabel: 'kubeletConfig',
    keys: { fields: Object.keys(KUBELET_FIELDS), kubeletShaped: Object.keys(KUBELET_FIELDS).filter((k) => KUBELET_FIELDS[k].to === k) },
    computedOnNode: { text: 'GKE reserves ephemeral storage from the boot disk size on the node (not counted here)', span: kubelet.keySpan },
    facts: { ...facts },
  };
  const doc: KubeletConfigDoc = { path, format: 'yaml', root: { kind: 'map', entries, span: kc.span }, docIndex: 0, span: kc.span };
  const block: KubeletConfigDoc = { path, format: 'yaml', root: kc, docIndex: 0, span: kc.span };
  if (r.problems.some((p) => p.severity === 'error')) doc.syntaxErrors = block.syntaxErrors = true;
  out.kubeletConfigs.push(doc);
  out.blocks = [block];
  out.platform = platform;
  return out;
}

type Bad = (span: Span, message: string, fixes?: Fix[]) => void;

function unknownKey(path: string, e: MapEntry, bad: Bad): void {
  const own = GKE_OWNS[e.key];
  if (own) {
    bad(e.keySpan, `gcloud refuses this file: kubeletConfig has no field ${e.key}. ${own}.`);
    return;
  }
  const near = closest(e.key, Object.keys(KUBELET_FIELDS));
  const hint = near ? ` Did you mean ${near}?` : '';
  bad(e.keySpan, `gcloud refuses this file: kubeletConfig has no field ${e.key}.${hint}`, near ? [renameFix(path, e.keySpan, near)] : undefined);
}

/** evictionSoft, evictionSoftGracePeriod, evictionMinimumReclaim: gcloud's camelCase signals, as the kubelet's. */
function evictionMap(path: string, name: string, m: MapNode, bad: Bad): MapEntry[] {
  const out: MapEntry[] = [];
  for (const s of m.entries) {
    if (s.keyTemplate) continue;
    const signal = SIGNALS[s.key];
    if (!signal) {
      const near = Object.keys(SIGNALS).find((k) => SIGNALS[k] === s.key) ?? closest(s.key, Object.keys(SIGNALS));
      bad(s.keySpan, `gcloud refuses this file: ${name} has no signal ${s.key}.${near ? ` GKE spells it ${near}.` : ''}`, near ? [renameFix(path, s.keySpan, near)] : undefined);
      continue;
    }
    const v = s.value;
    if (v.kind !== 'scalar' || typeof v.value !== 'string') {
      if (!(v.kind === 'scalar' && v.value === null)) bad(v.span, `gcloud refuses this file: ${name}.${s.key} must be a string, not ${shown(v)}.`);
      continue;
    }
    if (v.template !== 'whole') {
      const why = signalCheck(name, s.key, v.value);
      if (why) {
        bad(v.span, `GKE rejects ${name}.${s.key} ${v.source}: ${why}.`);
        continue;
      }
    }
    out.push({ key: signal, keySpan: s.keySpan, value: v });
  }
  return out;
}

/** topologyManager.policy and .scope: the kubelet's topologyManagerPolicy and topologyManagerScope. */
function topologyManager(m: MapNode, bad: Bad): MapEntry[] {
  const out: MapEntry[] = [];
  for (const s of m.entries) {
    const v = s.value;
    if (v.kind !== 'scalar' || typeof v.value !== 'string' || v.template) continue; // gcloud does not check these keys
    if (s.key === 'policy') {
      const p = TOPOLOGY_POLICIES[v.value];
      if (!p) bad(v.span, `GKE rejects topologyManager.policy ${v.source}: it takes none, best-effort, restricted or single-numa-node.`);
      else out.push({ key: 'topologyManagerPolicy', keySpan: s.keySpan, value: scalar(v, p) });
    } else if (s.key === 'scope') {
      if (!TOPOLOGY_SCOPES.includes(v.value)) bad(v.span, `GKE rejects topologyManager.scope ${v.source}: it takes pod or container.`);
      else out.push({ key: 'topologyManagerScope', keySpan: s.keySpan, value: v });
    }
  }
  return out;
}

/**
 * memoryManager.policy: checked, not passed on. With Static, GKE also writes the kubelet's reservedMemory, which this
 * file cannot show; the kubelet rules would otherwise report a reservedMemory that GKE does write.
 */
function memoryManager(m: MapNode, bad: Bad): void {
  for (const s of m.entries) {
    const v = s.value;
    if (s.key !== 'policy' || v.kind !== 'scalar' || typeof v.value !== 'string' || v.template) continue;
    if (!MEMORY_POLICIES[v.value]) bad(v.span, `GKE rejects memoryManager.policy ${v.source}: it takes None or Static.`);
  }
}

/** crashLoopBackOff.maxContainerRestartPeriod, which gcloud checks itself (1s to 300s). */
function crashLoopBackOff(path: string, m: MapNode, bad: Bad): void {
  for (const s of m.entries) {
    if (s.key !== 'maxContainerRestartPeriod') {
      bad(s.keySpan, `gcloud refuses this file: crashLoopBackOff has no field ${s.key}. It takes maxContainerRestartPeriod.`,
        closest(s.key, ['maxContainerRestartPeriod']) ? [renameFix(path, s.keySpan, 'maxContainerRestartPeriod')] : undefined);
      continue;
    }
    const v = s.value;
    if (v.kind !== 'scalar' || typeof v.value !== 'string' || v.template) continue;
    const n = nanosOf(v.value);
    if (n === undefined || n < 1_000_000_000n || n > 300_000_000_000n) bad(v.span, `gcloud refuses maxContainerRestartPeriod ${v.source}: it takes a duration from 1s to 300s.`);
  }
}

function readLinux(path: string, e: MapEntry, facts: GkeFacts, bad: Bad): void {
  const m = mapOf(e.value);
  if (!m) {
    if (!(e.value.kind === 'scalar' && e.value.value === null)) bad(e.keySpan, 'gcloud refuses this file: linuxConfig must be a mapping of settings.');
    return;
  }
  for (const x of m.entries) {
    if (x.keyTemplate) continue;
    if (!LINUX_KEYS.includes(x.key)) {
      const near = closest(x.key, LINUX_KEYS);
      bad(x.keySpan, `gcloud refuses this file: linuxConfig has no field ${x.key}.${near ? ` Did you mean ${near}?` : ''}`, near ? [renameFix(path, x.keySpan, near)] : undefined);
      continue;
    }
    const v = x.value;
    if (x.key === 'sysctl') {
      for (const s of mapOf(v)?.entries ?? []) {
        const sv = s.value;
        // util.py: each sysctl value must be a str (`net.core.somaxconn: '2048'`).
        if (sv.kind === 'scalar' && sv.value !== null && typeof sv.value !== 'string' && !sv.template) {
          bad(sv.span, `gcloud refuses this file: sysctl ${s.key} must be a string; write '${sv.source}' in quotes.`, [
            { title: `Quote ${sv.source}`, edits: [{ file: path, range: sv.span.range, newText: `'${sv.source}'` }], preferred: true },
          ]);
        }
      }
    } else if (x.key === 'cgroupMode' && v.kind === 'scalar' && typeof v.value === 'string' && !v.template) {
      if (!CGROUP_MODES.includes(v.value)) bad(v.span, `gcloud refuses cgroupMode ${v.source}: it takes ${CGROUP_MODES.join(', ')}.`);
      else facts.cgroupMode = v.value;
    }
  }
}
