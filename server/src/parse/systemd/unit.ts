/**
 * Unit files and drop-ins, read the way systemd's config_parse() and
 * parse_line() do (src/shared/conf-parser.c), with physical lines split the
 * way read_line() does (src/basic/fileio.c read_line_full).
 *
 * Facts ported (checked against systemd's source):
 *  - read_line() ends a line at \n, \r, \r\n, \n\r or NUL (the EOL is not part
 *    of the line), and fails with -ENOBUFS when a line reaches LONG_LINE_MAX
 *    (1 MiB) bytes; config_parse() then gives up on the whole file.
 *  - The comment check comes first on every physical line: first non-blank `#`
 *    or `;` -> the line is skipped, even in the middle of a continuation, and
 *    it neither continues nor ends one.
 *  - Then a UTF-8 BOM is dropped (the first time a line starts with one; note
 *    the comment check runs before, so a BOM followed by `#` is not a comment).
 *  - A line continues when its number of trailing backslashes is odd; that
 *    last `\` becomes a space. `\` followed by blanks does not continue (such
 *    lines are listed in trailingBlankContinuations, for a diagnostic).
 *  - While continuing, each next line is appended as is (leading blanks too);
 *    a joined length over LONG_LINE_MAX is -ENOBUFS ("Continuation line too long").
 *  - parse_line(): strstrip; empty -> ignored; `[` ... `]` section header
 *    (no `]` or unsafe characters: LOG_ERR and the file is refused); outside a
 *    section -> "Assignment outside of section. Ignoring."; no `=` -> "Missing
 *    '=', ignoring line."; `=` first -> "Missing key name before '=', ignoring
 *    line." (a warning in the source, not an error); key and value strstripped.
 *  - Errors carry the line counter of the last physical line read. For a
 *    continuation still pending at EOF, systemd passes ++line (one past the last
 *    line); we place those on the last physical line, which is the best place
 *    an editor can show.
 *
 * After a problem that makes systemd refuse the file we keep parsing, so the
 * editor can still check the rest; the problem says the file is refused.
 */
import type { Finding } from '../../model/finding.ts';
import { finding } from '../../model/finding.ts';
import type { Segment, Span } from '../../model/range.ts';
import { LineIndex, TextMap } from '../../model/range.ts';
import { LazySpan } from '../../model/lazy-span.ts';
import type { UnitDirective, UnitFile, UnitSection } from '../types.ts';

/**
 * Where the line end that starts at `i` stops, as read_line() takes it: each
 * marker kind at most once (\n, \r, NUL), and NUL ends it. `i` itself when no
 * line end starts there.
 */
export function lineEndAfter(text: string, i: number): number {
  let next = i;
  let seen = 0;
  while (next < text.length) {
    const c = text.charCodeAt(next);
    const kind = c === 10 ? 1 : c === 13 ? 2 : c === 0 ? 4 : 0;
    if (kind === 0 || seen & kind || seen & 4) break;
    seen |= kind;
    next++;
  }
  return next;
}

/** LONG_LINE_MAX, src/basic/fileio.h. */
export const LONG_LINE_MAX = 1024 * 1024;

/** UTF-8 length of text[s, e), stopping early once it reaches `cap`. */
function utf8Length(text: string, s: number, e: number, cap: number): number {
  let n = 0;
  for (let i = s; i < e && n < cap; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < e) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** UTF-8 length of text[s, e) when it may reach LONG_LINE_MAX, else -1 ("certainly shorter", not measured). */
function byteLength(text: string, s: number, e: number): number {
  // A string of k UTF-16 units has at most 3k UTF-8 bytes.
  if ((e - s) * 3 < LONG_LINE_MAX) return -1;
  return utf8Length(text, s, e, LONG_LINE_MAX + 1);
}

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** string_is_safe() from src/basic/string-util.c. */
function stringIsSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c > 0 && c < 32) || c === 127 || c === 34 || c === 39 || c === 92) return false;
  }
  return true;
}

interface Piece {
  start: number; // file offsets of one physical line's content (EOL excluded)
  end: number;
  /** Ends in an unpaired `\` that systemd turned into a space. */
  cont: boolean;
  /** LSP position of `start`. */
  line: number;
  col: number;
}

/** A comment that is an `Environment=` line switched off, and the names its value assigns. */
const COMMENTED_ENVIRONMENT = /^[#;][#;\s]*Environment\s*=(.*)$/;
const ASSIGNED_NAME = /(?:^|[\s"'])([A-Za-z_][A-Za-z0-9_]*)=/g;

export function parseUnit(path: string, text: string): UnitFile {
  // Only problems need offsets turned into positions (directives track their lines as they are read).
  let idx: LineIndex | undefined;
  const sections: UnitSection[] = [];
  const directives: UnitDirective[] = [];
  const problems: Finding[] = [];
  const trailing: NonNullable<UnitFile['trailingBlankContinuations']> = [];
  let commented: UnitFile['commentedEnvironment'];
  const n = text.length;

  let section: string | undefined;
  let bomSeen = false;
  // config_parse() ends at the first line it cannot read (a bad section header, a line over LONG_LINE_MAX): the unit
  // file is then refused ("error"), and of a drop-in, read with its errors ignored (unit_load_dropin()), what came
  // before stays and the rest is dropped. Checked with Debian's systemd 252 (test/oracle/systemd.test.ts).
  let stopped = false;
  const dropIn = /\.d\/[^/]*\.conf$/.test(path);
  const refusal = dropIn ? 'systemd ignores the rest of this drop-in' : 'systemd refuses to load this file';
  let pending: Piece[] | null = null; // a continuation in progress
  // UTF-8 bytes of the continuation so far: exact once pendingExact, before that an upper bound (3 per UTF-16
  // unit), so that the usual short continued line is never counted byte by byte.
  let pendingBytes = 0;
  let pendingExact = false;

  const lineSpan = (s: number, e: number) => ({ file: path, range: (idx ??= new LineIndex(text)).range(s, e) });

  /** Range of physical text [s, e), trimmed of blanks (where systemd reports a logical line's errors: its last piece). */
  const trimmedSpan = (s: number, e: number) => {
    while (s < e && isBlank(text.charCodeAt(s))) s++;
    while (e > s && isBlank(text.charCodeAt(e - 1))) e--;
    return lineSpan(s, e);
  };

  /** A continued line: the pieces joined, each continuing piece's last char (its `\`) turned into a space. */
  const parseContinued = (pieces: Piece[]): void => {
    const segs: Segment[] = new Array(pieces.length);
    let off = 0;
    // Pieces on consecutive lines of a file with only "\n" line ends (no comment line between them): each one's
    // "\" is followed by the "\n" before the next, so the joined line is the text with every "\<newline>" a
    // space, made natively in one pass rather than from two strings per piece (a long ExecStart= has thousands).
    let consecutive = onlyNewlines;
    for (let k = 0; k < pieces.length; k++) {
      const pc = pieces[k];
      const len = pc.end - pc.start;
      if (k > 0 && pc.start !== pieces[k - 1].end + 1) consecutive = false;
      segs[k] = { offset: off, line: pc.line, character: pc.col, length: len };
      off += len;
    }
    const first = pieces[0];
    const last = pieces[pieces.length - 1];
    let l: string;
    if (consecutive) {
      l = text.slice(first.start, last.cont ? last.end - 1 : last.end).replaceAll('\\\n', ' ');
      if (last.cont) l += ' ';
    } else {
      const parts: string[] = [];
      for (const pc of pieces) parts.push(pc.cont ? text.slice(pc.start, pc.end - 1) + ' ' : text.slice(pc.start, pc.end));
      l = parts.join('');
    }
    parseLogical(l, 0, l.length, new TextMap(path, segs), last.start, last.end, last.line, last.col);
  };

  /**
   * One logical line: `str[b, b + len)`. `map` maps it to the file; undefined for a single physical line (nearly
   * all of them), which is then `text[lastStart, lastEnd)` itself (b = lastStart), at (lastLine, lastCol): no map
   * and no copy of the line are made unless needed.
   */
  const parseLogical = (str: string, b: number, len: number, map: TextMap | undefined, lastStart: number, lastEnd: number, lastLine: number, lastCol: number): void => {
    // strstrip
    let s = 0;
    let e = len;
    while (s < e && isBlank(str.charCodeAt(b + s))) s++;
    while (e > s && isBlank(str.charCodeAt(b + e - 1))) e--;
    if (s === e) return;

    if (str.charCodeAt(b + s) === 91 /* [ */) {
      const header = str.slice(b + s, b + e);
      if (str.charCodeAt(b + e - 1) !== 93 /* ] */ || e - s < 2) {
        problems.push(
          finding('unit-section-header', 'error', trimmedSpan(lastStart, lastEnd),
            `Invalid section header '${header}': ${refusal}.`),
        );
        stopped = true;
        return;
      }
      const name = str.slice(b + s + 1, b + e - 1);
      if (!stringIsSafe(name)) {
        problems.push(
          finding('unit-section-header', 'error', trimmedSpan(lastStart, lastEnd),
            `Bad characters in section header '${header}': ${refusal}.`),
        );
        stopped = true;
        return;
      }
      section = name;
      const m = map ?? new TextMap(path, [{ offset: 0, line: lastLine, character: lastCol, length: lastEnd - lastStart }]);
      sections.push({ name, span: m.span(s, e) });
      return;
    }

    if (section === undefined) {
      problems.push(finding('unit-syntax', 'warning', trimmedSpan(lastStart, lastEnd), 'Assignment outside of section. Ignoring.'));
      return;
    }

    // The first "=" of the line (a loop within the line: indexOf on the whole text could run far past a line without one).
    let eq = s;
    while (eq < e && str.charCodeAt(b + eq) !== 61 /* = */) eq++;
    if (eq >= e) {
      problems.push(finding('unit-syntax', 'warning', trimmedSpan(lastStart, lastEnd), "Missing '=', ignoring line."));
      return;
    }
    if (eq === s) {
      problems.push(finding('unit-syntax', 'warning', trimmedSpan(lastStart, lastEnd), "Missing key name before '=', ignoring line."));
      return;
    }
    let ke = eq;
    while (ke > s && isBlank(str.charCodeAt(b + ke - 1))) ke--;
    let vs = eq + 1;
    while (vs < e && isBlank(str.charCodeAt(b + vs))) vs++;
    const key = str.slice(b + s, b + ke);
    const value = str.slice(b + vs, b + e);
    if (map === undefined) {
      // One physical line (nearly all directives): spans kept as offsets in the line until read (LazySpan).
      directives.push({
        section, key, value,
        keySpan: new LazySpan(path, lastLine, lastCol + s, lastCol + ke),
        valueMap: new TextMap(path, [{ offset: 0, line: lastLine, character: lastCol + vs, length: value.length }]),
        span: new LazySpan(path, lastLine, lastCol + s, lastCol + (lastEnd - lastStart)),
        lastLine,
        continued: false,
      });
      return;
    }
    const keySpan = map.span(s, ke);
    const valueMap = map.slice(vs, e);
    const span = { file: path, range: { start: map.position(s), end: { line: lastLine, character: lastCol + (lastEnd - lastStart) } } };
    directives.push({ section, key, value, keySpan, valueMap, span, lastLine, continued: map.segments.length > 1 });
  };

  let i = 0;
  let curLine = 0; // LSP line of offset i (lines end at \n, \r\n or a lone \r, like LineIndex)
  let curLineStart = 0;
  // Without \r or NUL anywhere (nearly every file), a line ends at the next \n: found natively, not char by char.
  const onlyNewlines = text.indexOf('\r') === -1 && text.indexOf('\0') === -1;
  while (i < n && !stopped) {
    // read_line(): find the end of this physical line
    const line = curLine;
    const lineStartBefore = curLineStart;
    let e: number;
    if (onlyNewlines) {
      e = text.indexOf('\n', i);
      if (e === -1) e = n;
    } else {
      e = i;
      while (e < n) {
        const c = text.charCodeAt(e);
        if (c === 10 || c === 13 || c === 0) break;
        e++;
      }
    }
    const next = lineEndAfter(text, e);
    // LSP lines end at "\n", "\r\n" and a lone "\r" (as LineIndex): one read_line() EOL may hold two ("\n\r")
    for (let k = e; k < next; k++) {
      const c = text.charCodeAt(k);
      if (c === 10 || (c === 13 && text.charCodeAt(k + 1) !== 10)) {
        curLine++;
        curLineStart = k + 1;
      }
    }
    const lineStart = i;
    const lineCol0 = lineStart - lineStartBefore;
    i = next;

    const bytes = byteLength(text, lineStart, e);
    if (bytes >= LONG_LINE_MAX) {
      problems.push(
        finding('unit-line-too-long', 'error', lineSpan(lineStart, Math.min(e, lineStart + 80)),
          `Line too long: systemd reads lines of at most ${LONG_LINE_MAX - 1} bytes (LONG_LINE_MAX); ${refusal}.`),
      );
      // systemd stops reading here: the line, any pending continuation and the rest are dropped
      pending = null;
      pendingBytes = 0;
      stopped = true;
      break;
    }

    // comment check first (conf-parser.c: skip_leading_chars(buf, WHITESPACE) then COMMENTS)
    let fb = lineStart;
    while (fb < e && isBlank(text.charCodeAt(fb))) fb++;
    if (fb < e) {
      const c = text.charCodeAt(fb);
      if (c === 35 || c === 59) {
        const m = COMMENTED_ENVIRONMENT.exec(text.slice(fb, e));
        if (m) for (const [, name] of m[1].matchAll(ASSIGNED_NAME)) (commented ??= []).push({ name, span: lineSpan(fb, e) });
        continue;
      }
    }

    let s = lineStart;
    if (!bomSeen && text.charCodeAt(s) === 0xfeff && s < e) {
      s++;
      bomSeen = true;
    }

    if (pending) {
      let add = bytes >= 0 ? bytes : (e - s) * 3;
      if (!pendingExact && pendingBytes + add > LONG_LINE_MAX) {
        // The joined line may be near the limit: count its bytes exactly from here on.
        pendingBytes = 0;
        for (const pc of pending) pendingBytes += utf8Length(text, pc.start, pc.end, LONG_LINE_MAX + 1);
        pendingExact = true;
      }
      if (pendingExact && bytes < 0) add = utf8Length(text, s, e, LONG_LINE_MAX + 1);
      if (pendingBytes + add > LONG_LINE_MAX) {
        problems.push(
          finding('unit-line-too-long', 'error', lineSpan(s, Math.min(e, s + 80)),
            `Continuation line too long (over ${LONG_LINE_MAX} bytes): ${refusal}.`),
        );
        pending = null;
        pendingBytes = 0;
        stopped = true;
        break;
      }
      pendingBytes += add;
    }

    // odd number of trailing backslashes -> continues
    let bs = 0;
    while (e - bs > s && text.charCodeAt(e - 1 - bs) === 92) bs++;
    if (bs === 0 && e > s && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) {
      // `\` followed by blanks does not continue; remember where, for a diagnostic
      let be = e - 1;
      while (be > s && (text.charCodeAt(be - 1) === 32 || text.charCodeAt(be - 1) === 9)) be--;
      let tb = 0;
      while (be - tb > s && text.charCodeAt(be - 1 - tb) === 92) tb++;
      if (tb % 2 === 1) {
        trailing.push({ line, backslash: lineCol0 + (be - 1 - lineStart), end: lineCol0 + (e - lineStart) });
      }
    }
    // An empty line that read_line() starts between the \r and \n of a CRLF ("x\n\r\n": EOL "\n\r", then an
    // empty line at the last "\n") has no editor position of its own: anchor it before the \r.
    const split = e === s && s > 0 && text.charCodeAt(s - 1) === 13 && text.charCodeAt(s) === 10 ? 1 : 0;
    const cont = bs % 2 === 1;
    const col = lineCol0 + (s - lineStart) - split;
    if (cont || pending) {
      if (!pending) {
        pending = [];
        pendingBytes = bytes >= 0 ? bytes : (e - s) * 3;
        pendingExact = false;
      }
      pending.push({ start: s - split, end: e - split, cont, line, col });
      if (cont) continue;
      parseContinued(pending);
      pending = null;
      pendingBytes = 0;
    } else {
      parseLogical(text, s - split, e - s, undefined, s - split, e - split, line, col);
    }
  }
  if (pending && !stopped) parseContinued(pending);

  const out: UnitFile = { path, sections, directives, problems };
  if (trailing.length) out.trailingBlankContinuations = trailing;
  if (commented) out.commentedEnvironment = commented;
  return out;
}
