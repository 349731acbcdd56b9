/**
 * A port of systemd's extract_first_word() (src/basic/extract-word.c) for the
 * flag combinations systemd uses on unit settings:
 *   - ExecStart= & co. (src/core/load-fragment.c config_parse_exec):
 *       extract_first_word_and_warn(..., EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE)
 *   - Environment= (config_parse_environ):
 *       extract_first_word(..., EXTRACT_CUNESCAPE|EXTRACT_UNQUOTE)
 *   - splitting a `$VAR` value in a command line (src/basic/env-util.c replace_env_argv):
 *       strv_split_full(..., WHITESPACE, EXTRACT_RELAX|EXTRACT_UNQUOTE)
 *
 * Every output character remembers the raw offset it came from, so each word
 * gets a TextMap into the file. Literal runs are copied with slice(), never
 * one character at a time.
 */
import type { Finding, Severity } from '../../model/finding.ts';
import { finding } from '../../model/finding.ts';
import type { Segment, Span } from '../../model/range.ts';
import type { Word } from '../types.ts';
import { TextMap } from '../../model/range.ts';

// Values as in src/basic/extract-word.h (only the ones ported here).
export const EXTRACT_RELAX = 1 << 0;
export const EXTRACT_UNQUOTE = 1 << 1;
export const EXTRACT_CUNESCAPE = 1 << 2;
/** Called EXTRACT_UNESCAPE_RELAX in newer systemd: keep invalid escapes verbatim. */
export const EXTRACT_CUNESCAPE_RELAX = 1 << 3;

/** systemd's WHITESPACE: " \t\n\r". */
export function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A run of output characters copied from consecutive raw offsets. */
export interface Run {
  out: number;
  raw: number;
  len: number;
  /** One output character read from this many raw characters (an escape sequence); see Segment.width. */
  width?: number;
}

export type ExtractResult =
  | { kind: 'none' }
  | {
      kind: 'word';
      text: string;
      /** Raw offset of the word's first character (after leading separators). */
      start: number;
      /** Raw offset just after the word's last character (before separators). */
      end: number;
      /** Where the next call starts (after coalesced separators); null when the input is used up. */
      next: number | null;
      /**
       * Output offsets -> raw offsets. null for the usual word copied verbatim from one place: then the whole text
       * comes from raw offset `run0` on (no array or run object per word).
       */
      runs: Run[] | null;
      run0: number;
      /** Some `\x` sequence was invalid and kept verbatim (only with EXTRACT_CUNESCAPE_RELAX). */
      invalidEscape: boolean;
    }
  | {
      kind: 'error';
      /** 'quote': unbalanced quoting; 'escape': invalid escape sequence or trailing backslash. */
      reason: 'quote' | 'escape';
      start: number;
      /** Raw offset where parsing failed. */
      at: number;
    };

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** unichar_is_valid() from src/basic/utf8.c. */
function unicharIsValid(ch: number): boolean {
  if (ch >= 0x110000) return false;
  if ((ch & 0xfffff800) === 0xd800) return false;
  if (ch >= 0xfdd0 && ch <= 0xfdef) return false;
  if ((ch & 0xfffe) === 0xfffe) return false;
  return true;
}

/**
 * cunescape_one() from src/basic/escape.c, called with the string after the
 * backslash. Returns the decoded character(s) and the number of raw chars
 * consumed, or undefined when the sequence is invalid (-EINVAL).
 */
export function cunescapeOne(raw: string, p: number): { ch: string; len: number } | undefined {
  const c = raw.charCodeAt(p);
  switch (c) {
    case 97: return { ch: '\x07', len: 1 }; // a
    case 98: return { ch: '\b', len: 1 };
    case 102: return { ch: '\f', len: 1 };
    case 110: return { ch: '\n', len: 1 };
    case 114: return { ch: '\r', len: 1 };
    case 116: return { ch: '\t', len: 1 };
    case 118: return { ch: '\v', len: 1 };
    case 92: return { ch: '\\', len: 1 };
    case 34: return { ch: '"', len: 1 };
    case 39: return { ch: "'", len: 1 };
    case 115: return { ch: ' ', len: 1 }; // \s, "an extension of the XDG syntax files"
    case 120: { // \xHH, NUL refused; an 8-bit byte (we use the code point of the same value)
      const a = hexVal(raw.charCodeAt(p + 1));
      const b = hexVal(raw.charCodeAt(p + 2));
      if (a < 0 || b < 0 || (a === 0 && b === 0)) return undefined;
      return { ch: String.fromCharCode((a << 4) | b), len: 3 };
    }
    case 117: { // \uHHHH
      let v = 0;
      for (let i = 1; i <= 4; i++) {
        const h = hexVal(raw.charCodeAt(p + i));
        if (h < 0) return undefined;
        v = (v << 4) | h;
      }
      if (v === 0) return undefined;
      return { ch: String.fromCharCode(v), len: 5 };
    }
    case 85: { // \UHHHHHHHH
      let v = 0;
      for (let i = 1; i <= 8; i++) {
        const h = hexVal(raw.charCodeAt(p + i));
        if (h < 0) return undefined;
        v = v * 16 + h;
      }
      if (v === 0 || !unicharIsValid(v)) return undefined;
      return { ch: String.fromCodePoint(v), len: 9 };
    }
    default:
      if (c >= 48 && c <= 55) { // \ooo, exactly three octal digits, 1..255
        const b = raw.charCodeAt(p + 1) - 48;
        const d = raw.charCodeAt(p + 2) - 48;
        if (!(b >= 0 && b <= 7 && d >= 0 && d <= 7)) return undefined;
        const m = ((c - 48) << 6) | (b << 3) | d;
        if (m === 0 || m > 255) return undefined;
        return { ch: String.fromCharCode(m), len: 3 };
      }
      return undefined;
  }
}

/**
 * The runs of the word extractFirstWord() is reading: scratch objects reused from word to word, owned by the
 * caller that reads the words of one value (so the function stays reentrant). A word copied from one place
 * (nearly all) returns no runs at all, only where it starts; other words get copies. Objects and arrays per word
 * were most of what splitting a large unit allocated (bench: unit-large, scaling).
 */
export interface RunScratch {
  runs: Run[];
  count: number;
}

export const runScratch = (): RunScratch => ({ runs: [], count: 0 });

function setRun(s: RunScratch, out: number, raw: number, len: number, width?: number): void {
  const r = s.runs[s.count];
  if (r === undefined) s.runs[s.count] = { out, raw, len, width };
  else {
    r.out = out;
    r.raw = raw;
    r.len = len;
    r.width = width;
  }
  s.count++;
}

/** The runs of a word of `textLength` characters just read: null when one run from runs[0].raw covers it. */
function takeRuns(s: RunScratch, textLength: number): Run[] | null {
  const { runs, count } = s;
  if (count === 1 && runs[0].out === 0 && runs[0].len === textLength) return null;
  const out: Run[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const r = runs[i];
    out[i] = r.width === undefined ? { out: r.out, raw: r.raw, len: r.len } : { out: r.out, raw: r.raw, len: r.len, width: r.width };
  }
  return out;
}
const run0 = (s: RunScratch): number => (s.count ? s.runs[0].raw : 0);

/**
 * Appends output characters copied from raw offset `rawAt` (contiguous: one char per raw char) to the runs. Not
 * contiguous: `len` characters decoded from the escape sequence of `width` raw characters at `rawAt`; the last one
 * carries the width, so that a range ending there covers the whole sequence.
 */
function addRun(s: RunScratch, outLen: number, rawAt: number, len: number, contiguous: boolean, width = 1): void {
  const last = s.count && contiguous ? s.runs[s.count - 1] : undefined;
  if (contiguous && last && last.width === undefined && last.out + last.len === outLen && last.raw + last.len === rawAt) last.len += len;
  else if (contiguous) setRun(s, outLen, rawAt, len);
  else for (let i = 0; i < len; i++) setRun(s, outLen + i, rawAt, 1, i === len - 1 && width > 1 ? width : undefined);
}

/*
 * What ends a run of literal characters: inside '...', the quote or a backslash; inside "...", the same; outside
 * quotes, WHITESPACE (" \t\n\r"), a backslash, and the quotes when EXTRACT_UNQUOTE. Found with a regular
 * expression's test() from lastIndex (native scanning, no match object) rather than a loop over charCodeAt():
 * words are most of a large unit or env file (bench: unit-large).
 */
interface Scan {
  /** The characters as a global class, for test() from lastIndex. */
  re: RegExp;
  /** The scan's bit in ENDS. */
  bit: number;
}
/** For each ASCII code, the bits of the scans it ends (a first character that ends the run needs no scan). */
const ENDS = new Uint8Array(128);
let nextBit = 1;
function scanFor(chars: string): Scan {
  const bit = nextBit;
  nextBit <<= 1;
  for (let i = 0; i < chars.length; i++) ENDS[chars.charCodeAt(i)] |= bit;
  return { re: new RegExp(`[${chars.replace(/[\\\]^-]/g, '\\$&')}]`, 'g'), bit };
}
const IN_SINGLE = scanFor("'\\");
const IN_DOUBLE = scanFor('"\\');
const UNQUOTED = scanFor(' \t\n\r\'"\\');
const UNQUOTED_KEEP_QUOTES = scanFor(' \t\n\r\\');

/** Offset of the first character at or after `from` that ends a run of `scan`; raw.length when none. */
function nextSpecial(scan: Scan, raw: string, from: number): number {
  // An empty run needs no scan: the end of the value, or a quote or blank right away (a quoted Environment= word
  // has two of these for one real run).
  if (from >= raw.length) return raw.length;
  const c = raw.charCodeAt(from);
  if (c < 128 && (ENDS[c] & scan.bit) !== 0) return from;
  const re = scan.re;
  re.lastIndex = from;
  return re.test(raw) ? re.lastIndex - 1 : raw.length;
}

/**
 * extract_first_word(&p, &ret, WHITESPACE, flags), starting at raw offset p.
 * Pass p = null after a previous call returned next = null.
 * (No closures or part arrays: this runs once per word of every command line and environment assignment.)
 * `scratch`: the runs, reused by a caller that reads many words (see RunScratch).
 */
export function extractFirstWord(raw: string, p: number | null, flags: number, scratch: RunScratch = runScratch()): ExtractResult {
  if (p === null) return { kind: 'none' };
  const n = raw.length;
  while (p < n && isWhitespace(raw.charCodeAt(p))) p++;
  if (p >= n) return { kind: 'none' };

  const start = p;
  let text = '';
  scratch.count = 0;
  let invalidEscape = false;
  const unquote = (flags & EXTRACT_UNQUOTE) !== 0;
  let quote = 0; // 0, 39 ('), 34 (")
  let backslash = false;

  for (;;) {
    if (backslash) {
      // p is at the character after the backslash
      if (p >= n) {
        if ((flags & EXTRACT_CUNESCAPE_RELAX) && (!quote || (flags & EXTRACT_RELAX))) {
          // an unquoted trailing backslash is kept verbatim in EXTRACT_CUNESCAPE_RELAX mode
          addRun(scratch, text.length, p - 1, 1, true);
          text += '\\';
          return { kind: 'word', text, start, end: n, next: null, runs: takeRuns(scratch, text.length), run0: run0(scratch), invalidEscape };
        }
        if (flags & EXTRACT_RELAX) return { kind: 'word', text, start, end: n, next: null, runs: takeRuns(scratch, text.length), run0: run0(scratch), invalidEscape };
        return { kind: 'error', reason: quote ? 'quote' : 'escape', start, at: p - 1 };
      }
      if (flags & EXTRACT_CUNESCAPE) {
        const u = cunescapeOne(raw, p);
        if (!u) {
          if (flags & EXTRACT_CUNESCAPE_RELAX) {
            invalidEscape = true;
            addRun(scratch, text.length, p - 1, 2, true);
            text += raw.slice(p - 1, p + 1);
          } else return { kind: 'error', reason: 'escape', start, at: p - 1 };
          p += 1;
        } else {
          addRun(scratch, text.length, p - 1, u.ch.length, false, u.len + 1);
          text += u.ch;
          p += u.len;
        }
      } else {
        addRun(scratch, text.length, p, 1, true);
        text += raw[p];
        p += 1;
      }
      backslash = false;
    } else if (quote) {
      const runStart = p;
      p = nextSpecial(quote === 39 ? IN_SINGLE : IN_DOUBLE, raw, p);
      if (p > runStart) {
        addRun(scratch, text.length, runStart, p - runStart, true);
        text += raw.slice(runStart, p);
      }
      if (p >= n) {
        if (flags & EXTRACT_RELAX) return { kind: 'word', text, start, end: n, next: null, runs: takeRuns(scratch, text.length), run0: run0(scratch), invalidEscape };
        return { kind: 'error', reason: 'quote', start, at: p };
      }
      if (raw.charCodeAt(p) === quote) quote = 0;
      else backslash = true;
      p++;
    } else {
      const runStart = p;
      p = nextSpecial(unquote ? UNQUOTED : UNQUOTED_KEEP_QUOTES, raw, p);
      if (p > runStart) {
        addRun(scratch, text.length, runStart, p - runStart, true);
        text += raw.slice(runStart, p);
      }
      if (p >= n) return { kind: 'word', text, start, end: n, next: null, runs: takeRuns(scratch, text.length), run0: run0(scratch), invalidEscape };
      const c = raw.charCodeAt(p);
      if (c === 92) backslash = true;
      else if (c === 39 || c === 34) quote = c;
      else {
        const end = p;
        while (p < n && isWhitespace(raw.charCodeAt(p))) p++;
        return { kind: 'word', text, start, end, next: p >= n ? null : p, runs: takeRuns(scratch, text.length), run0: run0(scratch), invalidEscape };
      }
      p++;
    }
  }
}

/**
 * Turn runs (output offset -> raw offset) into a TextMap into the file, through
 * the map of the raw string. Segments are split where the raw map changes line.
 */
export function composeMap(rawMap: TextMap, runs: readonly Run[]): TextMap {
  const segs = rawMap.segments;
  if (runs.length === 1 && segs.length > 0) {
    // One run inside one source segment (most words): that segment's piece, without the general loop's growing array.
    const r = runs[0];
    const s = segs[rawMap.segmentIndex(r.raw)];
    const d = r.raw - s.offset;
    if (r.len > 0 && d >= 0 && d + r.len <= s.length && s.width === undefined && r.width === undefined) {
      const eol = s.eol === true && d + r.len === s.length;
      const seg: Segment = eol
        ? { offset: r.out, line: s.line, character: s.character + d, length: r.len, eol }
        : { offset: r.out, line: s.line, character: s.character + d, length: r.len };
      if (s.crEnd === true && d + r.len === s.length) seg.crEnd = true;
      return new TextMap(rawMap.file, [seg]);
    }
  }
  const out: Segment[] = [];
  for (const r of runs) {
    if (segs.length === 0) break;
    if (r.width !== undefined && r.len === 1) {
      // An escape sequence: one output character over r.width raw characters, as wide in the file as they are.
      const at = rawMap.position(r.raw);
      const end = rawMap.range(r.raw, r.raw + r.width).end;
      const seg: Segment = { offset: r.out, line: at.line, character: at.character, length: 1 };
      if (end.line === at.line && end.character - at.character > 1) seg.width = end.character - at.character;
      out.push(seg);
      continue;
    }
    let o = r.out;
    let a = r.raw;
    let left = r.len;
    let si = rawMap.segmentIndex(a);
    while (left > 0) {
      const s = segs[si];
      const d = Math.max(0, a - s.offset);
      let take: number;
      if (d < s.length) take = Math.min(left, s.length - d);
      else if (si + 1 < segs.length) {
        si++;
        continue;
      } else take = left; // past the end of the raw map: clamp to its end
      const character = s.character + Math.min(d, s.length);
      // The source segment's line break, when this piece ends on it, stays marked as one (see TextMap.range).
      const eol = s.eol === true && d + take === s.length;
      // (and so does the "\r" of a "\r\n")
      const crEnd = s.crEnd === true && d + take === s.length;
      const prev = out.length ? out[out.length - 1] : undefined;
      if (s.width !== undefined && take === 1) {
        // One escaped character of the raw map keeps its width.
        out.push(eol ? { offset: o, line: s.line, character, length: 1, eol, width: s.width } : { offset: o, line: s.line, character, length: 1, width: s.width });
      } else if (prev && !prev.eol && !prev.crEnd && prev.width === undefined && prev.offset + prev.length === o && prev.line === s.line && prev.character + prev.length === character) {
        prev.length += take;
        if (eol) prev.eol = true;
        if (crEnd) prev.crEnd = true;
      } else {
        out.push(eol ? { offset: o, line: s.line, character, length: take, eol } : { offset: o, line: s.line, character, length: take });
        if (crEnd) out[out.length - 1].crEnd = true;
      }
      o += take;
      a += take;
      left -= take;
    }
  }
  if (out.length === 0) {
    const p = rawMap.position(runs.length ? runs[0].raw : 0);
    out.push({ offset: 0, line: p.line, character: p.character, length: 0 });
  }
  return new TextMap(rawMap.file, out);
}

export interface ExtractedWord {
  /** The word after quote removal and unescaping. */
  text: string;
  /** Raw offsets of the word as written (quotes included). */
  start: number;
  end: number;
  /** Where the raw word is written. */
  span: Span;
  /** Maps offsets of `text` to file positions. */
  map: TextMap;
}

/**
 * A word read by extractFirstWord(): its text now; where it is written and the map of its characters into the
 * file when first asked for. A large unit or env file has tens of thousands of words and the rules look at the
 * positions of a few (bench: unit-large).
 */
export class LazyWord implements ExtractedWord {
  /** Set when the word came from expanding a variable (see Word.via). */
  via: Word['via'] = undefined;
  private spanCache: Span | undefined = undefined;
  private mapCache: TextMap | undefined = undefined;
  constructor(
    readonly text: string,
    readonly start: number,
    readonly end: number,
    /** The map of the raw string the word was read from, or what holds it (an assignment's value map, read only if needed). */
    private readonly source: TextMap | { readonly valueMap: TextMap },
    private readonly runs: readonly Run[] | null,
    private readonly run0: number,
  ) {}
  private get rawMap(): TextMap {
    return this.source instanceof TextMap ? this.source : this.source.valueMap;
  }
  get span(): Span {
    return (this.spanCache ??= this.rawMap.span(this.start, this.end));
  }
  get map(): TextMap {
    return (this.mapCache ??= composeMap(this.rawMap, this.runs ?? [{ out: 0, raw: this.run0, len: this.text.length }]));
  }
  toJSON(): object {
    return { text: this.text, span: this.span, ...(this.via ? { via: this.via } : {}) };
  }
}

export function toWord(res: Extract<ExtractResult, { kind: 'word' }>, map: TextMap | { readonly valueMap: TextMap }): LazyWord {
  return new LazyWord(res.text, res.start, res.end, map, res.runs, res.run0);
}

/**
 * extract_first_word_and_warn() from src/basic/extract-word.c: on -EINVAL
 * retry with EXTRACT_CUNESCAPE_RELAX; success then means an invalid escape
 * ("Ignoring unknown escape sequences", a warning), failure means unbalanced
 * quoting ("Unbalanced quoting, ignoring", an error).
 */
export function extractFirstWordAndWarn(
  raw: string,
  p: number | null,
  flags: number,
): { res: ExtractResult; warning?: 'invalid-escape' } {
  const scratch = runScratch();
  const res = extractFirstWord(raw, p, flags, scratch);
  if (res.kind !== 'error' || (flags & EXTRACT_CUNESCAPE_RELAX)) return { res };
  const again = extractFirstWord(raw, p, flags | EXTRACT_CUNESCAPE_RELAX, scratch);
  if (again.kind === 'word') return { res: again, warning: 'invalid-escape' };
  return { res: again.kind === 'error' ? { ...again, reason: 'quote' } : again };
}

/**
 * Split a whole string into words the way systemd's loops over
 * extract_first_word() do. On an error the words before it are kept and the
 * rest is dropped (config_parse_environ: "Invalid syntax, ignoring"), and a
 * problem is reported on the raw text from the failing word to the end.
 */
export function extractWords(
  raw: string,
  map: TextMap,
  flags: number,
  opts: { code?: string; severity?: Severity; what?: string } = {},
): { words: ExtractedWord[]; problems: Finding[] } {
  const words: ExtractedWord[] = [];
  const problems: Finding[] = [];
  let p: number | null = 0;
  const scratch = runScratch();
  for (;;) {
    const res = extractFirstWord(raw, p, flags, scratch);
    if (res.kind === 'none') break;
    if (res.kind === 'error') {
      const why = res.reason === 'quote' ? 'unbalanced quoting' : 'invalid escape sequence';
      problems.push(
        finding(
          opts.code ?? 'systemd-syntax',
          opts.severity ?? 'warning',
          map.span(res.start, raw.length),
          `${opts.what ?? 'Value'} has ${why}; systemd ignores the rest of the line from here: ${raw.slice(res.start)}`,
        ),
      );
      break;
    }
    words.push(toWord(res, map));
    p = res.next;
  }
  return { words, problems };
}

// ---------- specifiers (src/shared/specifier.c specifier_printf) ----------

/** Specifiers a unit understands (systemd.unit(5), src/core/unit-printf.c). */
const UNIT_SPECIFIERS = new Set('aAbBCdDEfgGhHiIjJlLmMnNopPqsStTuUvVwWyY');

export interface SpecifierResult {
  text: string;
  map: TextMap;
  /** Unknown specifiers (letters/digits after %): specifier_printf fails with -EBADSLT. */
  unknown: { spec: string; span: Span }[];
  /** Known specifiers, kept as written (their value depends on the machine). */
  known: { spec: string; span: Span }[];
}

/**
 * specifier_printf(): `%%` -> `%`; `%` + a known specifier stays as written
 * (we cannot know its value); `%` + an unknown letter or digit is an error
 * (POSSIBLE_SPECIFIERS); `%` + anything else and a trailing `%` are kept.
 */
/** Shared by every text without `%` (most of them): no allocation per word. */
const NO_SPECIFIERS: SpecifierResult['unknown'] = Object.freeze([]) as unknown as SpecifierResult['unknown'];

export function resolveSpecifiers(text: string, map: TextMap): SpecifierResult {
  if (text.indexOf('%') === -1) return { text, map, unknown: NO_SPECIFIERS, known: NO_SPECIFIERS };
  const parts: string[] = [];
  const runs: Run[] = [];
  const unknown: SpecifierResult['unknown'] = [];
  const known: SpecifierResult['known'] = [];
  let out = 0;
  let i = 0;
  let lit = 0;
  const flush = (upto: number): void => {
    if (upto > lit) {
      parts.push(text.slice(lit, upto));
      runs.push({ out, raw: lit, len: upto - lit });
      out += upto - lit;
    }
  };
  while (i < text.length) {
    const k = text.indexOf('%', i);
    if (k === -1 || k + 1 >= text.length) break;
    const c = text[k + 1];
    if (c === '%') {
      flush(k + 1); // keep the first %, drop the second
      lit = k + 2;
    } else if (UNIT_SPECIFIERS.has(c)) {
      known.push({ spec: '%' + c, span: map.span(k, k + 2) });
    } else if (/[0-9A-Za-z]/.test(c)) {
      unknown.push({ spec: '%' + c, span: map.span(k, k + 2) });
    }
    i = k + 2;
  }
  flush(text.length);
  // runs' raw offsets are offsets into `text`, whose map is `map`
  return { text: parts.join(''), map: composeMap(map, runs), unknown, known };
}
