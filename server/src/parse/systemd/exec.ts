/**
 * ExecStart=/ExecStartPre= command lines: src/core/load-fragment.c
 * config_parse_exec() for parsing, src/basic/env-util.c replace_env_argv()
 * for variable expansion at start-up.
 *
 * Parsing (config_parse_exec):
 *   - an empty value resets the list (the caller applies it; here: no command);
 *   - words come from extract_first_word_and_warn(..., EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE):
 *     an invalid escape is retried with EXTRACT_CUNESCAPE_RELAX and kept verbatim
 *     with a warning; unbalanced quoting is an error. On the first word the error
 *     only drops the setting; on a later word it is -ENOEXEC (the unit is refused)
 *     unless the command has the `-` prefix;
 *   - the first word may start with prefixes `-` `@` `:` `+` `!` `!!` (each at most
 *     once, `+` not with `!`/`!!`), removed after unquoting, so `"-/bin/x"` works;
 *   - a lone first word `;` is skipped; a later unquoted `;` (followed by a blank
 *     or the end) separates commands; `\;` is a literal `;` argument;
 *   - the path must not be empty, nor contain control characters, quotes or `\`
 *     (string_is_safe), nor end in `/`, and must be an absolute path or a plain
 *     file name;
 *   - specifiers: unit_path_printf / unit_full_printf. `%%` -> `%`; other known
 *     specifiers are kept as written (their values are machine-specific); an
 *     unknown letter/digit after `%` is an error (-EBADSLT).
 *   - argv[0] is the path, unless `@` is given, then it is the next word.
 *
 * Expansion (replace_env_argv, not done with the `:` prefix):
 *   - a word that is `$` followed by anything but `{` or `$` is a whole-word
 *     reference: the rest must be a valid name (else it is a "bad variable" and
 *     the word disappears); the value is split with
 *     strv_split_full(WHITESPACE, EXTRACT_RELAX|EXTRACT_UNQUOTE): quotes in the
 *     value ARE removed and `\x` gives `x` (no C escapes); unset -> zero words;
 *   - any other word goes through replace_env_full(flags=0): `${NAME}` is
 *     replaced in place (unset or invalid name -> nothing), `$$` -> `$`,
 *     `$NAME` inside a word and `${NAME:-x}` are left as written.
 */
import type { Finding } from '../../model/finding.ts';
import { finding } from '../../model/finding.ts';
import type { Segment, Span } from '../../model/range.ts';
import { TextMap } from '../../model/range.ts';
import type { EnvAssignment, ExecCommand, RawExecWord, UnitDirective, Word } from '../types.ts';
import { envNameIsValid } from './environment.ts';
import {
  EXTRACT_CUNESCAPE,
  EXTRACT_CUNESCAPE_RELAX,
  EXTRACT_RELAX,
  EXTRACT_UNQUOTE,
  extractFirstWord,
  extractFirstWordAndWarn,
  isWhitespace,
  LazyWord,
  resolveSpecifiers,
  runScratch,
  type RunScratch,
  toWord,
  type ExtractedWord,
} from './words.ts';

/** An ExecCommand plus the executable path (the same as words[0] unless the `@` prefix is used). */
export interface ParsedExecCommand extends ExecCommand {
  path: RawExecWord;
}

export interface ExecReference {
  variable: string;
  span: Span;
  defined: boolean;
  /** The name is not a valid variable name: systemd expands it to nothing ("bad variable"). */
  invalidName?: boolean;
}

const PATH_MAX = 4096;
const NAME_MAX = 255;

function stringIsSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c > 0 && c < 32) || c === 127 || c === 34 || c === 39 || c === 92) return false;
  }
  return true;
}

function filenameIsValid(s: string): boolean {
  return s.length > 0 && s !== '.' && s !== '..' && !s.includes('/') && s.length <= NAME_MAX;
}

function pathIsValid(s: string): boolean {
  if (s.length === 0 || s.length >= PATH_MAX) return false;
  for (const part of s.split('/')) if (part.length > NAME_MAX) return false;
  return true;
}

/** The consequence of a fatal Exec*= error in a unit file, as the messages say it (node/service.ts rewords it for drop-ins). */
export const REFUSED = 'systemd refuses to load the unit';

const parsedCache = new WeakMap<UnitDirective, ReturnType<typeof parseExecCommandsNow>>();

/**
 * parseExecCommands(), once per directive: the service model checks every Exec*= line for fatal errors and the
 * node reads the surviving ones again.
 */
export function parseExecCommands(d: UnitDirective): { commands: ParsedExecCommand[]; problems: Finding[]; fatal?: Finding } {
  let r = parsedCache.get(d);
  if (!r) parsedCache.set(d, (r = parseExecCommandsNow(d)));
  return r;
}

/**
 * Parse every command of an Exec*= value (several when separated by `;`).
 * Each command carries its own problems; problems of commands systemd drops
 * (and of the text after them, which it does not read) are in `problems`.
 */
function parseExecCommandsNow(d: UnitDirective): { commands: ParsedExecCommand[]; problems: Finding[]; fatal?: Finding } {
  const commands: ParsedExecCommand[] = [];
  const problems: Finding[] = [];
  /** The error that makes config_parse_exec() return -ENOEXEC: systemd refuses the whole unit ("bad-setting"). */
  let fatal: Finding | undefined;
  const raw = d.value;
  const map = d.valueMap;
  const where = `${d.key}=`;
  let p: number | null = 0;
  let semicolon = false;

  do {
    semicolon = false;
    const first = extractFirstWordAndWarn(raw, p, EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE);
    const res = first.res;
    if (res.kind === 'none') break;
    if (res.kind === 'error') {
      problems.push(
        finding('exec-syntax', 'error', map.span(res.start, raw.length),
          `${where} has unbalanced quoting; systemd ignores this command line.`),
      );
      break;
    }
    const fw = toWord(res, map);
    const cmdProblems: Finding[] = [];
    if (first.warning) cmdProblems.push(escapeWarning(fw));
    p = res.next;
    if (fw.text === ';') {
      semicolon = true;
      continue;
    }

    // prefixes
    let f = 0;
    let prefixes = '';
    let ignore = false;
    let separateArgv0 = false;
    let noEnv = false;
    let priv: '' | '+' | '!' | '!!' = '';
    for (; f < fw.text.length; f++) {
      const c = fw.text[f];
      if (c === '-' && !ignore) ignore = true;
      else if (c === '@' && !separateArgv0) separateArgv0 = true;
      else if (c === ':' && !noEnv) noEnv = true;
      else if (c === '+' && priv === '') priv = '+';
      else if (c === '!' && priv === '') priv = '!';
      else if (c === '!' && priv === '!') priv = '!!';
      else break;
      prefixes += c;
    }
    const sev = ignore ? 'warning' : 'error';
    const refused = ignore ? 'systemd ignores this command (the `-` prefix)' : REFUSED;

    const pathText = fw.text.slice(f);
    const pathMap = fw.map.slice(f, fw.text.length);
    const spec = resolveSpecifiers(pathText, pathMap);
    const pathSpan: Span = f > 0 ? { file: fw.span.file, range: { start: pathMap.position(0), end: fw.span.range.end } } : fw.span;
    let bad: string | undefined;
    if (spec.unknown.length) bad = `Unknown specifier ${spec.unknown[0].spec} in the executable path`;
    else if (spec.text.length === 0) bad = 'Empty path in command line';
    else if (!stringIsSafe(spec.text)) bad = `Executable name contains special characters: ${spec.text}`;
    else if (spec.text.endsWith('/')) bad = `Executable path specifies a directory: ${spec.text}`;
    else if (!(spec.text.startsWith('/') ? pathIsValid(spec.text) : filenameIsValid(spec.text)))
      bad = `Neither a valid executable name nor an absolute path: ${spec.text}`;
    if (bad) {
      // config_parse_exec returns here: the rest of the line (further commands too) is not read
      const f = finding('exec-path', sev, pathSpan, `${bad}; ${refused}.`);
      if (!ignore) fatal = f;
      problems.push(...cmdProblems, f);
      break;
    }
    const path: RawExecWord = { text: spec.text, span: pathSpan, map: spec.map };
    const words: RawExecWord[] = [];
    if (!separateArgv0) words.push(path);

    let failed = false;
    const scratch = runScratch();
    while (p !== null && p < raw.length) {
      const c0 = raw.charCodeAt(p);
      const c1 = p + 1 < raw.length ? raw.charCodeAt(p + 1) : 0;
      if (c0 === 59 /* ; */ && (c1 === 0 || isWhitespace(c1))) {
        p++;
        while (p < raw.length && isWhitespace(raw.charCodeAt(p))) p++;
        semicolon = true;
        break;
      }
      if (c0 === 92 && c1 === 59) {
        const c2 = p + 2 < raw.length ? raw.charCodeAt(p + 2) : 0;
        if (c2 === 0 || isWhitespace(c2)) {
          words.push({ text: ';', span: map.span(p, p + 2), map: map.slice(p + 1, p + 2) });
          p += 2;
          while (p < raw.length && isWhitespace(raw.charCodeAt(p))) p++;
          continue;
        }
      }
      // extractFirstWordAndWarn(), toWord() and resolveSpecifiers() inlined: no intermediate objects per word (a
      // command line can hold thousands of words).
      let res = extractFirstWord(raw, p, EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE, scratch);
      let warned = false;
      if (res.kind === 'error') {
        const again = extractFirstWord(raw, p, EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE | EXTRACT_CUNESCAPE_RELAX, scratch);
        if (again.kind === 'word') {
          res = again;
          warned = true;
        } else res = again.kind === 'error' ? { ...again, reason: 'quote' } : again;
      }
      if (res.kind === 'none') {
        p = null;
        break;
      }
      if (res.kind === 'error') {
        const f = finding('exec-syntax', sev, map.span(res.start, raw.length), `${where} has unbalanced quoting; ${refused}.`);
        if (!ignore) fatal = f;
        cmdProblems.push(f);
        failed = true;
        break;
      }
      const word = toWord(res, map);
      if (warned) cmdProblems.push(escapeWarning(word));
      p = res.next;
      if (res.text.indexOf('%') === -1) {
        words.push(word);
        continue;
      }
      const s = resolveSpecifiers(res.text, word.map);
      if (s.unknown.length) {
        const f = finding('exec-specifier', sev, s.unknown[0].span,
          `Unknown specifier ${s.unknown[0].spec}: systemd fails to resolve unit specifiers; ${refused}.`);
        if (!ignore) fatal = f;
        cmdProblems.push(f);
        failed = true;
        break;
      }
      words.push({ text: s.text, span: word.span, map: s.map });
    }
    if (failed) {
      for (const x of cmdProblems) problems.push(x);
      break;
    }
    if (words.length === 0) {
      const f = finding('exec-path', sev, fw.span, `Empty executable name or zeroeth argument; ${refused}.`);
      if (!ignore) fatal = f;
      problems.push(...cmdProblems, f);
      break;
    }
    commands.push({ prefixes, words, problems: cmdProblems, path });
  } while (semicolon);

  return { commands, problems, fatal };
}

function escapeWarning(w: ExtractedWord): Finding {
  return finding('exec-escape', 'warning', w.span, `Ignoring unknown escape sequences: "${w.text}" (systemd keeps the backslash).`);
}

/**
 * The first command of an Exec*= value. When systemd drops the command (or the
 * value is empty) the result has no words; all problems are in `problems`.
 */
export function parseExecDirective(d: UnitDirective): ParsedExecCommand {
  const { commands, problems } = parseExecCommands(d);
  const first = commands[0];
  const extra = commands.length > 1
    ? [finding('exec-multiple', 'information', d.valueMap.span(0, d.value.length),
        `${d.key}= holds ${commands.length} commands separated by ';'.`)]
    : [];
  if (first) return { ...first, problems: [...first.problems, ...problems, ...extra] };
  const empty = d.valueMap.slice(0, 0);
  return {
    prefixes: '',
    words: [],
    problems,
    path: { text: '', span: d.valueMap.span(0, 0), map: empty },
  };
}

/** What splitting a value into words (EXTRACT_RELAX|EXTRACT_UNQUOTE) treats specially: WHITESPACE, quotes, backslash. */
const SPLIT_SPECIAL = /[ \t\n\r'"\\]/;

/**
 * Split a variable's value into words the way a whole-word `$NAME` is (EXTRACT_RELAX|EXTRACT_UNQUOTE), appended
 * to `out`. The assignment's value map is read only when a word's position is. `scratch`: see RunScratch (a
 * caller splitting many variables passes one). Stops once the words' execve() size (at least their length, NUL
 * and pointer) passes `budget`, or once `out` holds `maxWords`.
 */
export function splitVariable(a: EnvAssignment, via: { variable: string; span: Span }, out: Word[] = [], scratch?: RunScratch, budget = Infinity, maxWords = Infinity): Word[] {
  // extractWords(), without its intermediate words: a variable can hold thousands of flags.
  const raw = a.value;
  // A value without blanks, quotes or backslashes (one flag, the usual case) is one word, itself: what the reader
  // gives for it (one run from offset 0), without running the reader.
  if (raw.length > 0 && !SPLIT_SPECIAL.test(raw)) {
    const w = new LazyWord(raw, 0, raw.length, a, null, 0);
    w.via = via;
    out.push(w);
    return out;
  }
  let p: number | null = 0;
  scratch ??= runScratch();
  let used = 0;
  while (used <= budget && out.length < maxWords) {
    const res = extractFirstWord(raw, p, EXTRACT_RELAX | EXTRACT_UNQUOTE, scratch);
    if (res.kind !== 'word') break; // with EXTRACT_RELAX there is no error, only the end
    used += res.text.length + 1 + 8;
    const w = toWord(res, a);
    w.via = via;
    out.push(w);
    p = res.next;
  }
  return out;
}

/** Concatenate maps of consecutive pieces into one map of `file`; pieces in other files point at `fallback`. */
function concatMaps(file: string, pieces: { len: number; map: TextMap; fallback?: Span }[]): TextMap {
  const segs: Segment[] = [];
  let off = 0;
  for (const pc of pieces) {
    if (pc.len === 0) continue;
    if (pc.map.file === file) {
      for (const s of pc.map.segments) {
        if (s.length === 0 && pc.map.segments.length > 1) continue;
        const seg: Segment = { offset: off + s.offset, line: s.line, character: s.character, length: s.length };
        if (s.width !== undefined) seg.width = s.width;
        segs.push(seg);
      }
    } else {
      const at = pc.fallback?.range.start ?? pc.map.position(0);
      segs.push({ offset: off, line: at.line, character: at.character, length: 0 });
    }
    off += pc.len;
  }
  if (segs.length === 0 && pieces.length) return pieces[0].map;
  return new TextMap(file, segs);
}

/**
 * The kernel's limits on what execve() copies (fs/exec.c, include/uapi/linux/binfmts.h):
 *   - MAX_ARG_STRLEN = 32 pages (128 KiB): one argument or environment string, NUL included;
 *   - bprm_stack_limits(): argv + envp strings plus one pointer each may take min(3/4 of _STK_LIM, RLIMIT_STACK/4),
 *     never less than ARG_MAX (32 pages): 2 MiB with the default 8 MiB stack limit, 6 MiB at most whatever the
 *     unit's LimitSTACK= says.
 * Past them execve() fails with E2BIG and systemd reports the unit failed ("Argument list too long").
 */
export const ARG_STRLEN_MAX = 32 * 4096;
export const ARGV_DEFAULT_MAX = (8 * 1024 * 1024) / 4;
export const ARGV_HARD_MAX = ((8 * 1024 * 1024) / 4) * 3;
const POINTER = 8;

/** Bytes a string takes in execve()'s copy: its UTF-8 encoding, its NUL and its pointer. */
export function execBytes(s: string): number {
  let n = s.length;
  // UTF-16 length is a lower bound of the UTF-8 one; count the extra bytes only where there are non-ASCII units.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) n += 1, i++; // a pair: 2 units, 4 bytes
    else n += 2;
  }
  return n + 1 + POINTER;
}

/** What expanding a command line found about its size; `truncated` when the analysis stopped reading it. */
export interface ArgvSize {
  bytes: number;
  truncated: boolean;
  /** The first argument longer than ARG_STRLEN_MAX. */
  tooLong?: { span: Span; bytes: number };
}

/**
 * replace_env_argv(): expand variables in argv. words[0] (the executable, or
 * the explicit argv[0] with `@`) is never expanded. Nothing is expanded with
 * the `:` prefix.
 *
 * The expansion stops once the command line passes ARGV_HARD_MAX (no kernel runs it): a variable of a thousand
 * flags referenced ten thousand times would otherwise make ten million words. `size` says how far it got.
 */
export function expandExecArgv(
  cmd: ExecCommand,
  lookup: (name: string) => EnvAssignment | undefined,
  opts?: {
    /**
     * The command line is written in a Terraform template (`kubelet.service.tftpl`): Terraform renders `$${` to `${`
     * before systemd reads the unit, so `$${VAR}` is systemd's `${VAR}` (hashicorp/hcl hclsyntax template escapes).
     */
    terraform?: boolean;
  },
): { argv: Word[]; references: ExecReference[]; size: ArgvSize } {
  const terraform = opts?.terraform === true;
  const argv: Word[] = [];
  const references: ExecReference[] = [];
  const noExpand = cmd.prefixes.includes(':');
  const scratch = runScratch();
  const size: ArgvSize = { bytes: 0, truncated: false };
  // argv[0] is the path as systemd passes it; with `@` words[0] is argv[0] and the path is not counted twice.
  const count = (w: Word): void => {
    const b = execBytes(w.text);
    size.bytes += b;
    if (b - 1 - POINTER > ARG_STRLEN_MAX - 1 && !size.tooLong) size.tooLong = { span: w.span, bytes: b - POINTER };
  };

  for (let i = 0; i < cmd.words.length; i++) {
    if (size.bytes > ARGV_HARD_MAX) {
      size.truncated = true;
      break;
    }
    const w = cmd.words[i];
    if (i === 0 || noExpand || w.text.indexOf('$') === -1) {
      // The word itself (a LazyWord keeps its positions unread until a rule asks).
      argv.push(w);
      count(w);
      continue;
    }
    const t = w.text;
    // "If $FOO appears as single word, replace it by the split up variable"
    if (t.charCodeAt(0) === 36 && t[1] !== '{' && t[1] !== '$') {
      const name = t.slice(1);
      const via = { variable: name, span: w.span };
      if (!envNameIsValid(name)) {
        references.push({ variable: name, span: w.span, defined: false, invalidName: true });
        continue; // a bad variable: replaced by zero words
      }
      const a = lookup(name);
      references.push({ variable: name, span: w.span, defined: a !== undefined });
      if (a) {
        const from = argv.length;
        splitVariable(a, via, argv, scratch, ARGV_HARD_MAX + 1 - size.bytes);
        for (let k = from; k < argv.length; k++) count(argv[k]);
      }
      continue;
    }

    // replace_env_full(word, flags=0): ${NAME} in place, $$ -> $
    const parts: string[] = [];
    const pieces: { len: number; map: TextMap; fallback?: Span }[] = [];
    let length = 0;
    let via: Word['via'];
    const lit = (a: number, b: number): void => {
      if (b <= a) return;
      parts.push(t.slice(a, b));
      pieces.push({ len: b - a, map: w.map.slice(a, b) });
      length += b - a;
    };
    const WORD = 0, CURLY = 1, VARIABLE = 2;
    let state = WORD;
    let word = 0; // start of the text not yet copied
    for (let e = 0; e < t.length; e++) {
      const c = t.charCodeAt(e);
      if (state === WORD) {
        if (c === 36) state = CURLY;
      } else if (state === CURLY) {
        if (c === 123 /* { */) {
          lit(word, e - 1);
          word = e - 1;
          state = VARIABLE;
        } else if (c === 36 && terraform && t.charCodeAt(e + 1) === 123) {
          // Terraform's `$${`: the first `$` is not in the rendered unit; the second starts systemd's `${`.
          lit(word, e - 1);
          word = e;
        } else if (c === 36) {
          lit(word, e); // up to and including the first $
          word = e + 1;
          state = WORD;
        } else state = WORD;
      } else {
        if (c === 125 /* } */) {
          const name = t.slice(word + 2, e);
          const refSpan = w.map.span(word, e + 1);
          if (!envNameIsValid(name)) {
            references.push({ variable: name, span: refSpan, defined: false, invalidName: true });
          } else {
            const a = lookup(name);
            references.push({ variable: name, span: refSpan, defined: a !== undefined });
            if (!via) via = { variable: name, span: refSpan };
            // One word made of many copies of a large variable: stop copying once it alone passes the hard limit.
            if (a && a.value.length && size.bytes + length <= ARGV_HARD_MAX) {
              parts.push(a.value);
              pieces.push({ len: a.value.length, map: a.valueMap, fallback: refSpan });
              length += a.value.length;
            } else if (a && a.value.length) size.truncated = true;
          }
          word = e + 1;
          state = WORD;
        } else if (c === 58 /* : */) {
          state = WORD; // ${NAME:-...} is unsupported syntax here: no replacement
        }
      }
    }
    lit(word, t.length);
    const text = parts.join('');
    const out: Word = { text, span: w.span, map: concatMaps(w.map.file, pieces) };
    if (text.length === 0) out.map = w.map.slice(0, 0);
    if (via) out.via = via;
    argv.push(out);
    count(out);
  }
  if (size.bytes > ARGV_HARD_MAX) size.truncated = true;
  return { argv, references, size };
}
