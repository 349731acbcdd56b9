/**
 * The merged kubelet configuration of a node as YAML, every value commented
 * with where it came from (config file, drop-in, flag, default).
 */
import { filesRead, filesReadText } from './files-read.ts';
import type { Analysis, NodeResult } from '../engine.ts';
import { KUBELET_DEFAULTS, defaultEvictionHard } from '../catalog/defaults.ts';
import { compareVersions } from '../catalog/flags.ts';
import type { Span } from '../model/range.ts';
import type { Item, Setting } from '../node/model.ts';
import { describe } from '../node/provenance.ts';
import { parseGoBool } from '../node/read.ts';
import { fieldInfo } from '../catalog/fields.ts';
import type { ConfigNode, KubeletConfigDoc } from '../parse/types.ts';
import { allocatableSummary } from './allocatable-view.ts';
import { nodeOf, payloadOf } from './locate.ts';
import { readableText } from '../embed/to-host.ts';
import { byCodeUnit } from '../model/order.ts';

interface T {
  comment?: string;
  scalar?: string;
  map?: Map<string, T>;
  list?: T[];
}

const PLAIN = /^[A-Za-z_/.][A-Za-z0-9_./:@+-]*$/;
const SPECIAL = /^(true|false|yes|no|on|off|y|n|null|~)$/i;

function yamlScalar(v: string | number | boolean | null): string {
  if (v === null) return 'null';
  if (typeof v !== 'string') return String(v);
  if (PLAIN.test(v) && !SPECIAL.test(v) && !v.includes(': ') && !/:$/.test(v)) return v;
  return JSON.stringify(v);
}

/**
 * A flag's value is text; in the config file an int or bool field needs the
 * number or the bool itself (`maxPods: "50"` would not decode), so render it typed.
 */
function typed(v: string | number | boolean | null, goType: string | undefined): string | number | boolean | null {
  if (typeof v !== 'string' || !goType) return v;
  if (/^\*?(int32|int64|int)$/.test(goType) && /^-?\d+$/.test(v)) return Number(v);
  if (/^\*?bool$/.test(goType)) return parseGoBool(v) ?? v;
  return v;
}

function yamlKey(k: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(k) ? k : JSON.stringify(k);
}

function sameSpan(a: Span | undefined, b: Span | undefined): boolean {
  return !!a && !!b && a.file === b.file && a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character;
}

/** The parsed YAML/JSON node written at `span` (for nested objects the setting only references). */
function findNode(docs: readonly KubeletConfigDoc[], span: Span | undefined, byKey: boolean): ConfigNode | undefined {
  if (!span) return undefined;
  const walk = (n: ConfigNode): ConfigNode | undefined => {
    if (!byKey && sameSpan(n.span, span)) return n;
    if (n.kind === 'map') {
      for (const e of n.entries) {
        if (byKey && sameSpan(e.keySpan, span)) return e.value;
        const r = walk(e.value);
        if (r) return r;
      }
    } else if (n.kind === 'seq') for (const i of n.items) {
      const r = walk(i);
      if (r) return r;
    }
    return undefined;
  };
  for (const d of docs) if (d.path === span.file) {
    const r = walk(d.root);
    if (r) return r;
  }
  return undefined;
}

function fromConfig(n: ConfigNode): T {
  if (n.kind === 'scalar') return { scalar: yamlScalar(n.value) };
  if (n.kind === 'map') return { map: new Map(n.entries.map((e) => [e.key, fromConfig(e.value)])) };
  return { list: n.items.map(fromConfig) };
}

function fromItem(docs: readonly KubeletConfigDoc[], i: Item, parent: Setting, itemType: string | undefined): T {
  const comment = i.from !== parent.from && !sameSpan(i.from.span, parent.from.span) ? describe(i.from) : undefined;
  if (i.nested) {
    const n = findNode(docs, i.valueSpan, false);
    if (n) return { ...fromConfig(n), comment };
  }
  return { scalar: yamlScalar(typed(i.value, itemType)), comment };
}

function fromSetting(docs: readonly KubeletConfigDoc[], field: string, s: Setting): T {
  const comment = describe(s.from);
  const goType = fieldInfo(field)?.goType;
  switch (s.kind) {
    case 'scalar':
      return { scalar: yamlScalar(typed(s.value, goType)), comment };
    case 'map': {
      const itemType = goType === 'map[string]bool' ? 'bool' : undefined;
      return { map: new Map(s.items.map((i) => [i.key ?? '', fromItem(docs, i, s, itemType)])), comment };
    }
    case 'list':
      return { list: s.items.map((i) => fromItem(docs, i, s, goType === '[]int32' ? 'int32' : undefined)), comment };
    case 'object': {
      const n = findNode(docs, s.from.span, true);
      return n ? { ...fromConfig(n), comment } : { scalar: '{}', comment };
    }
  }
}

function put(root: Map<string, T>, path: string[], t: T): void {
  let m = root;
  for (const k of path.slice(0, -1)) {
    let next = m.get(k);
    if (!next?.map) {
      next = { map: new Map(), comment: next?.comment };
      m.set(k, next);
    }
    m = next.map!;
  }
  m.set(path[path.length - 1], t);
}

function render(key: string, t: T, indent: string, out: string[]): void {
  const c = t.comment ? `  # ${t.comment}` : '';
  const head = key === '' ? `${indent}-` : `${indent}${yamlKey(key)}:`;
  if (t.scalar !== undefined) out.push(`${head} ${t.scalar}${c}`);
  else if (t.map) {
    if (t.map.size === 0) out.push(`${head} {}${c}`);
    else {
      out.push(head + c);
      for (const [k, v] of t.map) render(k, v, indent + '  ', out);
    }
  } else if (t.list) {
    if (t.list.length === 0) out.push(`${head} []${c}`);
    else {
      out.push(head + c);
      for (const v of t.list) render('', v, indent + '  ', out);
    }
  }
}

export function effectiveConfigYaml(result: NodeResult): string {
  const { node } = result;
  const docs = node.kubeletConfigs;
  const root = new Map<string, T>();
  for (const field of [...node.settings.keys()].sort()) put(root, field.split('.'), fromSetting(docs, field, node.settings.get(field)!));
  for (const [k, v] of Object.entries(KUBELET_DEFAULTS)) {
    if (root.has(k)) continue;
    // A field the node's kubelet does not have yet has no default there either (mergeDefaultEvictionSettings: 1.33).
    const since = fieldInfo(k)?.since;
    if (since && compareVersions(since, node.kubernetesVersion) > 0) continue;
    const value = k === 'evictionHard' ? defaultEvictionHard(node.kubernetesVersion) : v;
    let t: T;
    if (Array.isArray(value)) t = { list: value.map((x) => ({ scalar: yamlScalar(x) })) };
    else if (typeof value === 'object' && value !== null) t = { map: new Map(Object.entries(value).map(([a, b]) => [a, { scalar: yamlScalar(String(b)) }])) };
    else t = { scalar: yamlScalar(value as string | number | boolean) };
    t.comment = 'the kubelet default';
    root.set(k, t);
  }
  const out = [
    `# Effective kubelet configuration of node ${node.id} (kubelet ${node.kubernetesVersion}${node.kubernetesVersionSource ? `, from ${node.kubernetesVersionSource}` : ''})`,
    `# Files: ${node.files.join(', ')}`,
    `# ${allocatableSummary(result)}`,
    '# Read-only: generated from the files above; edit those instead.',
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
  ];
  const sorted = [...root.entries()].sort(([a], [b]) => byCodeUnit(a, b));
  for (const [k, t] of sorted) render(k, t, '', out);
  if (node.flagOnly.size) {
    out.push('# Flags without a config field:');
    for (const f of node.flagOnly.values()) out.push(`#   --${f.name}${f.value !== undefined ? `=${f.value}` : ''}  (${f.span.file} line ${f.span.range.start.line + 1})`);
  }
  return out.join('\n') + '\n';
}

/** The effective configuration of the node containing `path`, or undefined when no node reads it. */
export function effectiveConfiguration(analysis: Analysis, path: string): string | undefined {
  const result = nodeOf(analysis, path);
  // A payload's places in its carrier's lines, its paths as `cloud-init.yaml → /var/lib/kubelet/config.yaml`.
  if (!result) return undefined;
  // What this node read, and as what (features/files-read.ts).
  const read = filesRead(analysis, []).filter((f) => f.nodes?.includes(result.node.id));
  const unread = (result.node.unread ?? []).map((u) => `#   ${u.shown} was not read: ${u.why}`);
  const incomplete = unread.length ? ['', '# Incomplete: what these files set is not known, and nothing here rests on it being absent.', ...unread] : [];
  const files = ['', '# Files this node read, and as what:', ...filesReadText(read).map((l) => `#   ${l}`), ...incomplete].join('\n') + '\n';
  return readableText(effectiveConfigYaml(result) + files, payloadOf(analysis));
}
