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
    lines = text.split(/\r\n|\r|\n/); // LSP line ends
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

/**
 * A copy of `v` in which every span object of another class (the engine's spans computed on first read)
 * is a plain `{ file, range }`, for deepEqual against results built from object literals.
 */
export function plainSpans<T>(v: T, seen = new Map<object, unknown>()): T {
  if (typeof v !== 'object' || v === null) return v;
  if (seen.has(v)) return seen.get(v) as T;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null && 'file' in v && 'range' in v) {
    const s = v as unknown as { file: string; range: unknown };
    return { file: s.file, range: s.range } as T;
  }
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return v; // Maps, Sets, other classes: as they are
  const out: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {};
  seen.set(v, out);
  for (const [k, x] of Object.entries(v)) (out as Record<string, unknown>)[k] = plainSpans(x, seen);
  return out as T;
}
