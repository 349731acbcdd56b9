import type { TextEdit } from '../model/finding.ts';
import type { Span } from '../model/range.ts';

/**
 * An edit that replaces a key or scalar with another word, keeping it valid
 * where it stands: a plain span (as wide as its text) takes the bare word; a
 * JSON key or string or a quoted YAML scalar (two characters wider) keeps its
 * quotes; anything else (escapes inside quotes, a multi-line scalar) is
 * replaced whole by a double-quoted string, which JSON and YAML both read.
 */
export function replaceWord(span: Span, unquoted: string, newText: string): TextEdit {
  const r = span.range;
  const width = r.start.line === r.end.line ? r.end.character - r.start.character : -1;
  if (width === unquoted.length) return { file: span.file, range: r, newText };
  if (width === unquoted.length + 2) {
    return { file: span.file, range: { start: { line: r.start.line, character: r.start.character + 1 }, end: { line: r.end.line, character: r.end.character - 1 } }, newText };
  }
  return { file: span.file, range: r, newText: JSON.stringify(newText) };
}
