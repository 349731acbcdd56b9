/**
 * Environment= assignments, as src/core/load-fragment.c config_parse_environ()
 * reads them:
 *   - an empty value resets the list (applied by the caller; here: zero assignments);
 *   - words come from extract_first_word(&p, &word, NULL, EXTRACT_CUNESCAPE|EXTRACT_UNQUOTE)
 *     (note: not the _and_warn variant, so an invalid escape is an error too);
 *     on an error: "Invalid syntax, ignoring: <rvalue>" and the REST of the
 *     line is dropped, the assignments before it are kept;
 *   - specifiers are resolved (unit_env_printf); a failure skips that word;
 *   - env_assignment_is_valid() (src/basic/env-util.c) must hold: a `=`, a name
 *     of [A-Za-z0-9_] not starting with a digit; otherwise
 *     "Invalid environment assignment, ignoring: ..." and the word is skipped.
 */
import type { Finding } from '../../model/finding.ts';
import { finding } from '../../model/finding.ts';
import type { Span, TextMap } from '../../model/range.ts';
import type { EnvAssignment, UnitDirective } from '../types.ts';
import { EXTRACT_CUNESCAPE, EXTRACT_UNQUOTE, LazyWord, extractFirstWord, resolveSpecifiers, runScratch, toWord } from './words.ts';

/** env_name_is_valid() from src/basic/env-util.c (bash's character set): [A-Za-z_][A-Za-z0-9_]*. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether systemd accepts `name` as a variable name. A regular expression, not a loop over charCodeAt: names are
 * slices of a larger string, and reading a slice's characters one by one costs an indirection each (a drop-in can
 * set thousands of variables).
 */
export function envNameIsValid(name: string): boolean {
  return ENV_NAME.test(name);
}

export function parseEnvironmentDirective(d: UnitDirective): { assignments: EnvAssignment[]; problems: Finding[] } {
  const assignments: EnvAssignment[] = [];
  const problems: Finding[] = [];
  readEnvironmentDirective(d, assignments, problems);
  return { assignments, problems };
}

/** parseEnvironmentDirective(), appending to the service's lists (no arrays per directive: a drop-in can have thousands). */
export function readEnvironmentDirective(d: UnitDirective, assignments: EnvAssignment[], problems: Finding[]): void {
  const raw = d.value;
  const n = raw.length;
  // The usual form, `Environment="NAME=value"`: one double-quoted word with no backslash, inner quote or "%".
  // extract_first_word() gives exactly its inside (one run from offset 1), so it is taken without the general
  // reader. A value "" is left to the reader: its empty word is placed at offset 0, not 1.
  if (n > 2 && raw.charCodeAt(0) === 34 && raw.indexOf('"', 1) === n - 1 && raw.indexOf('\\') === -1 && raw.indexOf('%') === -1) {
    // The word's text is raw[1, n - 1): its name and value are sliced from raw, and the word itself is made only
    // when a position is asked for. An invalid assignment goes the general way, for its problem.
    const eq = raw.indexOf('=', 1);
    const name = eq === -1 ? '' : raw.slice(1, eq);
    if (eq !== -1 && envNameIsValid(name)) assignments.push(new QuotedAssignment(name, raw.slice(eq + 1, n - 1), d));
    else assign(new LazyWord(raw.slice(1, n - 1), 0, n, d, null, 1), undefined, assignments, problems);
    return;
  }
  let p: number | null = 0;
  const scratch = runScratch();
  for (;;) {
    const res = extractFirstWord(raw, p, EXTRACT_CUNESCAPE | EXTRACT_UNQUOTE, scratch);
    if (res.kind === 'none') break;
    if (res.kind === 'error') {
      const why = res.reason === 'quote' ? 'unbalanced quoting' : 'an invalid escape sequence';
      problems.push(
        finding('environment-syntax', 'warning', d.valueMap.span(res.start, raw.length),
          `Environment= has ${why}; systemd logs "Invalid syntax, ignoring" and drops the rest of the line from here.`),
      );
      break;
    }
    p = res.next;
    // The directive, not its map: the map is made only if a position is asked for.
    const w = toWord(res, d);
    if (w.text.indexOf('%') === -1) {
      assign(w, undefined, assignments, problems);
      continue;
    }
    const spec = resolveSpecifiers(w.text, w.map);
    if (spec.unknown.length) {
      problems.push(
        finding('environment-specifier', 'warning', spec.unknown[0].span,
          `Unknown specifier ${spec.unknown[0].spec}: systemd fails to resolve specifiers in this assignment and ignores it.`),
      );
      continue;
    }
    assign(w, spec, assignments, problems);
  }
}

/** One word of Environment= (with its specifiers resolved, if it had any): an assignment, or why it is ignored. */
function assign(w: LazyWord, spec: { text: string; map: TextMap } | undefined, assignments: EnvAssignment[], problems: Finding[]): void {
  const text = spec ? spec.text : w.text;
  const eq = text.indexOf('=');
  const name = eq === -1 ? '' : text.slice(0, eq);
  if (eq === -1 || !envNameIsValid(name)) {
    const hint =
      eq === -1
        ? ' (no "=")'
        : name.length === 0
          ? ' (empty name)'
          : ' (a name is letters, digits and "_", not starting with a digit)';
    problems.push(finding('environment-invalid', 'warning', w.span, `Invalid environment assignment, ignoring: ${text}${hint}`));
    return;
  }
  assignments.push(new WordAssignment(name, text.slice(eq + 1), eq, w, spec?.map));
}

/**
 * `NAME=value` read from one word of Environment=. Its positions are worked out when first read: a drop-in can
 * set thousands of variables, and the rules place findings on a few (bench: unit-large).
 */
class WordAssignment implements EnvAssignment {
  private nameSpanCache: Span | undefined = undefined;
  private valueMapCache: TextMap | undefined = undefined;
  constructor(
    readonly name: string,
    readonly value: string,
    private readonly eq: number,
    private readonly word: LazyWord,
    /** The map of `text` when specifiers changed it; else the word's. */
    private readonly textMap: TextMap | undefined,
  ) {}
  get nameSpan(): Span {
    return (this.nameSpanCache ??= (this.textMap ?? this.word.map).span(0, this.eq));
  }
  get valueMap(): TextMap {
    return (this.valueMapCache ??= (this.textMap ?? this.word.map).slice(this.eq + 1, this.eq + 1 + this.value.length));
  }
  get span(): Span {
    return this.word.span;
  }
  toJSON(): EnvAssignment {
    return plainAssignment(this);
  }
}

/** An assignment whose positions are read on demand, as the plain object its JSON and test comparisons see. */
export function plainAssignment(a: EnvAssignment): EnvAssignment {
  return { name: a.name, value: a.value, nameSpan: a.nameSpan, valueMap: a.valueMap, span: a.span };
}

/**
 * Environment="NAME=value" read directly (see readEnvironmentDirective). Its word, and the WordAssignment that
 * places it, are made from the directive when a position is first asked for: a drop-in can set thousands of
 * variables this way, and the rules place findings on a few.
 */
class QuotedAssignment implements EnvAssignment {
  private placed: WordAssignment | undefined = undefined;
  constructor(
    readonly name: string,
    readonly value: string,
    private readonly d: UnitDirective,
  ) {}
  private get full(): WordAssignment {
    if (this.placed === undefined) {
      const raw = this.d.value;
      this.placed = new WordAssignment(this.name, this.value, this.name.length, new LazyWord(raw.slice(1, raw.length - 1), 0, raw.length, this.d, null, 1), undefined);
    }
    return this.placed;
  }
  get nameSpan(): Span {
    return this.full.nameSpan;
  }
  get valueMap(): TextMap {
    return this.full.valueMap;
  }
  get span(): Span {
    return this.full.span;
  }
  toJSON(): EnvAssignment {
    return this.full.toJSON();
  }
}
