/**
 * Deleting a word leaves its blanks: a value that started with it keeps a leading blank (`ARGS=" --v=2"`), a line
 * that ended with it a trailing one. systemd and the env-file reader drop such blanks, but the file should read as
 * if the word had never been there. A run of deleted words on one line takes the blanks up to the next word of the
 * same value (or, when it is the last, from the word before it): only between words of one value (the literal
 * words of ExecStart=, or the words of one variable's assignment), where nothing but blanks separates them.
 */
import { comparePos, type Range } from '../../model/range.ts';
import type { NodeModel } from '../../node/model.ts';
import type { PlainEdit } from './types.ts';

interface Occupant {
  range: Range;
  /** Words of one value share a group; a `$NAME` reference or an in-place `${NAME}` is a group of its own. */
  group: string;
  removal?: PlainEdit;
}

export function closeGaps(node: NodeModel, removals: PlainEdit[]): PlainEdit[] {
  const byLine = new Map<string, Occupant[]>();
  const add = (file: string, o: Occupant) => {
    const k = `${file}:${o.range.start.line}`;
    (byLine.get(k) ?? byLine.set(k, []).get(k)!).push(o);
  };
  if (node.program) add(node.program.span.file, { range: node.program.span.range, group: 'exec' });
  for (const w of node.argv) {
    const via = w.via;
    const r = w.span.range;
    if (r.start.line !== r.end.line) continue;
    const inPlace = via !== undefined && via.span.file === w.span.file && comparePos(via.span.range.start, r.start) <= 0 && comparePos(r.end, via.span.range.end) <= 0;
    add(w.span.file, { range: r, group: !via ? 'exec' : inPlace ? `in-place ${via.span.range.start.line}:${via.span.range.start.character}` : `variable ${via.variable}` });
  }
  for (const ref of node.execReferences ?? []) add(ref.span.file, { range: ref.span.range, group: `reference ${ref.span.range.start.character}` });
  const same = (a: Range, b: Range) => comparePos(a.start, b.start) === 0 && comparePos(a.end, b.end) === 0;
  const replaced = new Map<PlainEdit, PlainEdit | null>();
  for (const e of removals) {
    if (e.newText !== '' || e.range.start.line !== e.range.end.line) continue;
    const line = byLine.get(`${e.path}:${e.range.start.line}`);
    const o = line?.find((x) => same(x.range, e.range));
    if (o) o.removal = e;
  }
  for (const line of byLine.values()) {
    line.sort((a, b) => comparePos(a.range.start, b.range.start));
    for (let i = 0; i < line.length; ) {
      if (!line[i].removal) {
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < line.length && line[j + 1].removal && line[j + 1].group === line[i].group) j++;
      const run = line.slice(i, j + 1);
      const next = line[j + 1];
      const prev = line[i - 1];
      const group = line[i].group;
      let range: Range | undefined;
      if (next && !next.removal && next.group === group) range = { start: run[0].range.start, end: next.range.start };
      else if (!next && prev && !prev.removal && prev.group === group) range = { start: prev.range.end, end: run[run.length - 1].range.end };
      else if (run.length > 1) range = { start: run[0].range.start, end: run[run.length - 1].range.end };
      if (range) {
        const first = run[0].removal!;
        replaced.set(first, { ...first, range });
        for (const o of run.slice(1)) replaced.set(o.removal!, null);
      }
      i = j + 1;
    }
  }
  const out: PlainEdit[] = [];
  for (const e of removals) {
    const r = replaced.get(e);
    if (r === undefined) out.push(e);
    else if (r) out.push(r);
  }
  return out;
}
