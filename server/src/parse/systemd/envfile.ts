/**
 * Environment files (EnvironmentFile=), a port of the state machine of
 * parse_env_file_internal() in src/basic/env-file.c, as used by
 * load_env_file(), followed by the check exec_context_load_environment()
 * (src/core/execute.c) applies: strv_env_clean_with_callback() drops every
 * entry that is not a valid assignment ("Ignoring invalid environment
 * assignment '...': <file>"), so `export FOO=bar` (key "export FOO") is
 * dropped, not understood.
 *
 * Facts of the state machine (NEWLINE is "\n\r", WHITESPACE " \t\n\r"):
 *   - `#`/`;` start a comment only where a key could start (PRE_KEY);
 *     a comment ending in `\` does not swallow the next line since v254; before, it
 *     does (COMMENT_ESCAPE went back to COMMENT whatever the character): the file is
 *     then read a second time the old way (EnvFile.before254) and the line flagged.
 *   - A key or value with a non-character (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF) or a
 *     lone surrogate is not valid UTF-8 to systemd (utf8_is_valid()): load_env_file()
 *     fails, so the whole file is refused (check_utf8ness_and_warn()).
 *   - A key runs to `=`; trailing blanks are stripped from it, inner blanks are
 *     kept (making it invalid). A line with no `=` is dropped silently.
 *   - Quotes are special only where a value starts (PRE_VALUE); after a closing
 *     quote we are back in PRE_VALUE, so `A="x" y` gives `xy` and `A='a'"b"` `ab`.
 *     In an unquoted value quotes are literal: `A=--x='y'` keeps them.
 *   - Single quotes: no escapes. Double quotes: `\` + one of `"\`$` gives that
 *     char, `\` + newline is dropped, `\` + anything else is kept as both chars.
 *   - Unquoted: `\` + newline continues the value on the next line; `\` + any
 *     other char gives that char. Leading blanks are skipped, trailing blanks
 *     (after the last non-blank or escaped char) are dropped.
 *   - \r is a NEWLINE: in a CRLF file a value ends at the \r, and `\` before
 *     \r\n eats only the \r, so the \n then ends the value (no continuation).
 *   - At EOF a value in progress is stored (an unclosed quote runs to EOF).
 */
import type { Finding } from '../../model/finding.ts';
import { finding } from '../../model/finding.ts';
import type { Segment, Span } from '../../model/range.ts';
import { LineIndex, TextMap } from '../../model/range.ts';
import { LazySpan } from '../../model/lazy-span.ts';
import type { EnvAssignment, EnvFile } from '../types.ts';
import { envNameIsValid, plainAssignment } from './environment.ts';

// States of parse_env_file_internal().
const S = {
  PRE_KEY: 0,
  KEY: 1,
  PRE_VALUE: 2,
  VALUE: 3,
  VALUE_ESCAPE: 4,
  SINGLE_QUOTE_VALUE: 5,
  DOUBLE_QUOTE_VALUE: 6,
  DOUBLE_QUOTE_VALUE_ESCAPE: 7,
  COMMENT: 8,
  COMMENT_ESCAPE: 9,
} as const;
type State = (typeof S)[keyof typeof S];

const isNewline = (c: number): boolean => c === 10 || c === 13;
const isWhitespace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
/** SHELL_NEED_ESCAPE: "\"\\`$" */
const needsEscape = (c: number): boolean => c === 34 || c === 92 || c === 96 || c === 36;

interface Run {
  raw: number;
  len: number;
}
/** No runs yet (never written to: append() replaces it). */
const NO_RUNS: Run[] = Object.freeze([]) as unknown as Run[];

/** Segments for value characters copied from the given raw runs; split at line starts. */
function runsToMap(path: string, idx: LineIndex, runs: Run[], fallback: number): TextMap {
  const segs: Segment[] = [];
  let off = 0;
  const starts = idx.starts;
  for (const r of runs) {
    let a = r.raw;
    let left = r.len;
    while (left > 0) {
      const p = idx.position(a);
      const nextStart = p.line + 1 < starts.length ? starts[p.line + 1] : Infinity;
      const take = Math.min(left, nextStart - a);
      const seg: Segment = { offset: off, line: p.line, character: p.character, length: take };
      if (a + take === nextStart && take > 1 && idx.text.charCodeAt(a + take - 2) === 13 && idx.text.charCodeAt(a + take - 1) === 10) {
        // A "\r\n" inside the value: the "\r" ends a segment of its own kind, the "\n" is the line break (TextMap.range)
        seg.length = take - 1;
        seg.crEnd = true;
        segs.push(seg, { offset: off + take - 1, line: p.line, character: p.character + take - 2, length: 1, eol: true }); // (at the \r's column: no position lies between the two)
        off += take;
        a += take;
        left -= take;
        continue;
      }
      if (a + take === nextStart) seg.eol = true;
      else if (a + take === nextStart - 1 && idx.text.charCodeAt(a + take - 1) === 13 && idx.text.charCodeAt(a + take) === 10) seg.crEnd = true;
      segs.push(seg);
      off += take;
      a += take;
      left -= take;
    }
  }
  if (segs.length === 0) {
    const p = idx.position(fallback);
    segs.push({ offset: 0, line: p.line, character: p.character, length: 0 });
  }
  return new TextMap(path, segs);
}

/**
 * One assignment of an env file. Its value map is built from the value's runs when first read: an 8,000-line
 * file has thousands of values and the rules place findings in a few (bench: scaling, envfile).
 */
class FileAssignment implements EnvAssignment {
  private valueMapCache: TextMap | undefined = undefined;
  private spanCache: Span | undefined = undefined;
  private nameSpanCache: Span | undefined = undefined;
  constructor(
    readonly name: string,
    readonly value: string,
    private readonly file: string,
    private readonly idx: LineIndex,
    /** File offsets: the name's start and end, and the assignment's end. */
    private readonly start: number,
    private readonly nameEnd: number,
    private readonly end: number,
    private readonly runs: Run[],
    /** Where an empty value is placed: just after the `=`. */
    private readonly fallback: number,
  ) {}
  get span(): Span {
    return (this.spanCache ??= new LazySpan(this.file, this.idx, this.start, this.end));
  }
  get nameSpan(): Span {
    return (this.nameSpanCache ??= new LazySpan(this.file, this.idx, this.start, this.nameEnd));
  }
  get valueMap(): TextMap {
    return (this.valueMapCache ??= runsToMap(this.file, this.idx, this.runs, this.fallback));
  }
  toJSON(): EnvAssignment {
    return plainAssignment(this);
  }
}

/** A lone surrogate or a Unicode non-character: systemd's unichar_is_valid() refuses them (src/basic/utf8.c). */
const INVALID_TEXT = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufdd0-\ufdef\ufffe\uffff]|[\ud83f\ud87f\ud8bf\ud8ff\ud93f\ud97f\ud9bf\ud9ff\uda3f\uda7f\udabf\udaff\udb3f\udb7f\udbbf\udbff][\udffe\udfff]/;

export function parseEnvFile(path: string, text: string): EnvFile {
  const now = readEnvFile(path, text, false);
  if (!now.commentEscapes.length) return now.file;
  const old = readEnvFile(path, text, true).file;
  const same =
    old.assignments.length === now.file.assignments.length &&
    old.assignments.every((a, i) => a.name === now.file.assignments[i]!.name && a.value === now.file.assignments[i]!.value);
  if (same) return now.file;
  const idx = new LineIndex(text);
  for (const at of now.commentEscapes) {
    // only where the next line holds something (a blank or comment line means the same to both)
    const next = text.slice(at + 1).replace(/^\r?\n/, '').split(/\r?\n|\r/, 1)[0]!;
    if (/^[ \t]*([#;]|$)/.test(next)) continue;
    now.file.problems.push(
      finding('envfile-comment-continuation', 'warning', new LazySpan(path, idx, at, at + 1),
        'systemd before 254 reads the next line as part of this comment (it ends in `\\`) and ignores it; 254 and later read it. ' +
          'Ubuntu 22.04 ships systemd 249, Debian 12 and RHEL 9 ship 252. Remove the `\\` or put an empty line after the comment.'),
    );
  }
  return { ...now.file, before254: { ...old, problems: now.file.problems } };
}

/** One reading of the file; `commentContinues`: the state machine of systemd before 254. */
function readEnvFile(path: string, text: string, commentContinues: boolean): { file: EnvFile; commentEscapes: number[] } {
  const idx = new LineIndex(text);
  /** Offsets of a `\` ending a comment line (where systemd before 254 reads on). */
  const commentEscapes: number[] = [];
  let invalid: Finding | undefined;
  const assignments: EnvAssignment[] = [];
  const problems: Finding[] = [];
  const n = text.length;

  let state: State = S.PRE_KEY;
  let keyStart = -1;
  let keyEnd = -1; // end after stripping trailing blanks, computed on push
  let eqAt = -1;
  // The value's runs; a new array per value (an assignment keeps its own), made when the first run is: an array
  // literal of one, not a `[]` that grows 17 slots on its first push (most values are one run).
  let runs: Run[] = NO_RUNS;
  let nValue = 0;
  let lastValueWhitespace = -1; // SIZE_MAX
  let quoteStart = -1;

  const append = (at: number): void => {
    const last = runs.length ? runs[runs.length - 1] : undefined;
    if (last && last.raw + last.len === at) last.len++;
    else if (runs === NO_RUNS) runs = [{ raw: at, len: 1 }];
    else runs.push({ raw: at, len: 1 });
    nValue++;
  };
  /** append() for each of the characters [from, to), at once (values are long: no call per character). */
  const appendRange = (from: number, to: number): void => {
    const len = to - from;
    const last = runs.length ? runs[runs.length - 1] : undefined;
    if (last && last.raw + last.len === from) last.len += len;
    else if (runs === NO_RUNS) runs = [{ raw: from, len }];
    else runs.push({ raw: from, len });
    nValue += len;
  };

  const truncate = (len: number): void => {
    let acc = 0;
    const out: Run[] = [];
    for (const r of runs) {
      if (acc >= len) break;
      const take = Math.min(r.len, len - acc);
      out.push({ raw: r.raw, len: take });
      acc += take;
    }
    runs = out;
    nValue = len;
  };

  // A span never ends on the \r of a CRLF (env-file.c ends a value there; editors place no position between \r and \n).
  const spanEnd = (s: number, e: number): number => (e > s && text.charCodeAt(e - 1) === 13 && text.charCodeAt(e) === 10 ? e - 1 : e);
  const span = (s: number, e: number): Span => new LazySpan(path, idx, s, spanEnd(s, e));

  const push = (end: number, chomp: boolean): void => {
    if (chomp && lastValueWhitespace >= 0) truncate(lastValueWhitespace);
    // strip trailing whitespace from key
    let ke = eqAt;
    while (ke > keyStart && isWhitespace(text.charCodeAt(ke - 1))) ke--;
    keyEnd = ke;
    const key = text.slice(keyStart, keyEnd);
    let value = '';
    if (runs.length === 1) value = text.slice(runs[0].raw, runs[0].raw + runs[0].len);
    else if (runs.length > 1) value = runs.map((r) => text.slice(r.raw, r.raw + r.len)).join('');
    if (!invalid && (INVALID_TEXT.test(key) || INVALID_TEXT.test(value))) {
      invalid = finding('envfile-invalid-text', 'error', span(keyStart, end),
        `systemd refuses this whole file: the ${INVALID_TEXT.test(key) ? 'name' : 'value'} holds a Unicode non-character or a lone surrogate, which it treats as invalid UTF-8. ` +
          'A service that names the file in EnvironmentFile= does not start (with the `-` prefix the file is skipped).');
    }
    if (!envNameIsValid(key)) {
      let hint = '';
      if (/^export[ \t]+/.test(key)) hint = ' systemd does not understand `export`: the line is dropped; remove `export `.';
      else if (key.length === 0) hint = ' The name is empty.';
      else hint = ' A name is letters, digits and "_", not starting with a digit.';
      problems.push(
        finding('envfile-invalid-name', 'warning', span(keyStart, keyEnd),
          `Ignoring invalid environment assignment '${key}=…'.${hint}`),
      );
    } else {
      assignments.push(new FileAssignment(key, value, path, idx, keyStart, spanEnd(keyStart, keyEnd), spanEnd(keyStart, end), runs, eqAt + 1));
    }
    keyStart = -1;
    eqAt = -1;
    runs = NO_RUNS;
    nValue = 0;
  };

  for (let p = 0; p < n; p++) {
    const c = text.charCodeAt(p);
    switch (state) {
      case S.PRE_KEY:
        if (c === 35 || c === 59) state = S.COMMENT;
        else if (!isWhitespace(c)) {
          state = S.KEY;
          keyStart = p;
        }
        break;

      case S.KEY:
        if (isNewline(c)) {
          // A line with a key but no '=': dropped without a word by systemd.
          let ke = p;
          while (ke > keyStart && isWhitespace(text.charCodeAt(ke - 1))) ke--;
          problems.push(
            finding('envfile-syntax', 'warning', span(keyStart, ke),
              `Line has no '=': systemd ignores it.`),
          );
          state = S.PRE_KEY;
          keyStart = -1;
        } else if (c === 61 /* = */) {
          state = S.PRE_VALUE;
          eqAt = p;
          lastValueWhitespace = -1;
        }
        break;

      case S.PRE_VALUE:
        if (isNewline(c)) {
          state = S.PRE_KEY;
          push(p, false);
        } else if (c === 39) {
          state = S.SINGLE_QUOTE_VALUE;
          quoteStart = p;
        } else if (c === 34) {
          state = S.DOUBLE_QUOTE_VALUE;
          quoteStart = p;
        } else if (c === 92) state = S.VALUE_ESCAPE;
        else if (!isWhitespace(c)) {
          state = S.VALUE;
          append(p);
        }
        break;

      case S.VALUE:
        if (isNewline(c)) {
          state = S.PRE_KEY;
          push(p, true);
        } else if (c === 92) {
          state = S.VALUE_ESCAPE;
          lastValueWhitespace = -1;
        } else {
          // this character and the ordinary ones after it, each as the branch above would take it
          let q = p;
          for (;;) {
            if (!isWhitespace(text.charCodeAt(q))) lastValueWhitespace = -1;
            else if (lastValueWhitespace === -1) lastValueWhitespace = nValue + (q - p);
            q++;
            if (q >= n) break;
            const d = text.charCodeAt(q);
            if (isNewline(d) || d === 92) break;
          }
          appendRange(p, q);
          p = q - 1;
        }
        break;

      case S.VALUE_ESCAPE:
        state = S.VALUE;
        if (!isNewline(c)) append(p); // escaped newlines are eaten entirely
        break;

      case S.SINGLE_QUOTE_VALUE:
        if (c === 39) state = S.PRE_VALUE;
        else {
          let q = text.indexOf("'", p);
          if (q < 0) q = n;
          appendRange(p, q);
          p = q - 1;
        }
        break;

      case S.DOUBLE_QUOTE_VALUE:
        if (c === 34) state = S.PRE_VALUE;
        else if (c === 92) state = S.DOUBLE_QUOTE_VALUE_ESCAPE;
        else {
          let q = p + 1;
          while (q < n) {
            const d = text.charCodeAt(q);
            if (d === 34 || d === 92) break;
            q++;
          }
          appendRange(p, q);
          p = q - 1;
        }
        break;

      case S.DOUBLE_QUOTE_VALUE_ESCAPE:
        state = S.DOUBLE_QUOTE_VALUE;
        if (needsEscape(c)) append(p);
        else if (c !== 10) {
          // keep the backslash, like the shell does
          append(p - 1);
          append(p);
        }
        break;

      case S.COMMENT:
        if (c === 92) state = S.COMMENT_ESCAPE;
        else if (isNewline(c)) state = S.PRE_KEY;
        break;

      case S.COMMENT_ESCAPE:
        if (isNewline(c)) commentEscapes.push(p - 1);
        state = isNewline(c) && !commentContinues ? S.PRE_KEY : S.COMMENT;
        break;
    }
  }

  switch (state) {
    case S.PRE_VALUE:
    case S.VALUE:
    case S.VALUE_ESCAPE:
    case S.SINGLE_QUOTE_VALUE:
    case S.DOUBLE_QUOTE_VALUE:
    case S.DOUBLE_QUOTE_VALUE_ESCAPE: {
      if (state === S.SINGLE_QUOTE_VALUE || state === S.DOUBLE_QUOTE_VALUE || state === S.DOUBLE_QUOTE_VALUE_ESCAPE) {
        problems.push(
          finding('envfile-unterminated-quote', 'warning', span(quoteStart, quoteStart + 1),
            'This quote is never closed: systemd takes the rest of the file as the value.'),
        );
      }
      push(n, state === S.VALUE);
      break;
    }
    case S.KEY: {
      let ke = n;
      while (ke > keyStart && isWhitespace(text.charCodeAt(ke - 1))) ke--;
      problems.push(finding('envfile-syntax', 'warning', span(keyStart, ke), `Line has no '=': systemd ignores it.`));
      break;
    }
    default:
      break;
  }

  // A NUL byte anywhere, a comment too, and systemd reads nothing of the file (checked with Debian's systemd 252,
  // whose environment.d generator reads env files with the same parse_env_file_internal(): no variable of it).
  const nul = text.indexOf('\0');
  if (nul !== -1 && !invalid) {
    invalid = finding('envfile-invalid-text', 'error', span(nul, nul + 1),
      'systemd refuses this whole file: it holds a NUL byte. ' +
        'A service that names the file in EnvironmentFile= does not start (with the `-` prefix the file is skipped).');
  }
  if (invalid) return { file: { path, assignments: [], problems: [invalid, ...problems] }, commentEscapes };
  return { file: { path, assignments, problems }, commentEscapes };
}
