/**
 * "Move this flag into the KubeletConfiguration file": remove the flag and
 * write the same value as a field. Offered only where the effective value
 * provably stays the same: one literal occurrence of the flag, a --config
 * file in block-style YAML that does not set the field yet, and a value the
 * field can hold.
 */
import type { Fix, TextEdit } from '../../model/finding.ts';
import type { FlagInfo } from '../../catalog/flags.ts';
import { parseGoBool } from '../../node/read.ts';
import type { FlagUse, NodeModel } from '../../node/model.ts';
import { kubeadmRewrites, kubeadmWrites } from '../../node/kubeadm.ts';
import { comparePos } from '../../model/range.ts';
import type { Word } from '../../parse/types.ts';
import { parseLangleMap, parseMapStringBool, parseMapStringString } from '../../quantity/mapflag.ts';
import { parseGoDuration } from '../../quantity/duration.ts';
import { parseQuantity } from '../../quantity/quantity.ts';
import { RESERVABLE_RESOURCES, evictionSignalInfo } from '../../catalog/defaults.ts';
import { fieldInfo } from '../../catalog/fields.ts';

const SCALAR = new Set(['bool', 'int', 'float', 'string', 'path', 'url', 'duration', 'quantity', 'enum', 'ip', 'cidr', 'cpuset']);

/** How many times each flag is given; computed once per node by the caller (migrationFix runs per flag). */
export function flagCounts(node: NodeModel): Map<string, number> {
  const n = new Map<string, number>();
  for (const x of node.flags) n.set(x.name, (n.get(x.name) ?? 0) + 1);
  return n;
}

export function migrationFix(node: NodeModel, f: FlagUse, info: FlagInfo, counts: Map<string, number>): Fix | undefined {
  const field = info.field;
  if (!field || field.includes('.') || f.from !== 'command-line' || f.valueWord) return undefined;
  if (counts.get(f.name) !== 1) return undefined;
  const word = f.nameWord.span;
  if (word.range.start.line !== word.range.end.line) return undefined;
  if (valueStartConflict(node, new Set([f.nameWord]))) return undefined;
  const configs = node.kubeletConfigs.filter((d) => d.format === 'yaml' && !d.syntaxErrors);
  const ref = node.configRefs.find((r) => r.flag === 'config');
  if (!ref?.resolved || configs.length !== 1 || node.kubeletConfigs.length !== 1 || configs[0].path !== ref.resolved[0]) return undefined;
  const doc = configs[0];
  if (doc.root.entries.some((e) => e.key === field)) return undefined;
  // What kubeadm writes itself is no place to move from or to (node/kubeadm.ts): the move would be undone.
  if (kubeadmWrites(word.file) || kubeadmRewrites(node, doc.path)) return undefined;
  const anchor = doc.root.entries.find((e) => e.key !== 'apiVersion' && e.key !== 'kind' && e.keySpan.range.start.character === 0);
  const last = doc.root.entries.at(-1);
  const yaml = render(field, f, info);
  if (!yaml || !last) return undefined;
  // Before the first real field, or after the last entry when the file holds only apiVersion and kind.
  const at = anchor ? { line: anchor.keySpan.range.start.line, character: 0 } : { line: last.value.span.range.end.line + 1, character: 0 };
  if (!anchor && last.keySpan.range.start.character !== 0) return undefined;
  const edits: TextEdit[] = [
    { file: word.file, range: word.range, newText: '' },
    { file: doc.path, range: { start: at, end: at }, newText: yaml },
  ];
  return { title: `Move --${f.name} into ${doc.path} as ${field}`, edits };
}

/**
 * systemd's env-file reader treats a quote specially only where a value starts: in `A=--x "--y" --z` the quotes
 * stay for the command line to remove, but `A= "--y" --z` is a quoted value after which blanks are skipped
 * (one word, `--y--z`). Deleting the first words of a variable's value is safe only when the first word left
 * starts with its own text, not a quote or an escape. Returns a deleted word that breaks this, if any.
 */
export function valueStartConflict(node: NodeModel, removed: ReadonlySet<Word>): Word | undefined {
  // Only words that came from a variable open one: none removed, nothing to check (and no grouping of the argv).
  let fromVariable = false;
  for (const w of removed) if (w.via) fromVariable = true;
  if (!fromVariable) return undefined;
  for (const words of variableWords(node)) {
    if (!removed.has(words[0])) continue;
    const next = words.find((w) => !removed.has(w));
    if (next && (next.text === '' || comparePos(next.map.position(0), next.span.range.start) !== 0)) return words[0];
  }
  return undefined;
}

/** The command line's words grouped by the variable assignment they come from; once per node (asked once per flag). */
const wordsByVariable = new WeakMap<NodeModel, Word[][]>();

function variableWords(node: NodeModel): Word[][] {
  let cached = wordsByVariable.get(node);
  if (cached) return cached;
  const groups = new Map<string, Word[]>();
  for (const w of node.argv) {
    const via = w.via;
    // Words of a whole-word $NAME (or of a standalone env file) live in the assignment; ${NAME} words in ExecStart= itself.
    if (!via || (via.span.file === w.span.file && comparePos(w.span.range.start, via.span.range.start) <= 0 && comparePos(via.span.range.end, w.span.range.end) <= 0)) continue;
    const key = `${via.variable}|${via.span.file}|${via.span.range.start.line}:${via.span.range.start.character}`;
    const list = groups.get(key);
    if (list) list.push(w);
    else groups.set(key, [w]);
  }
  cached = [...groups.values()];
  wordsByVariable.set(node, cached);
  return cached;
}

/** A flag value as the config field holds it (decimal numbers keep their text: int64 fields exceed a double). */
export type FieldValue =
  | { kind: 'bool'; value: boolean }
  | { kind: 'number'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'map'; entries: [string, string | boolean][] };

/**
 * Whether the field holds what its flag's syntax gives: strings, bools, numbers, string lists and maps. Objects and
 * lists of objects differ from their flags (--manifest-url-header `k:v` is a map of lists, --register-with-taints
 * and --reserved-memory are objects): writing the flag's text there would make the file fail to decode.
 */
export function fieldTakesFlagValue(field: string): boolean {
  const kind = fieldInfo(field)?.valueKind;
  return kind !== undefined && ['string', 'bool', 'int', 'float', 'duration', 'quantity', 'map-string', 'map-bool', 'list-string'].includes(kind);
}

/** Whether a map field accepts this key (a key it rejects would only move the flag's error into the config file). */
export function mapKeyAccepted(field: string, key: string): boolean {
  if (field.startsWith('eviction')) return evictionSignalInfo(key) !== undefined;
  if (field === 'kubeReserved' || field === 'systemReserved') return (RESERVABLE_RESOURCES as readonly string[]).includes(key);
  return true;
}

/**
 * One flag's value converted to its config field's value, or undefined when the field could not hold it
 * the same way (a value the flag rejects, a number pflag reads differently from YAML/JSON, an unknown key).
 * `value` is undefined for a bare bool flag.
 */
export function flagFieldValue(field: string, info: FlagInfo, v: string | undefined): FieldValue | undefined {
  if (!fieldTakesFlagValue(field)) return undefined;
  const syn = info.syntax;
  if (syn.type === 'bool') {
    const b = v === undefined ? true : parseGoBool(v);
    return b === undefined ? undefined : { kind: 'bool', value: b };
  }
  if (v === undefined) return undefined;
  // A value the flag rejects would only move its error into the config file.
  if (syn.type === 'enum' && !syn.values.map((x) => (x === "''" ? '' : x)).includes(v)) return undefined;
  if (syn.type === 'duration' && !parseGoDuration(v).ok) return undefined;
  if (syn.type === 'quantity' && !parseQuantity(v).ok) return undefined;
  if (syn.type === 'int' || syn.type === 'float') return /^-?\d+(\.\d+)?$/.test(v) ? { kind: 'number', text: v } : undefined;
  if (SCALAR.has(syn.type)) return { kind: 'string', value: v };
  if (syn.type === 'list') return { kind: 'list', items: v === '' ? [] : v.split(',').map((x) => x.trim()) };
  if (syn.type === 'map') {
    if (syn.value === 'bool') {
      const parsed = parseMapStringBool(v);
      if (parsed.errors.length > 0) return undefined;
      const entries: [string, boolean][] = [];
      for (const e of parsed.entries) {
        const b = parseGoBool(e.value);
        if (b === undefined) return undefined;
        entries.push([e.key, b]);
      }
      return { kind: 'map', entries };
    }
    const parsed = syn.form === 'signal<value' ? parseLangleMap(v) : parseMapStringString(v);
    if (parsed.errors.length > 0) return undefined;
    if (!parsed.entries.every((e) => mapKeyAccepted(field, e.key))) return undefined;
    return { kind: 'map', entries: parsed.entries.map((e) => [e.key, e.value]) };
  }
  return undefined;
}

function render(field: string, f: FlagUse, info: FlagInfo): string | undefined {
  // Feature gates merge with the file's instead of replacing them: not a one-flag move.
  if (info.syntax.type === 'map' && info.syntax.value === 'bool') return undefined;
  const fv = flagFieldValue(field, info, f.value);
  if (!fv) return undefined;
  switch (fv.kind) {
    case 'bool':
      return `${field}: ${fv.value}\n`;
    case 'number':
      return `${field}: ${fv.text}\n`;
    case 'string':
      return `${field}: ${JSON.stringify(fv.value)}\n`;
    case 'list':
      return fv.items.length === 0 ? `${field}: []\n` : `${field}:\n${fv.items.map((x) => `  - ${JSON.stringify(x)}\n`).join('')}`;
    case 'map':
      if (fv.entries.length === 0) return `${field}: {}\n`;
      return `${field}:\n${fv.entries.map(([k, x]) => `  ${JSON.stringify(k)}: ${JSON.stringify(x)}\n`).join('')}`;
  }
}
