/**
 * "What is at this position": lookups over the engine's parse results and
 * node models, which carry exact spans. Nothing here reads source text.
 */
import type { UnusedVariable } from '../node/unused-variables.ts';
import type { Analysis, NodeResult } from '../engine.ts';
import type { Position, Range, TextMap } from '../model/range.ts';
import type { FlagUse } from '../node/model.ts';
import type { ParsedFile } from '../node/parse-files.ts';
import { carrierOf, payloadPath } from '../embed/payload.ts';
import type { PayloadOf } from '../embed/to-host.ts';
import type { ConfigNode, EnvAssignment, KubeletConfigDoc, MapEntry, UnitDirective } from '../parse/types.ts';

export function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** True when `p` lies in `r` (both ends included, so a cursor right after a word counts). */
export function contains(r: Range, p: Position): boolean {
  return !before(p, r.start) && !before(r.end, p);
}

export function parsedFile(analysis: Analysis, path: string): ParsedFile | undefined {
  return analysis.files.get(path);
}

/** Nodes that read this file, or files this carrier writes (a file may belong to more than one). */
export function nodesOf(analysis: Analysis, path: string): NodeResult[] {
  return analysis.nodes.filter((n) => n.node.files.some((f) => f === path || carrierOf(f) === path));
}

export function nodeOf(analysis: Analysis, path: string): NodeResult | undefined {
  return nodesOf(analysis, path)[0];
}

/** The node whose configuration includes this KubeletConfiguration document. */
export function nodeOfDoc(analysis: Analysis, doc: KubeletConfigDoc): NodeResult | undefined {
  return analysis.nodes.find((n) => n.node.kubeletConfigs.some((d) => d.path === doc.path && d.docIndex === doc.docIndex)) ?? nodeOf(analysis, doc.path);
}

/**
 * The flag of a node's command line whose name or value is written at `pos` in `path`; `unused` when it sits in a
 * variable that no ExecStart= references (it never reaches the kubelet).
 */
export function flagAt(
  analysis: Analysis,
  path: string,
  pos: Position,
): { result: NodeResult; flag: FlagUse; onValue: boolean; unused?: UnusedVariable } | undefined {
  for (const result of nodesOf(analysis, path)) {
    const hit = flagIn(result.node.flags, path, pos);
    if (hit) return { result, ...hit };
    for (const u of result.node.unusedVariables ?? []) {
      if (u.assignment.span.file !== path || !contains(u.assignment.span.range, pos)) continue;
      const inUnused = flagIn(u.flags, path, pos);
      if (inUnused) return { result, ...inUnused, unused: u };
    }
  }
  return undefined;
}

function flagIn(flags: readonly FlagUse[], path: string, pos: Position): { flag: FlagUse; onValue: boolean } | undefined {
  for (const flag of flags) {
    const nameSpan = flag.nameWord.span;
    const inValue = flag.value !== undefined && flag.valueSpan.file === path && contains(flag.valueSpan.range, pos);
    if (inValue) return { flag, onValue: true };
    if (nameSpan.file === path && contains(flag.span.file === path ? flag.span.range : nameSpan.range, pos)) return { flag, onValue: false };
  }
  return undefined;
}

export function directiveAt(file: ParsedFile | undefined, pos: Position): UnitDirective | undefined {
  return file?.unit?.directives.find((d) => contains(d.span.range, pos));
}

export function assignmentAt(file: ParsedFile | undefined, pos: Position): EnvAssignment | undefined {
  return file?.env?.assignments.find((a) => contains(a.span.range, pos));
}

/** Logical offset of a file position inside a mapped value (inverse of TextMap.position). */
export function offsetIn(map: TextMap, pos: Position): number | undefined {
  for (const s of map.segments) {
    if (s.line === pos.line && pos.character >= s.character && pos.character <= s.character + s.length) {
      return s.offset + (pos.character - s.character);
    }
  }
  return undefined;
}

export interface ConfigHit {
  doc: KubeletConfigDoc;
  /** Dotted field path of the entry, e.g. "kubeReserved.memory" or "authentication.webhook.enabled". */
  field: string;
  /** Path of the mapping that holds the entry ("" for the root). */
  parent: string;
  entry?: MapEntry;
  /** The scalar under the cursor (an entry's value or a list item). */
  scalar?: ConfigNode & { kind: 'scalar' };
  on: 'key' | 'value' | 'item';
}

export function kubeletDocs(file: ParsedFile | undefined): KubeletConfigDoc[] {
  return file?.config?.kubeletConfigs ?? [];
}

/** The KubeletConfiguration key, value or list item at `pos`. */
export function configAt(file: ParsedFile | undefined, pos: Position, docs: readonly KubeletConfigDoc[] = kubeletDocs(file)): ConfigHit | undefined {
  for (const doc of docs) {
    const hit = inMap(doc, doc.root.entries, '', pos);
    if (hit) return hit;
  }
  return undefined;
}

function inMap(doc: KubeletConfigDoc, entries: readonly MapEntry[], parent: string, pos: Position): ConfigHit | undefined {
  for (const e of entries) {
    const field = parent ? `${parent}.${e.key}` : e.key;
    if (contains(e.keySpan.range, pos)) return { doc, field, parent, entry: e, on: 'key' };
    const v = e.value;
    if (v.kind === 'scalar') {
      if (contains(v.span.range, pos)) return { doc, field, parent, entry: e, scalar: v, on: 'value' };
    } else if (v.kind === 'map') {
      const hit = inMap(doc, v.entries, field, pos);
      if (hit) return hit;
    } else {
      for (const item of v.items) {
        if (item.kind === 'scalar' && contains(item.span.range, pos)) return { doc, field, parent, entry: e, scalar: item, on: 'item' };
        if (item.kind === 'map') {
          const hit = inMap(doc, item.entries, `${field}[]`, pos);
          if (hit) return hit;
        }
      }
    }
  }
  return undefined;
}

/**
 * For a cursor on a line without a key (an empty line being typed on), the
 * root entry it continues: the last one starting above, when the cursor is
 * indented. Undefined at column 0 (a new top-level key).
 */
export function enclosingRootEntry(
  file: ParsedFile | undefined, pos: Position, docs: readonly KubeletConfigDoc[] = kubeletDocs(file),
): { doc: KubeletConfigDoc; entry?: MapEntry } | undefined {
  const doc = [...docs].reverse().find((d) => d.span.range.start.line <= pos.line) ?? docs[0];
  if (!doc) return undefined;
  // A fragment held in a platform file (Talos extraConfig, nodeadm kubelet.config) has its root keys indented:
  // a cursor at their column, within the fragment's lines, starts a new root key; elsewhere it is not in it.
  const col = file?.config?.platform ? (doc.root.entries[0]?.keySpan.range.start.character ?? 0) : 0;
  if (col > 0 && (pos.character < col || pos.line > doc.span.range.end.line + 1 || pos.line < doc.span.range.start.line)) return undefined;
  if (pos.character === col) return { doc };
  let last: MapEntry | undefined;
  for (const e of doc.root.entries) if (before(e.keySpan.range.start, pos)) last = e;
  return { doc, entry: last };
}

/** The kubeletExtraArgs entry (kubeadm) whose name is at `pos`. */
export function extraArgAt(file: ParsedFile | undefined, pos: Position) {
  for (const k of file?.config?.kubeadm ?? []) {
    for (const a of k.kubeletExtraArgs) if (contains(a.nameSpan.range, pos)) return a;
  }
  return undefined;
}

/** The payload at a workspace path of this analysis, with its carrier. */
export function payloadOf(analysis: Analysis): PayloadOf {
  return (path) => {
    const known = analysis.payloads?.get(path);
    if (known) return known;
    const host = carrierOf(path);
    const payload = host === undefined ? undefined : analysis.files.get(host)?.embedded?.find((p) => payloadPath(host, p.target) === path);
    return payload && { host: host!, payload };
  };
}

/** For the CLI's text output, which names nodes as the editor does (it may not reach into embed/). */
export { readablePath } from '../embed/payload.ts';
