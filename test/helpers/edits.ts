import type { TextEdit } from '../../server/src/model/finding.ts';
import type { Position } from '../../server/src/model/range.ts';

/** Offset of an LSP position (0-based line, UTF-16 character) in a text whose lines end in \n (or \r\n). */
export function offsetAt(text: string, p: Position): number {
  let line = 0;
  let i = 0;
  while (line < p.line) {
    const nl = text.indexOf('\n', i);
    if (nl === -1) throw new Error(`line ${p.line} is past the end of the text`);
    i = nl + 1;
    line++;
  }
  let end = text.indexOf('\n', i);
  if (end === -1) end = text.length;
  if (end > i && text[end - 1] === '\r') end--;
  if (p.character > end - i) throw new Error(`character ${p.character} is past the end of line ${p.line}`);
  return i + p.character;
}

/** Applies the edits meant for `file` to `text` (edits must not overlap; applied back to front). */
export function applyEdits(text: string, edits: readonly TextEdit[], file?: string): string {
  const mine = edits
    .filter((e) => file === undefined || e.file === file)
    .map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const e of mine) {
    if (e.end > limit) throw new Error('overlapping edits');
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    limit = e.start;
  }
  return out;
}

/** Applies edits to a whole workspace: returns a new file list. */
export function applyWorkspaceEdits<T extends { path: string; text: string }>(files: readonly T[], edits: readonly TextEdit[]): T[] {
  return files.map((f) => (edits.some((e) => e.file === f.path) ? { ...f, text: applyEdits(f.text, edits, f.path) } : f));
}
