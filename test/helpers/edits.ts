import type { TextEdit } from '../../server/src/model/finding.ts';
import { offsetOf, type Position } from '../../server/src/model/range.ts';

/** Offset of an LSP position (0-based line, UTF-16 character; lines end at \n, \r\n or \r); throws past the text. */
export function offsetAt(text: string, p: Position): number {
  const o = offsetOf(text, p);
  if (o === undefined) throw new Error(`${p.line}:${p.character} is past the end of its line or of the text`);
  return o;
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
