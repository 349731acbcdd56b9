/**
 * An open document of more than LARGE_DOCUMENT_BYTES, held as its lines (issue #28 point 5). The library's text
 * document keeps one string and writes each edit into it: in V8 that is a new string of the whole size per keystroke
 * (a 7.5 MiB file left 7.5 MiB of garbage per edit, and the server's peak RSS rose past 400 MB before a collection).
 * Here an edit replaces the lines it touches; the whole text is joined only when something reads it (the analysis,
 * when the document is opened or saved: lsp/host.ts). It answers as vscode-languageserver-textdocument does
 * (positions clamped to the line's text before its line break; `\r\n`, `\r` and `\n` end a line;
 * test/unit/large-document.test.ts compares the two on generated edits).
 */
import type { Position, Range, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

/** Splits a text after each line break (`\r\n`, `\r`, `\n`); the last element is the text after the last break. */
function splitLines(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    if (c === 13 && s.charCodeAt(i + 1) === 10) i++;
    out.push(s.slice(start, i + 1));
    start = i + 1;
  }
  out.push(s.slice(start));
  return out;
}

/** The length of a line's text, without its line break. */
function textLength(line: string): number {
  let n = line.length;
  if (n > 0 && line.charCodeAt(n - 1) === 10) n--;
  if (n > 0 && line.charCodeAt(n - 1) === 13) n--;
  return n;
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);

export class LargeDocument {
  /** Each line with its line break; the last one has none (it is '' after a final line break). */
  private lines: string[];
  private joined: string | undefined;
  /** UTF-16 length of the text. */
  length: number;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    public version: number,
    content: string,
  ) {
    this.lines = splitLines(content);
    this.joined = content;
    this.length = content.length;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  getText(range?: Range): string {
    this.joined ??= this.lines.join('');
    if (!range) return this.joined;
    return this.joined.substring(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  /** The line and character a position stands for, as the library clamps it. */
  private clamp(p: Position): { line: number; character: number } {
    if (p.line >= this.lines.length) {
      const last = this.lines.length - 1;
      return { line: last, character: this.lines[last].length };
    }
    if (p.line < 0) return { line: 0, character: 0 };
    return { line: p.line, character: Math.max(0, Math.min(p.character, textLength(this.lines[p.line]))) };
  }

  offsetAt(p: Position): number {
    const c = this.clamp(p);
    let o = 0;
    for (let i = 0; i < c.line; i++) o += this.lines[i].length;
    return o + c.character;
  }

  positionAt(offset: number): Position {
    let o = Math.max(0, Math.min(offset, this.length));
    for (let line = 0; line < this.lines.length; line++) {
      const l = this.lines[line];
      if (o < l.length || line === this.lines.length - 1) return { line, character: Math.min(o, textLength(l)) };
      o -= l.length;
    }
    return { line: 0, character: 0 };
  }

  /** The range of a line's text, without its line break (past the last line: the last line, break and all). */
  getLineRange(line: number): Range {
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    if (line >= this.lines.length) {
      const last = this.lines.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.lines[last].length } };
    }
    return { start: { line, character: 0 }, end: { line, character: textLength(this.lines[line]) } };
  }

  /** A line's line break ('' past the document). */
  getEOLCharacters(line: number): string {
    if (line < 0 || line >= this.lines.length) return '';
    const l = this.lines[line];
    return l.slice(textLength(l));
  }

  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if (!('range' in change) || !change.range) {
        this.lines = splitLines(change.text);
        this.joined = change.text;
        this.length = change.text.length;
        continue;
      }
      let s = change.range.start;
      let e = change.range.end;
      if (before(e, s)) [s, e] = [e, s];
      const a = this.clamp(s);
      const b = this.clamp(e);
      let from = a.line;
      let to = b.line;
      let text = this.lines[from].slice(0, a.character) + change.text + this.lines[to].slice(b.character);
      // A lone \r before the edit and a \n at its start are one line break now (and the other way round at its end).
      if (from > 0 && text.charCodeAt(0) === 10 && this.lines[from - 1].endsWith('\r')) text = this.lines[--from] + text;
      if (to + 1 < this.lines.length && text.endsWith('\r') && this.lines[to + 1].charCodeAt(0) === 10) text += this.lines[++to];
      const made = splitLines(text);
      // What follows the last line break made is the next line, which stays.
      if (to + 1 < this.lines.length) made.pop();
      const removed = this.lines.slice(from, to + 1).reduce((n, l) => n + l.length, 0);
      this.length += text.length - removed;
      this.lines = made.length < 10000 ? (this.lines.splice(from, to - from + 1, ...made), this.lines) : this.lines.slice(0, from).concat(made, this.lines.slice(to + 1));
      this.joined = undefined;
    }
    this.version = version;
  }
}
