/**
 * An edit that deletes one key of a map setting (a reservation, a feature gate) and nothing else: the entry
 * with one separator next to it, so the keys around it keep their values. Undefined where the shape is not
 * certain (a value known only approximately, an entry of a flag that is the flag's only one).
 */
import type { TextEdit } from '../../model/finding.ts';
import type { Range, Span } from '../../model/range.ts';
import { comparePos } from '../../model/range.ts';
import type { MapNode } from '../../parse/types.ts';
import type { Item, NodeModel } from '../../node/model.ts';

export function removeMapItem(node: NodeModel, item: Item): TextEdit | undefined {
  if (!item.keySpan || !item.valueSpan) return undefined;
  if (item.from.how === 'flag' || item.from.how === 'kubeadm-extra-args') return removeFromFlag(node, item);
  const map = writtenMap(node, item.keySpan);
  return map ? removeFromConfig(map, item.keySpan) : undefined;
}

/** The map of a config document that holds the entry whose key is written at `key`. */
function writtenMap(node: NodeModel, key: Span): MapNode | undefined {
  for (const doc of node.kubeletConfigs) {
    if (doc.path !== key.file) continue;
    for (const e of doc.root.entries) {
      if (e.value.kind === 'map' && e.value.entries.some((x) => x.keySpan === key)) return e.value;
    }
  }
  return undefined;
}

export function removeFromConfig(map: MapNode, key: Span): TextEdit | undefined {
  const entries = map.entries;
  const i = entries.findIndex((x) => x.keySpan === key);
  const e = entries[i];
  const file = key.file;
  const k = e.keySpan.range;
  const v = e.value.span.range;
  if (e.value.kind !== 'scalar' || comparePos(v.start, k.end) < 0) return undefined;
  // A block map starts at its first key; a flow map or JSON object starts at its brace.
  const block = comparePos(map.span.range.start, entries[0].keySpan.range.start) === 0;
  const line = k.start.line;
  if (block) {
    const prev = entries[i - 1];
    const next = entries[i + 1];
    const alone =
      v.start.line === line && v.end.line === line &&
      (!prev || prev.value.span.range.end.line < line) && (!next || next.keySpan.range.start.line > line);
    // The whole line, where the line break after it is proven (a block map ends at the start of the next line).
    const broken = next !== undefined || (map.span.range.end.character === 0 && map.span.range.end.line > line);
    if (alone && broken) {
      // The only entry: an empty map, so the field keeps a map value rather than becoming null.
      if (entries.length === 1) return { file, range: { start: k.start, end: v.end }, newText: '{}' };
      return { file, range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, newText: '' };
    }
  }
  let range: Range;
  if (i > 0) range = { start: entries[i - 1].value.span.range.end, end: v.end };
  else if (entries.length > 1) range = { start: k.start, end: entries[1].keySpan.range.start };
  else range = { start: k.start, end: v.end };
  if (block && entries.length === 1) return { file, range, newText: '{}' };
  return { file, range, newText: '' };
}

/** `--kube-reserved=cpu=1,gpu=1`: the entry and one comma, where the value is written character for character on one line. */
function removeFromFlag(node: NodeModel, item: Item): TextEdit | undefined {
  const f = node.flags.find((x) => x.span === item.from.span);
  if (!f || f.value === undefined) return undefined;
  const r = f.valueSpan.range;
  if (r.start.line !== r.end.line || r.end.character - r.start.character !== f.value.length) return undefined;
  const k = item.keySpan!.range;
  if (k.start.line !== r.start.line) return undefined;
  const at = k.start.character - r.start.character;
  const parts = f.value.split(',');
  if (parts.length < 2) return undefined;
  let start = 0;
  for (let j = 0; j < parts.length; j++) {
    const end = start + parts[j].length;
    if (at >= start && at < end) {
      const [a, b] = j > 0 ? [start - 1, end] : [start, end + 1];
      const base = r.start.character;
      return { file: f.valueSpan.file, range: { start: { line: r.start.line, character: base + a }, end: { line: r.start.line, character: base + b } }, newText: '' };
    }
    start = end + 1;
  }
  return undefined;
}
