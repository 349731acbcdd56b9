import type { TextEdit } from '../model/finding.ts';
import type { Span } from '../model/range.ts';

/**
 * An edit that replaces a key or scalar with another word, keeping the
 * quotes around it: a JSON key or string, or a quoted YAML scalar, has a span
 * two characters wider than its unquoted text. (Words with escapes never get
 * here: suggestions are plain identifiers.)
 */
export function replaceWord(span: Span, unquoted: string, newText: string): TextEdit {
  const r = span.range;
  const quoted = r.start.line === r.end.line && r.end.character - r.start.character === unquoted.length + 2;
  const range = quoted
    ? { start: { line: r.start.line, character: r.start.character + 1 }, end: { line: r.end.line, character: r.end.character - 1 } }
    : r;
  return { file: span.file, range, newText };
}
