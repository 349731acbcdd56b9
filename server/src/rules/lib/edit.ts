import type { Fix, TextEdit } from '../../model/finding.ts';
import type { Span } from '../../model/range.ts';

/**
 * An edit that replaces a key or scalar with another word, keeping it valid
 * where it stands: a plain span (as wide as its text) takes the bare word; a
 * JSON key or string or a quoted YAML scalar (two characters wider) keeps its
 * quotes; anything else (escapes inside quotes, a multi-line scalar) is
 * replaced whole by a double-quoted string, which JSON and YAML both read.
 */
export function replaceWord(span: Span, unquoted: string, newText: string): TextEdit | undefined {
  const r = span.range;
  const width = r.start.line === r.end.line ? r.end.character - r.start.character : -1;
  // A point for a non-empty word: where the text is only known approximately (escapes in a kubeletExtraArgs value).
  if (width === 0 && unquoted.length > 0) return undefined;
  if (width === unquoted.length) return { file: span.file, range: r, newText };
  if (width === unquoted.length + 2) {
    return { file: span.file, range: { start: { line: r.start.line, character: r.start.character + 1 }, end: { line: r.end.line, character: r.end.character - 1 } }, newText };
  }
  return { file: span.file, range: r, newText: JSON.stringify(newText) };
}

/** A single preferred fix of one edit, or none when the edit cannot be made safely. */
export function oneFix(title: string, edit: TextEdit | undefined, preferred = true): { fixes: Fix[] } | undefined {
  return edit ? { fixes: [{ title, edits: [edit], preferred }] } : undefined;
}
