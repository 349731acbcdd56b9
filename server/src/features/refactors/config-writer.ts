/**
 * Writing top-level fields of a KubeletConfiguration document, for the
 * refactors. Only the parser's spans are used (no text is read), so only
 * layouts whose shape the spans prove are written to: block-style YAML with
 * every top-level key at column 0, or JSON. A field that is present is
 * replaced from its key to the end of its value (a block map is edited
 * key by key instead where it can be, see blockMapEdits); a new one is added
 * after the document's last entry.
 */
import type { Analysis, NodeResult } from '../../engine.ts';
import { comparePos, type Position, type Range } from '../../model/range.ts';
import type { ConfigNode, KubeletConfigDoc, MapEntry, ScalarNode } from '../../parse/types.ts';
import type { FieldValue } from '../../rules/lib/migrate.ts';
import type { PlainEdit } from './types.ts';

export interface ConfigTarget {
  doc: KubeletConfigDoc;
  layout: 'yaml' | 'json' | 'json-inline';
  /** Indentation of one nesting level (YAML items, JSON members). */
  indent: number;
}

/**
 * The KubeletConfiguration document the node's kubelet reads through --config (or the
 * node's own file, for a config nobody references), when fields can be written into it
 * safely; otherwise why not.
 */
export function configTarget(analysis: Analysis, result: NodeResult): ConfigTarget | { why: string } {
  const { node } = result;
  const ref = node.configRefs.find((r) => r.flag === 'config');
  const path = ref ? ref.resolved?.[0] : node.service === undefined && node.kubeletConfigs.length === 1 ? node.kubeletConfigs[0].path : undefined;
  if (!path) return { why: 'the node has no KubeletConfiguration file in the workspace' };
  const parsed = analysis.files.get(path);
  const docs = parsed?.config?.kubeletConfigs ?? [];
  if (docs.length !== 1 || (parsed?.config?.kubeadm.length ?? 0) > 0) return { why: `${path} does not hold exactly one KubeletConfiguration` };
  // A file the kubelet cannot read as it stands (syntax, aliases, wrong kind) is not edited further.
  if (parsed!.problems.some((p) => p.severity === 'error')) return { why: `${path} has errors of its own` };
  // Another node reading the same file would change too.
  if (analysis.nodes.filter((n) => n.node.files.includes(path)).length !== 1) return { why: `${path} is read by more than one node` };
  const doc = docs[0];
  if (doc.syntaxErrors || doc.root.entries.length === 0 || hasAliases(doc)) return { why: `${path} has a shape the refactor does not rewrite` };
  const entries = doc.root.entries;
  if (doc.format === 'json') {
    const inline = entries.at(-1)!.value.span.range.end.line === doc.root.span.range.start.line;
    return { doc, layout: inline ? 'json-inline' : 'json', indent: inline ? 0 : entries[0].keySpan.range.start.character || 2 };
  }
  // Block style: the root map starts at its first key and every top-level key is at column 0 (a flow map starts at "{").
  const first = entries[0].keySpan.range.start;
  if (comparePos(doc.root.span.range.start, first) !== 0 || entries.some((e) => e.keySpan.range.start.character !== 0)) {
    return { why: `${path} is not block-style YAML` };
  }
  return { doc, layout: 'yaml', indent: yamlIndent(doc) };
}

/**
 * Edits that make each field hold its value: replace the entry when the document has it,
 * add it after the last entry otherwise. Undefined when a field is written twice in the
 * document (which one the kubelet keeps is the decoder's business) or its value cannot be
 * written in this layout.
 */
export function setFields(t: ConfigTarget, values: readonly (readonly [string, FieldValue])[]): PlainEdit[] | undefined {
  const { doc } = t;
  const path = doc.path;
  const edits: PlainEdit[] = [];
  const added: string[] = [];
  for (const [field, value] of values) {
    const same = doc.root.entries.filter((e) => e.key === field);
    if (same.length > 1) return undefined;
    const e = same[0];
    if (!e) {
      const text = t.layout === 'yaml' ? yamlEntry(field, value, t.indent) : jsonMember(field, value, t);
      if (text === undefined) return undefined;
      added.push(text);
      continue;
    }
    const key = e.keySpan.range;
    const val = e.value.span.range;
    // The value must follow its key (an alias's node lies elsewhere; aliases are refused above, this is a second guard).
    if (comparePos(val.start, key.end) < 0) return undefined;
    if (mapHolds(e.value, value)) continue;
    if (t.layout === 'yaml') {
      const inPlace = blockMapEdits(path, e, value);
      if (inPlace) {
        for (const x of inPlace) edits.push(x);
        continue;
      }
      const text = yamlEntry(field, value, t.indent);
      // Block collections and block scalars end at the start of the line after their last line.
      const toLineStart = val.end.character === 0 && val.end.line > key.start.line;
      edits.push({ path, range: { start: key.start, end: val.end }, newText: text + (toLineStart ? '\n' : '') });
    } else {
      const text = jsonValue(value, t, key.start.character);
      if (text === undefined) return undefined;
      edits.push({ path, range: val, newText: text });
    }
  }
  if (added.length > 0) {
    const insert = insertion(t, added);
    // An insertion where a replaced entry ends is folded into that replacement (two edits at one place have no defined order).
    const touching = edits.find((x) => comparePos(x.range.end, insert.at) === 0);
    if (touching) touching.newText += insert.text;
    else edits.push({ path, range: { start: insert.at, end: insert.at }, newText: insert.text });
  }
  return edits;
}

function insertion(t: ConfigTarget, added: string[]): { at: Position; text: string } {
  const { doc } = t;
  if (t.layout === 'yaml') {
    const at = doc.root.span.range.end;
    // The root ends at a line start when its last line has a line break, mid-line otherwise.
    return at.character === 0 ? { at, text: added.map((x) => x + '\n').join('') } : { at, text: added.map((x) => '\n' + x).join('') };
  }
  const last = doc.root.entries.at(-1)!;
  const sep = t.layout === 'json-inline' ? ', ' : ',\n' + ' '.repeat(t.indent);
  return { at: last.value.span.range.end, text: added.map((x) => sep + x).join('') };
}

// ---------- YAML ----------

const PLAIN = /^[A-Za-z/][A-Za-z0-9._/-]*$/;
const QUANTITY = /^\d+(\.\d+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|%)$/;
/** Plain words YAML 1.1 (go-yaml v2, which the kubelet uses) reads as booleans or null. */
const YAML11_WORDS = /^(y|yes|n|no|true|false|on|off|null)$/i;

/** A string as a YAML scalar that reads back as that string: plain when unambiguous, else double-quoted (JSON escapes are YAML escapes). */
export function yamlString(s: string): string {
  return (PLAIN.test(s) && !YAML11_WORDS.test(s)) || QUANTITY.test(s) ? s : JSON.stringify(s);
}

function yamlScalar(v: string | boolean): string {
  return typeof v === 'boolean' ? String(v) : yamlString(v);
}

/** `field: value`, or `field:` with its items on the following lines (no trailing line break). */
export function yamlEntry(field: string, v: FieldValue, indent: number): string {
  const pad = ' '.repeat(indent);
  const key = yamlString(field);
  switch (v.kind) {
    case 'bool':
      return `${key}: ${v.value}`;
    case 'number':
      return `${key}: ${v.text}`;
    case 'string':
      return `${key}: ${yamlString(v.value)}`;
    case 'list':
      return v.items.length === 0 ? `${key}: []` : `${key}:\n${v.items.map((i) => `${pad}- ${yamlString(i)}`).join('\n')}`;
    case 'map':
      return v.entries.length === 0 ? `${key}: {}` : `${key}:\n${v.entries.map(([k, x]) => `${pad}${yamlString(k)}: ${yamlScalar(x)}`).join('\n')}`;
  }
}

/** A map the file already writes as `v` (same keys in the same order, each value reading as v's): nothing to edit. */
function mapHolds(node: ConfigNode, v: FieldValue): boolean {
  if (v.kind !== 'map' || node.kind !== 'map' || node.entries.length !== v.entries.length) return false;
  return node.entries.every((x, i) => x.key === v.entries[i][0] && x.value.kind === 'scalar' && x.value.value === v.entries[i][1]);
}

/**
 * A block map whose new value keeps some of its keys in their order and adds others after them
 * (kubeReserved with the recommended cpu and memory; a map flag that replaces the file's map) is
 * edited where it differs: each changed value in place, each dropped key's line deleted, each new key
 * on a line of its own after the last item. Comment lines inside the map, and the way unchanged
 * values are written, stay. Undefined for any other shape or change (the caller then rewrites the
 * entry whole): one key and one scalar per line, at one column.
 */
function blockMapEdits(path: string, e: MapEntry, v: FieldValue): PlainEdit[] | undefined {
  const old = e.value;
  if (v.kind !== 'map' || v.entries.length === 0 || old.kind !== 'map' || old.entries.length === 0) return undefined;
  const items = old.entries;
  const column = items[0].keySpan.range.start.character;
  let line = e.keySpan.range.start.line;
  for (const item of items) {
    const k = item.keySpan.range.start;
    const val = item.value.span.range;
    // Each item on a later line than the one before, at the map's column, with a one-line scalar after its key.
    if (k.line <= line || k.character !== column || column === 0) return undefined;
    if (item.value.kind !== 'scalar' || val.start.line !== k.line || val.end.line !== k.line) return undefined;
    line = k.line;
  }
  const want = new Map(v.entries);
  if (want.size !== v.entries.length || new Set(items.map((i) => i.key)).size !== items.length) return undefined;
  // The new value is the kept items in the file's order, then the added keys.
  const kept = items.filter((i) => want.has(i.key));
  if (kept.some((item, i) => v.entries[i][0] !== item.key)) return undefined;
  const added = v.entries.slice(kept.length);
  // Lines after the last item are written (or it is deleted with its line break) only where the map's span
  // proves that line break: a block map ends at the start of the line after its last line.
  const end = old.span.range.end;
  const lastDropped = !want.has(items[items.length - 1].key);
  if ((added.length > 0 || lastDropped) && !(end.character === 0 && end.line > line)) return undefined;
  const edits: PlainEdit[] = [];
  let lastLine: PlainEdit | undefined;
  for (const item of items) {
    const scalar = item.value as ScalarNode;
    if (!want.has(item.key)) {
      const l = item.keySpan.range.start.line;
      edits.push((lastLine = { path, range: { start: { line: l, character: 0 }, end: { line: l + 1, character: 0 } }, newText: '' }));
      continue;
    }
    lastLine = undefined;
    const x = want.get(item.key)!;
    // Unchanged when it already reads as the value (a quoted "80m" stays quoted).
    if (scalar.value !== x) edits.push({ path, range: scalar.span.range, newText: yamlScalar(x) });
  }
  if (added.length > 0) {
    const pad = ' '.repeat(column);
    const text = added.map(([k, x]) => `${pad}${yamlString(k)}: ${yamlScalar(x)}\n`).join('');
    // Where the last item's line is deleted, the new lines take its place (two edits at one point have no order).
    if (lastLine) lastLine.newText = text;
    else edits.push({ path, range: { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } }, newText: text });
  }
  return edits;
}

/** The column of the first nested block item, so new items line up with the file's own. */
function yamlIndent(doc: KubeletConfigDoc): number {
  for (const e of doc.root.entries) {
    const v = e.value;
    if (v.span.range.start.line <= e.keySpan.range.start.line) continue;
    const c = v.span.range.start.character;
    if (c > 0) return c;
  }
  return 2;
}

// ---------- JSON ----------

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

function jsonScalar(v: string | boolean): string {
  return typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

/** A value in JSON; multi-line collections are indented from the column of their key. */
function jsonValue(v: FieldValue, t: ConfigTarget, keyColumn: number): string | undefined {
  const inline = t.layout === 'json-inline';
  const items = (xs: string[], open: string, close: string): string => {
    if (xs.length === 0) return open + close;
    if (inline) return open + xs.join(', ') + close;
    const pad = ' '.repeat(keyColumn);
    const inner = pad + ' '.repeat(t.indent || 2);
    return `${open}\n${xs.map((x) => inner + x).join(',\n')}\n${pad}${close}`;
  };
  switch (v.kind) {
    case 'bool':
      return String(v.value);
    case 'number':
      return JSON_NUMBER.test(v.text) ? v.text : undefined;
    case 'string':
      return JSON.stringify(v.value);
    case 'list':
      return items(v.items.map((i) => JSON.stringify(i)), '[', ']');
    case 'map':
      return items(v.entries.map(([k, x]) => `${JSON.stringify(k)}: ${jsonScalar(x)}`), '{', '}');
  }
}

function jsonMember(field: string, v: FieldValue, t: ConfigTarget): string | undefined {
  const text = jsonValue(v, t, t.indent);
  return text === undefined ? undefined : `${JSON.stringify(field)}: ${text}`;
}

// ---------- shape checks ----------

/** An alias shares its anchor's node, so some value's span lies before its own key (or a node is reached twice). */
function hasAliases(doc: KubeletConfigDoc): boolean {
  const seen = new Set<ConfigNode>();
  const walk = (n: ConfigNode, after?: Range): boolean => {
    if (seen.has(n)) return true;
    seen.add(n);
    if (after && comparePos(n.span.range.start, after.end) < 0) return true;
    if (n.kind === 'map') return n.entries.some((e) => walk(e.value, e.keySpan.range));
    if (n.kind === 'seq') return n.items.some((i) => walk(i));
    return false;
  };
  return walk(doc.root);
}
