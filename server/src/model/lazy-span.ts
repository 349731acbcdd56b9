import type { LineIndex, Range, Span, TextMap } from './range.ts';

/**
 * A span whose range is computed when first read. Parsers make a span for every directive, word, name and
 * value, and most are never shown: of the 28,800 spans an 8,000-line env file's words get, none is read
 * unless a rule reports on it, and of a 10,000-line drop-in's 5,000 directive spans, one. Computing and
 * keeping their ranges was about a fifth of what such a file's analysis allocated (bench: unit-large,
 * scaling). It reads like any Span (JSON included); what it is computed from is never changed.
 *
 * `source` is what [start, end) are offsets of: a TextMap's text, a file's text through its LineIndex, or
 * (a number) the columns of that line.
 */
export class LazySpan implements Span {
  readonly file: string;
  #source: TextMap | LineIndex | number;
  #start: number;
  #end: number;
  #range: Range | undefined;
  constructor(file: string, source: TextMap | LineIndex | number, start: number, end: number) {
    this.file = file;
    this.#source = source;
    this.#start = start;
    this.#end = end;
  }
  get range(): Range {
    if (this.#range === undefined) {
      const s = this.#source;
      this.#range =
        typeof s === 'number'
          ? { start: { line: s, character: this.#start }, end: { line: s, character: this.#end } }
          : s.range(this.#start, this.#end);
    }
    return this.#range;
  }
  toJSON(): { file: string; range: Range } {
    return { file: this.file, range: this.range };
  }
}
