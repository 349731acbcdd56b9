/**
 * A YAML sub-tree of a carrier used as a payload as it stands (eksctl's kubeletExtraConfig): the payload is the
 * carrier's own text from the start of the node's first line, so a block mapping keeps its indentation and every
 * payload offset is a carrier offset. Text before the node on its first line (`key: {a: 1}`) becomes spaces that
 * map to the node's start. Inserted text is written as it is (a fix indents it like the fragment already).
 */
import type { LineIndex } from '../model/range.ts';
import { VERBATIM, type PayloadMap } from './payload.ts';

export function yamlRegion(host: string, lines: LineIndex, start: number, until: number): { text: string; map: PayloadMap } {
  // Lines of only blanks after the node still belong to it for the editor (completion of the next key there).
  let end = until;
  for (;;) {
    let from = end;
    if (end > 0 && host[end - 1] !== '\n') {
      const nl = host.indexOf('\n', end);
      if (nl < 0 || /\S/.test(host.slice(end, nl))) break;
      from = nl + 1;
    }
    const next = host.indexOf('\n', from);
    const line = host.slice(from, next < 0 ? host.length : next).replace(/\r$/, '');
    if (!/^[ \t]+$/.test(line)) break;
    end = from + line.length;
  }
  const line = lines.position(start).line;
  const lineStart = lines.starts[line];
  const lead = host.slice(lineStart, start);
  const pad = /^[ \t]*$/.test(lead) ? lead : ' '.repeat(start - lineStart);
  const body = host.slice(start, end);
  const text = pad + body;
  const offsets = new Int32Array(text.length + 1);
  for (let i = 0; i < pad.length; i++) offsets[i] = pad === lead ? lineStart + i : start;
  for (let i = 0; i <= body.length; i++) offsets[pad.length + i] = start + i;
  return { text, map: { host: lines, offsets, encode: VERBATIM } };
}
