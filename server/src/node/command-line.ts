/**
 * The kubelet's own command-line parsing: spf13/pflag with the kubelet's
 * flag set (cmd/kubelet/app/server.go: DisableFlagParsing, then
 * cleanFlagSet.Parse(args) with cliflag.WordSepNormalizeFunc, and any
 * leftover argument is `unknown command`).
 */
import { comparePos, type Span } from '../model/range.ts';
import type { Word } from '../parse/types.ts';
import { acceptsBareFlag, flagInfo, type FlagInfo } from '../catalog/flags.ts';
import type { FlagUse, PositionalArg } from './model.ts';

export interface ArgProblem {
  kind: 'unknown-flag' | 'needs-argument' | 'bad-syntax' | 'unknown-shorthand';
  /** The name as written, for unknown flags. */
  name: string;
  word: Word;
  span: Span;
  /** kubeadm kubeletExtraArgs entries are YAML, not a command line: fixes differ. */
  from: FlagUse['from'];
}

export interface ParsedArgs {
  flags: FlagUse[];
  positional: PositionalArg[];
  problems: ArgProblem[];
  /** True after a `--` word: everything after it is positional. */
  dashDash?: Word;
}

/** cliflag.WordSepNormalizeFunc: `--cgroup_driver` is `--cgroup-driver`. */
export function normalizeFlagName(name: string): string {
  return name.includes('_') ? name.replaceAll('_', '-') : name;
}

/** cobra's help flag, which the catalog does not list. */
const BUILTIN = new Map<string, boolean>([['help', true]]);
const SHORTHANDS = new Map<string, string>([
  ['h', 'help'],
  ['v', 'v'],
]);

function takesNoValue(name: string, info: FlagInfo | undefined = flagInfo(name)): boolean {
  return info ? acceptsBareFlag(name) : (BUILTIN.get(name) ?? false);
}

export function parseKubeletArgs(argv: readonly Word[], from: FlagUse['from'] = 'command-line'): ParsedArgs {
  const out: ParsedArgs = { flags: [], positional: [], problems: [] };
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i];
    const s = w.text;
    if (s.length < 2 || s[0] !== '-') {
      out.positional.push({ word: w });
      continue;
    }
    if (s === '--') {
      out.dashDash = w;
      for (const rest of argv.slice(i + 1)) out.positional.push({ word: rest });
      break;
    }
    if (s[1] === '-') {
      const c2 = s.charCodeAt(2);
      if (s.length === 2 || c2 === 45 /* - */ || c2 === 61 /* = */) {
        out.problems.push({ kind: 'bad-syntax', name: s.slice(2), word: w, span: w.span, from });
        continue;
      }
      // Offsets in the word, not a copy of it without its dashes (one string less per flag).
      const eqAt = s.indexOf('=', 2);
      const eq = eqAt === -1 ? -1 : eqAt - 2;
      const written = eqAt === -1 ? s.slice(2) : s.slice(2, eqAt);
      // The catalog's own string for a known name: every rule looks the flag up again, and a string whose hash is
      // already known (and that is the map's key itself) is the cheapest key there is.
      const normalized = normalizeFlagName(written);
      const info = flagInfo(normalized);
      const name = info?.name ?? normalized;
      if (info === undefined && !BUILTIN.has(name)) {
        out.problems.push({ kind: 'unknown-flag', name: written, word: w, span: w.map.span(0, 2 + written.length), from });
        // pflag stops here; we go on as if the flag took `=value` or nothing, so one typo does not hide the rest.
        continue;
      }
      if (eq !== -1) {
        const off = 2 + eq + 1;
        out.flags.push(use(written, name, info, w, s.slice(off), off, undefined, from));
      } else if (takesNoValue(name, info)) {
        out.flags.push(use(written, name, info, w, undefined, 0, undefined, from));
      } else if (i + 1 < argv.length) {
        // pflag takes the next word as the value even when it starts with '-'.
        const v = argv[++i];
        out.flags.push(use(written, name, info, w, v.text, 0, v, from));
      } else {
        out.problems.push({ kind: 'needs-argument', name: written, word: w, span: w.span, from });
      }
      continue;
    }
    // Shorthand: -v=2, -v2, -v 2, -h
    const c = s[1];
    const long = SHORTHANDS.get(c);
    if (!long) {
      out.problems.push({ kind: 'unknown-shorthand', name: c, word: w, span: w.map.span(0, 2), from });
      continue;
    }
    // pflag parseSingleShortArg: `-f=arg` first, then a no-option default (`-h`), then `-farg`, then `-f arg`.
    if (s.length > 3 && s[2] === '=') {
      out.flags.push(use(c, long, flagInfo(long), w, s.slice(3), 3, undefined, from));
    } else if (takesNoValue(long)) {
      out.flags.push(use(c, long, flagInfo(long), w, undefined, 0, undefined, from));
    } else if (s.length > 2) {
      out.flags.push(use(c, long, flagInfo(long), w, s.slice(2), 2, undefined, from));
    } else if (i + 1 < argv.length) {
      const v = argv[++i];
      out.flags.push(use(c, long, flagInfo(long), w, v.text, 0, v, from));
    } else {
      out.problems.push({ kind: 'needs-argument', name: c, word: w, span: w.span, from });
    }
  }
  return out;
}

/**
 * One flag as pflag read it. Its spans are worked out when first read: a command line can hold thousands of
 * flags, and the rules place findings on a few (reading every word's position was most of a large unit's
 * analysis; bench: unit-large).
 */
class ParsedFlag implements FlagUse {
  private valueSpanCache: Span | undefined = undefined;
  private spanCache: Span | undefined = undefined;
  constructor(
    readonly written: string,
    readonly name: string,
    readonly info: FlagInfo | undefined,
    readonly nameWord: Word,
    readonly value: string | undefined,
    readonly valueOffset: number,
    readonly valueWord: Word | undefined,
    readonly from: FlagUse['from'],
  ) {}

  get valueSpan(): Span {
    return (this.valueSpanCache ??=
      this.value === undefined
        ? this.nameWord.span
        : this.valueWord
          ? this.valueWord.span
          : this.nameWord.map.span(this.valueOffset, this.nameWord.text.length));
  }

  get span(): Span {
    if (this.spanCache) return this.spanCache;
    const { nameWord, valueWord } = this;
    // The flag spans its name through its value when the value follows it in the same file; a value that came
    // through a variable lives elsewhere (possibly above), so then the flag is just its name.
    const joined = valueWord !== undefined && valueWord.span.file === nameWord.span.file && comparePos(valueWord.span.range.end, nameWord.span.range.start) >= 0;
    return (this.spanCache = joined ? { file: nameWord.span.file, range: { start: nameWord.span.range.start, end: valueWord.span.range.end } } : nameWord.span);
  }

  toJSON(): object {
    const { written, name, value, nameWord, valueWord, valueOffset, valueSpan, span, from } = this;
    return { written, name, value, nameWord, valueWord, valueOffset, valueSpan, span, from };
  }
}

function use(
  written: string,
  name: string,
  info: FlagInfo | undefined,
  nameWord: Word,
  value: string | undefined,
  valueOffset: number,
  valueWord: Word | undefined,
  from: FlagUse['from'],
): FlagUse {
  return new ParsedFlag(written, name, info, nameWord, value, valueOffset, valueWord, from);
}

/** Span of [start, end) of a flag's value text, for pointing at one entry of a map flag. */
export function valueSubSpan(f: FlagUse, start: number, end: number): Span {
  if (f.value === undefined) return f.span;
  const w = f.valueWord ?? f.nameWord;
  return w.map.span(f.valueOffset + start, f.valueOffset + end);
}
