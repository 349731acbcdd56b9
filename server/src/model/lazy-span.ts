import type { LineIndex, Position, Range, Span, TextMap } from './range.ts';

/**
 * Spans whose range is computed when first read. Parsers make a span for every directive, word, name and
 * value, and most are never shown: of the 28,800 spans an 8,000-line env file's words get, none is read
 * unless a rule reports on it, and of a 10,000-line drop-in's 5,000 directive spans, one. Computing and
 * keeping their ranges was about a fifth of what such a file's analysis allocated (bench: unit-large,
 * scaling). They read like any Span (JSON included); what they are computed from is never changed.
 */
abstract class LazySpan implements Span {
  #range: Range | undefined;
  constructor(readonly file: string) {}
  protected abstract compute(): Range;
  get range(): Range {
    return (this.#range ??= this.compute());
  }
  toJSON(): { file: string; range: Range } {
    return { file: this.file, range: this.range };
  }
}

/** [start, end) of a TextMap's text. */
export class MapSpan extends LazySpan {
  #map: TextMap;
  #start: number;
  #end: number;
  constructor(map: TextMap, start: number, end: number) {
    super(map.file);
    this.#map = map;
    this.#start = start;
    this.#end = end;
  }
  protected compute(): Range {
    return this.#map.range(this.#start, this.#end);
  }
}

/** Offsets [start, end) of a file's text, through its LineIndex. */
export class IndexSpan extends LazySpan {
  #index: LineIndex;
  #start: number;
  #end: number;
  constructor(file: string, index: LineIndex, start: number, end: number) {
    super(file);
    this.#index = index;
    this.#start = start;
    this.#end = end;
  }
  protected compute(): Range {
    return this.#index.range(this.#start, this.#end);
  }
}

/** Offsets [start, end) of a text with the given line starts (no line-end adjustment: the YAML reader's positions). */
export class StartsSpan extends LazySpan {
  #starts: readonly number[];
  #start: number;
  #end: number;
  constructor(file: string, starts: readonly number[], start: number, end: number) {
    super(file);
    this.#starts = starts;
    this.#start = start;
    this.#end = end;
  }
  protected compute(): Range {
    return { start: positionIn(this.#starts, this.#start), end: positionIn(this.#starts, this.#end) };
  }
}

function positionIn(starts: readonly number[], offset: number): Position {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - starts[lo] };
}

/** Columns [start, end) of one line. */
export class LineSpan extends LazySpan {
  #line: number;
  #start: number;
  #end: number;
  constructor(file: string, line: number, start: number, end: number) {
    super(file);
    this.#line = line;
    this.#start = start;
    this.#end = end;
  }
  protected compute(): Range {
    return { start: { line: this.#line, character: this.#start }, end: { line: this.#line, character: this.#end } };
  }
}
