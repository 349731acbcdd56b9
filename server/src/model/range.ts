import { LazySpan } from './lazy-span.ts';

/** 0-based, like LSP; `character` counts UTF-16 code units of the line. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A place in a file of the workspace. */
export interface Span {
  file: string;
  range: Range;
}

export function pos(line: number, character: number): Position {
  return { line, character };
}

export function range(sl: number, sc: number, el: number, ec: number): Range {
  return { start: { line: sl, character: sc }, end: { line: el, character: ec } };
}

export function comparePos(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/** Whether two ranges share a character (an empty range shares none). */
export function rangesOverlap(a: Range, b: Range): boolean {
  return comparePos(a.start, b.end) < 0 && comparePos(b.start, a.end) < 0;
}

/** Whether span `a` lies within span `b` (same file, ends included). */
export function spanInside(a: Span, b: Span): boolean {
  return a.file === b.file && comparePos(b.range.start, a.range.start) <= 0 && comparePos(a.range.end, b.range.end) <= 0;
}

/**
 * Line starts of a text, for turning string offsets into positions.
 * Lines end at \n, \r\n or a lone \r, as in LSP (systemd's read_line() and YAML end lines at a lone \r too); the
 * \r of a \r\n belongs to the line's end.
 */
export class LineIndex {
  readonly starts: number[];
  /** The line of the last lookup: parsers ask in nearly increasing order (not a property: results stay comparable). */
  #last = 0;
  constructor(readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') === -1) {
      let i = text.indexOf('\n');
      while (i !== -1) {
        starts.push(i + 1);
        i = text.indexOf('\n', i + 1);
      }
    } else {
      // (found natively, as above: a CRLF file is common and may be large)
      let cr = text.indexOf('\r');
      let lf = text.indexOf('\n');
      while (cr !== -1 || lf !== -1) {
        if (cr !== -1 && (lf === -1 || cr < lf)) {
          if (cr + 1 !== lf) starts.push(cr + 1); // a lone \r
          cr = text.indexOf('\r', cr + 1);
        } else {
          starts.push(lf + 1);
          lf = text.indexOf('\n', lf + 1);
        }
      }
    }
    // Exact: grown a push at a time it keeps 17 slots for a few lines, and a long stream holds two of these per
    // document (issue #28).
    this.starts = starts.slice();
  }

  get lineCount(): number {
    return this.starts.length;
  }

  position(offset: number): Position {
    const starts = this.starts;
    // The line of the last lookup or the next one, else a binary search.
    let lo = this.#last;
    if (starts[lo] <= offset && (lo + 1 >= starts.length || starts[lo + 1] > offset)) {
      // same line
    } else if (starts[lo] <= offset && (lo + 2 >= starts.length || starts[lo + 2] > offset)) {
      lo++;
    } else {
      lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
    }
    this.#last = lo;
    let character = offset - starts[lo];
    // A "\r" that ends a line (before "\n" or at the end of the text) is part of the line end, as in LSP:
    // an offset just after it is the end of the line's text, never a column past it.
    if (character > 0 && this.text.charCodeAt(offset - 1) === 13 && (offset === this.text.length || this.text.charCodeAt(offset) === 10)) character--;
    return { line: lo, character };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** Text of a line without its terminator (\n, \r\n or \r). */
  lineText(line: number): string {
    const s = this.starts[line];
    let e = line + 1 < this.starts.length ? this.starts[line + 1] - 1 : this.text.length;
    if (e > s && this.text.charCodeAt(e) === 10 && this.text.charCodeAt(e - 1) === 13) e--;
    return this.text.slice(s, e);
  }
}

/**
 * Offset of an LSP position in `text`, or undefined when the text has no such position. Lines end at \n, \r\n or a
 * lone \r (as LineIndex); a character past its line's text is no position. One pass up to the position, without
 * building a LineIndex (a fix's edits are few, the text may be large).
 */
export function offsetOf(text: string, p: Position): number | undefined {
  let i = 0;
  let cr = text.indexOf('\r');
  let lf = text.indexOf('\n');
  /** Where the line starting at `i` ends (its text's end) and where the next line starts. */
  const lineEnd = (): [number, number] => {
    if (cr !== -1 && cr < i) cr = text.indexOf('\r', i);
    if (lf !== -1 && lf < i) lf = text.indexOf('\n', i);
    if (cr === -1 && lf === -1) return [text.length, -1];
    if (cr !== -1 && (lf === -1 || cr < lf)) return [cr, cr + 1 === lf ? lf + 1 : cr + 1];
    return [lf, lf + 1];
  };
  for (let line = 0; line < p.line; line++) {
    const next = lineEnd()[1];
    if (next === -1) return undefined;
    i = next;
  }
  const end = lineEnd()[0];
  return p.character >= 0 && p.character <= end - i ? i + p.character : undefined;
}

/**
 * A lone "\r" is a line break in YAML (go-yaml reads it as one; the `yaml` library reports errors): each one becomes
 * "\n", which keeps every offset, and every LSP position (LineIndex), as it was. "\r\n" stays. Not for systemd files:
 * read_line() takes "\n\r" as one line end.
 */
export function loneCrToLf(text: string): string {
  if (text.indexOf('\r') === -1) return text;
  let out = '';
  let from = 0;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) continue;
    out += text.slice(from, i) + '\n';
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Maps offsets of a string assembled from pieces of a file (a continued
 * systemd line, an env-file value) back to positions in that file.
 * Each segment says: logical offsets [offset, offset+length) are the file's
 * characters starting at (line, character) on one physical line.
 */
export interface Segment {
  offset: number;
  line: number;
  character: number;
  length: number;
  /** The segment's last character is the line break itself (a quoted env-file value spanning lines). */
  eol?: boolean;
  /**
   * The segment's last character is the "\r" of a "\r\n" (an escaped or quoted one in an env-file value): a range
   * ending on it ends before it, since no position lies between the "\r" and the "\n" (LSP).
   */
  crEnd?: boolean;
  /**
   * A one-character segment written as an escape sequence (`\"`, `\x41`): how many source characters it takes.
   * A range ending on it then ends after the whole sequence, so an edit deleting the word leaves no half of it.
   */
  width?: number;
}

export class TextMap {
  /** The segment segmentIndex() found last: positions are mostly asked for in order (the words of a long command line). */
  #last = 0;
  constructor(readonly file: string, readonly segments: Segment[]) {}

  /** Position of a logical offset; an offset at a segment's end stays on its line. */
  position(offset: number): Position {
    const segs = this.segments;
    if (segs.length === 0) return { line: 0, character: 0 };
    const s = segs[this.segmentIndex(offset)];
    const d = Math.max(0, Math.min(offset - s.offset, s.length));
    return { line: s.line, character: s.character + d };
  }

  /** Range of logical [start, end); the end is placed on the segment holding the last character. */
  range(start: number, end: number): Range {
    const a = this.position(start);
    if (end <= start) return { start: a, end: a };
    const segs = this.segments;
    if (segs.length === 0) return { start: a, end: { line: 0, character: 1 } };
    // position(end - 1), and the segment holding it
    const seg = segs[this.segmentIndex(end - 1)];
    const line = seg.line;
    const character = seg.character + Math.max(0, Math.min(end - 1 - seg.offset, seg.length));
    // A range that ends with a line break ends at the start of the next line, not past the end of this one.
    if (seg.eol && end - 1 === seg.offset + seg.length - 1) return { start: a, end: { line: line + 1, character: 0 } };
    if (seg.crEnd && end - 1 === seg.offset + seg.length - 1) return { start: a, end: { line, character } };
    // Text mapped to a point (its source characters are not known one by one) stays a point.
    if (seg.length === 0) return { start: a, end: { line, character } };
    if (seg.width !== undefined && end - 1 === seg.offset) return { start: a, end: { line, character: character + seg.width } };
    return { start: a, end: { line, character: character + 1 } };
  }

  /** Index of the last segment starting at or before `offset` (0 when none does). */
  segmentIndex(offset: number): number {
    const segs = this.segments;
    const n = segs.length;
    if (n <= 1) return 0;
    // The last answer, or the segment after it, when it is the answer: the same test the search ends on.
    const last = this.#last;
    if (last < n && segs[last].offset <= offset) {
      if (last + 1 === n || segs[last + 1].offset > offset) return last;
      if (last + 2 === n || segs[last + 2].offset > offset) return (this.#last = last + 1);
    }
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segs[mid].offset <= offset) lo = mid;
      else hi = mid - 1;
    }
    this.#last = lo;
    return lo;
  }

  span(start: number, end: number): Span {
    return new LazySpan(this.file, this, start, end);
  }

  /** A map for the logical substring [start, end). */
  slice(start: number, end: number): TextMap {
    const segs = this.segments;
    if (segs.length === 1) {
      // One segment (most maps): the general loop's result, in an array of its exact size (maps are kept per word).
      const s = segs[0];
      const a = Math.max(start, s.offset);
      const b = Math.min(end, s.offset + s.length);
      if (a < b || (a === b && s.length === 0 && a >= start && a <= end)) {
        const seg: Segment = { offset: a - start, line: s.line, character: s.character + (a - s.offset), length: b - a };
        if (s.eol && b === s.offset + s.length) seg.eol = true;
        if (s.crEnd && b === s.offset + s.length) seg.crEnd = true;
        if (s.width !== undefined && b - a === 1) seg.width = s.width;
        return new TextMap(this.file, [seg]);
      }
    }
    const out: Segment[] = [];
    for (const s of this.segments) {
      const a = Math.max(start, s.offset);
      const b = Math.min(end, s.offset + s.length);
      if (a < b || (a === b && s.length === 0 && a >= start && a <= end)) {
        const seg: Segment = { offset: a - start, line: s.line, character: s.character + (a - s.offset), length: b - a };
        if (s.eol && b === s.offset + s.length) seg.eol = true;
        if (s.crEnd && b === s.offset + s.length) seg.crEnd = true;
        if (s.width !== undefined && b - a === 1) seg.width = s.width;
        out.push(seg);
      }
    }
    if (out.length === 0) {
      const p = this.position(start);
      out.push({ offset: 0, line: p.line, character: p.character, length: 0 });
    }
    return new TextMap(this.file, out);
  }
}
