/**
 * An edit that deletes a whole flag whose map value holds only the entry being removed (`--feature-gates=X=true`,
 * a Talos `feature-gates: X=true`, a k3s `- feature-gates=X=true`): removing the entry alone would leave a flag with
 * an empty value. On a command line the flag's words go with the blanks up to the next word of the same value (or
 * from the word before, when it is the last); in a YAML flag map or list the entry's line goes (an only entry
 * leaves `{}` or `[]`). Undefined where the shape is not certain.
 */
import type { TextEdit } from '../../model/finding.ts';
import type { Range } from '../../model/range.ts';
import { comparePos } from '../../model/range.ts';
import type { ConfigNode, Word } from '../../parse/types.ts';
import type { FlagUse, Item, NodeModel } from '../../node/model.ts';
import { removeFromConfig } from './remove-item.ts';

export function removeWholeFlag(node: NodeModel, item: Item): TextEdit | undefined {
  const f = node.flags.find((x) => x.span === item.from.span);
  if (!f) return undefined;
  return f.from === 'command-line' ? fromCommandLine(node, f) : fromArgs(node, f);
}

/** Words of one value: literal words of ExecStart=, or the words of one variable's assignment (not an in-place `${X}`). */
function group(w: Word): string | undefined {
  const via = w.via;
  if (!via) return 'exec';
  return via.span.file === w.span.file ? undefined : `variable ${via.variable}`;
}

function fromCommandLine(node: NodeModel, f: FlagUse): TextEdit | undefined {
  const first = f.nameWord;
  const last = f.valueWord ?? f.nameWord;
  const file = first.span.file;
  const line = first.span.range.start.line;
  if (last.span.file !== file || first.span.range.end.line !== line || last.span.range.end.line !== line) return undefined;
  const g = group(first);
  if (!g || group(last) !== g) return undefined;
  let range: Range = { start: first.span.range.start, end: last.span.range.end };
  const i = node.argv.indexOf(first);
  const j = node.argv.indexOf(last);
  const partner = (w: Word | undefined) => w && w.span.file === file && w.span.range.start.line === line && w.span.range.end.line === line && group(w) === g;
  const next = j >= 0 ? node.argv[j + 1] : undefined;
  const prev = i > 0 ? node.argv[i - 1] : i === 0 && g === 'exec' ? node.program : undefined;
  if (partner(next)) range = { start: range.start, end: next!.span.range.start };
  else if (partner(prev)) range = { start: prev!.span.range.end, end: range.end };
  return { file, range, newText: '' };
}

function fromArgs(node: NodeModel, f: FlagUse): TextEdit | undefined {
  const at = f.span.range.start;
  const file = f.span.file;
  const containers: ConfigNode[] = [];
  for (const k of node.kubeadm) if (k.kubeletExtraArgsNode) containers.push(k.kubeletExtraArgsNode.value);
  for (const a of node.platform?.args ?? []) if (a.node) containers.push(a.node);
  for (const c of containers) {
    if (c.span.file !== file) continue;
    if (c.kind === 'map') {
      const e = c.entries.find((x) => comparePos(x.keySpan.range.start, at) === 0);
      if (e) return removeFromConfig(c, e.keySpan);
    } else if (c.kind === 'seq') {
      const i = c.items.findIndex((x) => x.kind === 'scalar' && comparePos(x.span.range.start, at) <= 0 && comparePos(at, x.span.range.end) <= 0);
      if (i >= 0) return removeListItem(c, i);
    }
  }
  return undefined;
}

/** A block list's item alone on its line: the line; an only item: `[]`. */
function removeListItem(seq: ConfigNode & { kind: 'seq' }, i: number): TextEdit | undefined {
  const items = seq.items;
  const it = items[i].span.range;
  const line = it.start.line;
  if (it.end.line !== line) return undefined;
  const file = seq.span.file;
  if (items.length === 1) {
    return seq.span.range.start.line === line ? { file, range: { start: seq.span.range.start, end: it.end }, newText: '[]' } : undefined;
  }
  const prev = items[i - 1];
  const next = items[i + 1];
  const alone = (!prev || prev.span.range.end.line < line) && (!next || next.span.range.start.line > line);
  // The line break after it is proven by the next item, or by the list's end at the start of a later line.
  const broken = next !== undefined || (seq.span.range.end.character === 0 && seq.span.range.end.line > line);
  return alone && broken ? { file, range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, newText: '' } : undefined;
}
