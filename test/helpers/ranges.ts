import assert from 'node:assert/strict';
import type { Finding } from '../../server/src/model/finding.ts';
import type { Range } from '../../server/src/model/range.ts';

/** Asserts a range lies inside the text (0-based lines, UTF-16 characters) and is not reversed. */
export function assertRangeInside(text: string, r: Range, what: string): void {
  const lines = linesOf(text);
  const ok = (line: number, ch: number) => line >= 0 && line < lines.length && ch >= 0 && ch <= lines[line].length;
  assert.ok(ok(r.start.line, r.start.character), `${what}: start ${r.start.line}:${r.start.character} outside the file`);
  assert.ok(ok(r.end.line, r.end.character), `${what}: end ${r.end.line}:${r.end.character} outside the file`);
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: reversed range`);
}

/** Line texts of the last few texts seen (a 5 MB file with thousands of findings must not be split once per finding). */
const cache = new Map<string, string[]>();
function linesOf(text: string): string[] {
  let lines = cache.get(text);
  if (!lines) {
    lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    if (cache.size > 16) cache.clear();
    cache.set(text, lines);
  }
  return lines;
}

export function assertFindingsInside(files: Map<string, string>, findings: readonly Finding[]): void {
  for (const f of findings) {
    const text = files.get(f.file);
    assert.ok(text !== undefined, `finding ${f.code} names an unknown file ${f.file}`);
    assertRangeInside(text, f.range, `${f.code} in ${f.file}`);
    for (const fix of f.fixes ?? []) for (const e of fix.edits) assertRangeInside(files.get(e.file)!, e.range, `fix of ${f.code}`);
    for (const r of f.related ?? []) assertRangeInside(files.get(r.span.file)!, r.span.range, `related of ${f.code}`);
  }
}
