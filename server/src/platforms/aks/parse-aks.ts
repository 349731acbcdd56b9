/**
 * AKS custom node configuration: the JSON object given to `az aks nodepool add --kubelet-config FILE` (fields.ts).
 * Its keys become the KubeletConfiguration fields AKS writes on the node (Azure/AgentBaker setCustomKubeletConfig),
 * each at the user's key and value with the value AKS writes (containerLogMaxSizeMB 50 is containerLogMaxSize "50M",
 * seccompDefault RuntimeDefault is seccompDefault true), so the kubelet rules apply at the user's lines. What az and
 * AKS do with the file itself is reported here in its own names (`platform-config-invalid`): a key az does not know is
 * dropped without a word (a warning: the setting never reaches the node), a value it cannot send fails the command.
 */
import { LineIndex, type Span } from '../../model/range.ts';
import { finding, type Finding, type Fix } from '../../model/finding.ts';
import type { ConfigFileParse, ConfigNode, KubeletConfigDoc, MapEntry, MapNode, PlatformInfo, ScalarNode } from '../../parse/types.ts';
import { parseJsonText } from '../../parse/json.ts';
import { mapOf } from '../../parse/platform.ts';
import { duplicateFindings, type DuplicateReader } from '../../parse/duplicates.ts';
import { closest } from '../../catalog/suggest.ts';
import { AKS_OWNS, HARD_EVICTION, KUBELET_FIELDS, RESERVED, hardEvictionCheck, type AksType } from './fields.ts';

export const CODE = 'platform-config-invalid';

/** What AKS learns from the file for its base (index.ts). */
export interface AksFacts {
  cfsPeriod?: boolean;
}

const TYPE_WORDS: Record<AksType, string> = { string: 'a string', bool: 'true or false', int: 'a whole number', list: 'a list of strings', object: 'an object' };

/**
 * The value az sends for a JSON value, or undefined when it cannot send it: the SDK model converts numeric strings to
 * int and "true"/"false" to bool as msrest's deserialize_basic does.
 */
function asType(n: ConfigNode, t: AksType): string | number | boolean | ConfigNode | undefined {
  if (t === 'object') return n.kind === 'map' ? n : undefined;
  if (t === 'list') return n.kind === 'seq' && n.items.every((i) => i.kind === 'scalar' && typeof i.value === 'string') ? n : undefined;
  if (n.kind !== 'scalar' || n.value === null) return undefined;
  const v = n.value;
  if (t === 'string') return typeof v === 'string' ? v : undefined;
  if (t === 'bool') {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string' && /^(?:true|false)$/i.test(v)) return v.toLowerCase() === 'true';
    return undefined;
  }
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

const shown = (n: ConfigNode): string => (n.kind === 'scalar' ? (typeof n.value === 'string' ? JSON.stringify(n.source) : n.source) : n.kind === 'map' ? 'an object' : 'a list');
const scalar = (n: ScalarNode, value: string | number | boolean): ScalarNode => ({ kind: 'scalar', value, source: String(value), span: n.span });

function renameFix(path: string, keySpan: Span, to: string): Fix {
  // a JSON key's span holds its quotes
  return { title: `Rename to ${to}`, edits: [{ file: path, range: keySpan.range, newText: JSON.stringify(to) }], preferred: true };
}

/**
 * az reads the file with Python's json.loads (azure-cli-core util.py get_file_json, shell_safe_json_parse; no
 * object_pairs_hook that refuses duplicates): a key written twice keeps its last value, without a word.
 */
export const AKS_DUPLICATES: DuplicateReader = {
  tool: 'az',
  refuses: false,
  why: "It reads the file with Python's json.loads, which keeps the last value",
};

export function parseAks(path: string, text: string, lines = new LineIndex(text)): ConfigFileParse {
  const r = parseJsonText(path, text, lines);
  const problems: Finding[] = [...r.problems, ...duplicateFindings(r.duplicates, AKS_DUPLICATES)];
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const bad = (span: Span, message: string, severity: 'error' | 'warning' = 'error', fixes?: Fix[]) =>
    problems.push(finding(CODE, severity, span, message, fixes ? { fixes } : undefined));
  const root = mapOf(r.root);
  if (!root) {
    if (r.root) bad(r.root.span, 'az refuses this file: the kubelet configuration must be a JSON object ("Error reading kubelet configuration").');
    return out;
  }
  const facts: AksFacts = {};
  const entries: MapEntry[] = [];
  for (const e of root.entries) {
    const spec = KUBELET_FIELDS[e.key];
    if (!spec) {
      unknownKey(path, e, bad);
      continue;
    }
    const v = e.value;
    if (v.kind === 'scalar' && v.value === null) continue; // null: az sends nothing for it
    const got = asType(v, spec.type);
    if (got === undefined) {
      if (e.key === 'seccompDefault' && v.kind === 'scalar' && typeof v.value === 'boolean') {
        const to = v.value ? 'RuntimeDefault' : 'Unconfined';
        bad(v.span, `az cannot send seccompDefault ${v.source}: AKS takes "RuntimeDefault" (the kubelet's true) or "Unconfined".`, 'error', [
          { title: `Write "${to}"`, edits: [{ file: path, range: v.span.range, newText: JSON.stringify(to) }], preferred: true },
        ]);
      } else {
        // "50Mi" for containerLogMaxSizeMB: the number of megabytes is meant
        const m = spec.type === 'int' && v.kind === 'scalar' && typeof v.value === 'string' ? /^(\d+)[ \t]*(?:Mi|M|MB|MiB)$/.exec(v.value) : null;
        bad(v.span, `az cannot send ${e.key} ${shown(v)}: it must be ${TYPE_WORDS[spec.type]}.`, 'error',
          m ? [{ title: `Write ${m[1]}`, edits: [{ file: path, range: v.span.range, newText: m[1] }], preferred: true }] : undefined);
      }
      continue;
    }
    if (typeof got === 'object') {
      if (e.key === 'kubeReserved') {
        const m = kubeReserved(path, got as MapNode, bad);
        if (m.length) entries.push({ key: 'kubeReserved', keySpan: e.keySpan, value: { kind: 'map', entries: m, span: v.span } });
      } else if (e.key === 'hardEvictionThreshold') {
        const m = hardEviction(path, got as MapNode, bad);
        if (m.length) entries.push({ key: 'evictionHard', keySpan: e.keySpan, value: { kind: 'map', entries: m, span: v.span } });
      } else {
        entries.push({ key: spec.to, keySpan: e.keySpan, value: got as ConfigNode });
      }
      continue;
    }
    const why = spec.check?.(got);
    if (why) {
      const near = typeof got === 'string' && spec.values ? closest(got.replace(/_/g, '-'), spec.values) : undefined;
      bad(v.span, `AKS rejects ${e.key} ${shown(v)}: ${why}.`, 'error',
        near ? [{ title: `Write "${near}"`, edits: [{ file: path, range: v.span.range, newText: JSON.stringify(near) }], preferred: true }] : undefined);
      continue;
    }
    if (e.key === 'cpuCfsQuotaPeriod') facts.cfsPeriod = true;
    const value = spec.convert ? spec.convert(got) : got;
    entries.push({ key: spec.to, keySpan: e.keySpan, value: value === (v as ScalarNode).value ? v : scalar(v as ScalarNode, value) });
  }
  const platform: PlatformInfo = {
    tool: 'aks',
    span: root.entries[0]?.keySpan ?? { file: path, range: lines.range(0, 0) },
    gates: [],
    configLabel: 'the kubelet configuration',
    keys: { fields: Object.keys(KUBELET_FIELDS), kubeletShaped: Object.keys(KUBELET_FIELDS).filter((k) => KUBELET_FIELDS[k].to === k && k !== 'kubeReserved') },
    facts: { ...facts },
  };
  const doc: KubeletConfigDoc = { path, format: 'json', root: { kind: 'map', entries, span: root.span }, docIndex: 0, span: root.span };
  const block: KubeletConfigDoc = { path, format: 'json', root, docIndex: 0, span: root.span };
  if (r.problems.some((p) => p.severity === 'error')) doc.syntaxErrors = block.syntaxErrors = true;
  out.kubeletConfigs.push(doc);
  out.blocks = [block];
  out.platform = platform;
  return out;
}

type Bad = (span: Span, message: string, severity?: 'error' | 'warning', fixes?: Fix[]) => void;

/** A key az's model does not know: dropped before the request is sent, so the node never sees it. */
function unknownKey(path: string, e: MapEntry, bad: Bad): void {
  const own = AKS_OWNS[e.key];
  if (own) {
    bad(e.keySpan, `az drops ${e.key}: AKS never sees it. ${own}.`, 'warning');
    return;
  }
  const near = closest(e.key, Object.keys(KUBELET_FIELDS)) ?? kubeletSpelling(e.key);
  bad(e.keySpan, `az drops ${e.key}: AKS never sees it.${near ? ` AKS calls it ${near}.` : ' AKS custom node configuration has no such key.'}`, 'warning',
    near ? [renameFix(path, e.keySpan, near)] : undefined);
}

/** The AKS key for a KubeletConfiguration spelling (imageGCHighThresholdPercent → imageGcHighThreshold). */
function kubeletSpelling(key: string): string | undefined {
  for (const [k, spec] of Object.entries(KUBELET_FIELDS)) if (spec.to === key) return k;
  return undefined;
}

function kubeReserved(path: string, m: MapNode, bad: Bad): MapEntry[] {
  const out: MapEntry[] = [];
  for (const e of m.entries) {
    const r = RESERVED[e.key];
    if (!r) {
      const near = closest(e.key, Object.keys(RESERVED)) ?? (e.key === 'cpu' ? 'cpuMillicores' : e.key === 'memory' ? 'memoryMB' : undefined);
      bad(e.keySpan, `az drops kubeReserved.${e.key}: AKS never sees it. It takes cpuMillicores and memoryMB.`, 'warning', near ? [renameFix(path, e.keySpan, near)] : undefined);
      continue;
    }
    const n = asType(e.value, 'int');
    if (typeof n !== 'number') {
      bad(e.value.span, `az cannot send kubeReserved.${e.key} ${shown(e.value)}: it must be a whole number.`);
      continue;
    }
    if (n < 1) {
      bad(e.value.span, `AKS rejects kubeReserved.${e.key} ${n}: it must be positive.`);
      continue;
    }
    out.push({ key: r.resource, keySpan: e.keySpan, value: scalar(e.value as ScalarNode, `${n}${r.unit}`) });
  }
  return out;
}

function hardEviction(path: string, m: MapNode, bad: Bad): MapEntry[] {
  const out: MapEntry[] = [];
  for (const e of m.entries) {
    const signal = HARD_EVICTION[e.key];
    if (!signal) {
      const near = closest(e.key, Object.keys(HARD_EVICTION)) ?? Object.keys(HARD_EVICTION).find((k) => HARD_EVICTION[k] === e.key);
      bad(e.keySpan, `az drops hardEvictionThreshold.${e.key}: AKS never sees it.${near ? ` AKS calls it ${near}.` : ''}`, 'warning', near ? [renameFix(path, e.keySpan, near)] : undefined);
      continue;
    }
    const v = e.value;
    if (v.kind !== 'scalar' || typeof v.value !== 'string') {
      bad(v.span, `az cannot send hardEvictionThreshold.${e.key} ${shown(v)}: it must be a string.`);
      continue;
    }
    const why = hardEvictionCheck(e.key, v.value);
    if (why) {
      bad(v.span, `AKS rejects hardEvictionThreshold.${e.key} ${shown(v)}: ${why}.`);
      continue;
    }
    out.push({ key: signal, keySpan: e.keySpan, value: v });
  }
  return out;
}
