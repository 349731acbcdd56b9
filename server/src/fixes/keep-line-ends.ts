/**
 * systemd's read_line() (src/basic/fileio.c read_line_full) takes one line end
 * as a run of at most one "\n", one "\r" and one NUL, NUL last: "\n\r" and
 * "\r\n" are single line ends. A fix that deletes everything between a "\n"
 * and a "\r" (a flag alone on a line that ends in a lone "\r") would fuse two
 * line ends into one and drop the empty line between them; that empty line may
 * be what ends a continuation, so the deletion would join lines systemd kept
 * apart. Such deletions leave one blank instead, which parses as the empty line.
 *
 * Rules only see parsed words, never the bytes around them, so the check
 * happens here, where the text is at hand. Found by `npm run fuzz` (seed 686675954).
 */
import type { Finding, Fix, TextEdit } from '../model/finding.ts';
import { LineIndex, type Position } from '../model/range.ts';
import { lineEndAfter } from '../parse/systemd/unit.ts';

const isEol = (c: number) => c === 10 || c === 13 || c === 0;

/** How many line ends read_line() finds in a run of EOL characters. */
export function lineEndCount(run: string): number {
  let count = 0;
  for (let i = 0; i < run.length; i = lineEndAfter(run, i)) count++;
  return count;
}

/** True when deleting text[start, end) fuses the line ends on either side into fewer. */
export function deletionFusesLineEnds(text: string, start: number, end: number): boolean {
  let b = start;
  while (b > 0 && isEol(text.charCodeAt(b - 1))) b--;
  let a = end;
  while (a < text.length && isEol(text.charCodeAt(a))) a++;
  const before = text.slice(b, start);
  const after = text.slice(end, a);
  if (!before || !after) return false;
  return lineEndCount(before + after) < lineEndCount(before) + lineEndCount(after);
}

function offset(ix: LineIndex, p: Position): number {
  return (ix.starts[p.line] ?? ix.text.length) + p.character;
}

/** The findings, with deletions in systemd files that would fuse line ends turned into one blank. */
export function keepLineEnds(findings: Finding[], systemdText: (path: string) => string | undefined): Finding[] {
  const indexes = new Map<string, LineIndex | null>();
  const index = (path: string): LineIndex | null => {
    let ix = indexes.get(path);
    if (ix === undefined) {
      const text = systemdText(path);
      ix = text === undefined ? null : new LineIndex(text);
      indexes.set(path, ix);
    }
    return ix;
  };
  const fuses = (e: TextEdit): boolean => {
    if (e.newText !== '') return false;
    const ix = index(e.file);
    return !!ix && deletionFusesLineEnds(ix.text, offset(ix, e.range.start), offset(ix, e.range.end));
  };
  // Predicates made once, not per finding (a large file has thousands of findings with fixes).
  const fixFuses = (fix: Fix): boolean => fix.edits.some(fuses);
  return findings.map((f) => {
    if (!f.fixes?.some(fixFuses)) return f;
    const fixes = f.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((e) => (fuses(e) ? { ...e, newText: ' ' } : e)) }));
    return { ...f, fixes };
  });
}
