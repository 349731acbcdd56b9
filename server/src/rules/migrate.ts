/**
 * "Move this flag into the KubeletConfiguration file": remove the flag and
 * write the same value as a field. Offered only where the effective value
 * provably stays the same: one literal occurrence of the flag, a --config
 * file in block-style YAML that does not set the field yet, and a value the
 * field can hold.
 */
import type { Fix, TextEdit } from '../model/finding.ts';
import type { FlagInfo } from '../catalog/flags.ts';
import { parseGoBool } from '../node/read.ts';
import type { FlagUse, NodeModel } from '../node/model.ts';
import { parseLangleMap, parseMapStringString } from '../quantity/mapflag.ts';
import { parseGoDuration } from '../quantity/duration.ts';
import { parseQuantity } from '../quantity/quantity.ts';
import { RESERVABLE_RESOURCES, evictionSignalInfo } from '../catalog/defaults.ts';

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
  const configs = node.kubeletConfigs.filter((d) => d.format === 'yaml' && !d.syntaxErrors);
  const ref = node.configRefs.find((r) => r.flag === 'config');
  if (!ref?.resolved || configs.length !== 1 || node.kubeletConfigs.length !== 1 || configs[0].path !== ref.resolved[0]) return undefined;
  const doc = configs[0];
  if (doc.root.entries.some((e) => e.key === field)) return undefined;
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

function render(field: string, f: FlagUse, info: FlagInfo): string | undefined {
  const v = f.value;
  const syn = info.syntax;
  if (syn.type === 'bool') {
    const b = v === undefined ? true : parseGoBool(v);
    return b === undefined ? undefined : `${field}: ${b}\n`;
  }
  if (v === undefined) return undefined;
  // A value the flag rejects would only move its error into the config file.
  if (syn.type === 'enum' && !syn.values.map((x) => (x === "''" ? '' : x)).includes(v)) return undefined;
  if (syn.type === 'duration' && !parseGoDuration(v).ok) return undefined;
  if (syn.type === 'quantity' && !parseQuantity(v).ok) return undefined;
  if (syn.type === 'int' || syn.type === 'float') return /^-?\d+(\.\d+)?$/.test(v) ? `${field}: ${v}\n` : undefined;
  if (SCALAR.has(syn.type)) return `${field}: ${JSON.stringify(v)}\n`;
  if (syn.type === 'list') {
    const items = v === '' ? [] : v.split(',').map((x) => x.trim());
    return items.length === 0 ? `${field}: []\n` : `${field}:\n${items.map((x) => `  - ${JSON.stringify(x)}\n`).join('')}`;
  }
  if (syn.type === 'map' && syn.value !== 'bool') {
    const parsed = syn.form === 'signal<value' ? parseLangleMap(v) : parseMapStringString(v);
    if (parsed.errors.length > 0) return undefined;
    // Keys the field rejects would only move their error into the config file.
    const keyOk = field.startsWith('eviction')
      ? (k: string) => evictionSignalInfo(k) !== undefined
      : field === 'kubeReserved' || field === 'systemReserved'
        ? (k: string) => (RESERVABLE_RESOURCES as readonly string[]).includes(k)
        : () => true;
    if (!parsed.entries.every((e) => keyOk(e.key))) return undefined;
    if (parsed.entries.length === 0) return `${field}: {}\n`;
    return `${field}:\n${parsed.entries.map((e) => `  ${JSON.stringify(e.key)}: ${JSON.stringify(e.value)}\n`).join('')}`;
  }
  return undefined;
}
