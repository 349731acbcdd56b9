import { LineIndex } from '../model/range.ts';

/**
 * The lines of a text that contain a marker, with their 0-based LSP numbers, found without walking every line.
 * Lines end at \n, \r\n or a lone \r (LineIndex); a text with a \r is read through a LineIndex.
 */
export function linesWith(text: string, mark: string): { line: number; raw: string }[] {
  const out: { line: number; raw: string }[] = [];
  if (text.includes('\r')) {
    const idx = new LineIndex(text);
    for (let i = text.indexOf(mark); i !== -1; ) {
      const line = idx.position(i).line;
      out.push({ line, raw: idx.lineText(line) });
      i = line + 1 < idx.starts.length ? text.indexOf(mark, idx.starts[line + 1]) : -1;
    }
    return out;
  }
  let line = 0;
  let counted = 0;
  let from = 0;
  for (;;) {
    const i = text.indexOf(mark, from);
    if (i === -1) return out;
    const start = text.lastIndexOf('\n', i - 1) + 1;
    for (let j = text.indexOf('\n', counted); j !== -1 && j < start; j = text.indexOf('\n', j + 1)) line++;
    counted = start;
    let end = text.indexOf('\n', i);
    if (end === -1) end = text.length;
    out.push({ line, raw: text.slice(start, end) });
    from = end + 1;
  }
}
