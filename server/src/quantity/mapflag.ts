// Map-valued flag syntaxes, with offsets into the flag value.
//
// kubernetes/kubernetes staging/src/k8s.io/component-base/cli/flag:
//   map_string_string.go MapStringString.Set (comma-separated pairs, the default): strings.Split(value, ","),
//     empty items skipped (len(s) == 0 only: " " is NOT empty), strings.SplitN(s, "=", 2), no "=" ->
//     `malformed pair, expect string=string`; key and value strings.TrimSpace'd; later keys overwrite earlier ones;
//     empty key and empty value are accepted. With DisableCommaSeparatedPairs the whole value is one pair.
//   langle_separated_map_string_string.go LangleSeparatedMapStringString.Set: same with "<",
//     error `malformed pair, expect string<string`.
//   map_string_bool.go MapStringBool.Set: same with "=", error `malformed pair, expect string=bool`;
//     strconv.ParseBool(v) failure -> `invalid value of <k>: <v>, err: strconv.ParseBool: parsing "<v>": invalid syntax`.
//   All three: the FIRST Set clears the map (config-file values are replaced, not merged); later Sets accumulate.
// k8s.io/component-base/featuregate/feature_gate.go featureGate.Set (what --feature-gates really uses):
//   missing "=" -> `missing bool value for <k>`; bad bool -> `invalid value of <k>=<v>, err: strconv.ParseBool: ...`;
//   then SetFromMap rejects unknown gates (`unrecognized feature gate: <k>`, not checked here).
// Set returns at the first error; so do these parsers (entries before it are returned, nothing after).

export interface MapEntry {
  key: string;
  value: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** parseMapStringBool only: the strconv.ParseBool result */
  bool?: boolean;
}

export interface MapError {
  message: string;
  start: number;
  end: number;
}

export interface MapParse {
  entries: MapEntry[];
  errors: MapError[];
}

/** unicode.IsSpace (what strings.TrimSpace trims). Unlike JS trim(), U+0085 is space and U+FEFF is not. */
export function isGoSpace(c: number): boolean {
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * The pairs of strings.Split(value, ",") items (or the whole value when `split` is false), cut at `sep`, keys and
 * values strings.TrimSpace'd. One pass, no generators or tuples: a command line can hold thousands of these.
 */
function parsePairs(value: string, sep: string, malformed: string | ((key: string) => string), split: boolean, allowEmpty: boolean): MapParse {
  // Most values hold one pair: an array literal of one, not a `[]` that grows 17 slots on its first push.
  let entries: MapEntry[] | undefined;
  let errors: MapError[] = NO_ERRORS;
  let s = 0;
  for (;;) {
    const comma = split ? value.indexOf(',', s) : -1;
    const e = comma < 0 ? value.length : comma;
    if (!(e === s && allowEmpty)) {
      // len(s) == 0 items are skipped
      const at = value.indexOf(sep, s);
      if (at < 0 || at >= e) {
        let ts = s;
        let te = e;
        while (ts < te && isGoSpace(value.charCodeAt(ts))) ts++;
        while (te > ts && isGoSpace(value.charCodeAt(te - 1))) te--;
        const msg = typeof malformed === 'string' ? malformed : malformed(value.slice(ts, te));
        errors = [{ message: msg, start: te > ts ? ts : s, end: te > ts ? te : e }];
        break;
      }
      let ks = s;
      let ke = at;
      while (ks < ke && isGoSpace(value.charCodeAt(ks))) ks++;
      while (ke > ks && isGoSpace(value.charCodeAt(ke - 1))) ke--;
      let vs = at + 1;
      let ve = e;
      while (vs < ve && isGoSpace(value.charCodeAt(vs))) vs++;
      while (ve > vs && isGoSpace(value.charCodeAt(ve - 1))) ve--;
      const entry: MapEntry = { key: value.slice(ks, ke), value: value.slice(vs, ve), keyStart: ks, keyEnd: ke, valueStart: vs, valueEnd: ve };
      if (entries) entries.push(entry);
      else entries = [entry];
    }
    if (comma < 0) break;
    s = comma + 1;
  }
  return { entries: entries ?? [], errors };
}

/** The errors of a value without any (shared: Set stops at the first error, so a parse has at most one). */
const NO_ERRORS: MapError[] = Object.freeze([]) as unknown as MapError[];

export interface MapStringStringOptions {
  /** MapStringStringOptions.DisableCommaSeparatedPairs: the whole value is a single key=value. */
  disableCommaSeparatedPairs?: boolean;
}

/** MapStringString.Set (e.g. --kube-reserved, --system-reserved, --eviction-soft-grace-period). */
export function parseMapStringString(value: string, opts: MapStringStringOptions = {}): MapParse {
  const split = !opts.disableCommaSeparatedPairs;
  // Without comma splitting Go does not skip an empty value: "" -> malformed pair.
  return parsePairs(value, '=', 'malformed pair, expect string=string', split, split);
}

/** LangleSeparatedMapStringString.Set (--eviction-hard, --eviction-soft, --eviction-minimum-reclaim). */
export function parseLangleMap(value: string): MapParse {
  return parsePairs(value, '<', 'malformed pair, expect string<string', true, true);
}

export interface MapStringBoolOptions {
  /**
   * 'featureGate' (default): featuregate.featureGate.Set messages, as --feature-gates uses.
   * 'mapStringBool': cli/flag MapStringBool.Set messages.
   */
  style?: 'featureGate' | 'mapStringBool';
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** strconv.ParseBool. */
export function parseGoBool(s: string): boolean | undefined {
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return undefined;
}

/** strconv.Quote for the ASCII cases that matter in a flag value. */
function quote(s: string): string {
  if (isPlainAscii(s)) return '"' + s + '"';
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c === 9) out += '\\t';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

/** Feature gates `Name=true,Other=false` (featureGate.Set / MapStringBool.Set). */
export function parseMapStringBool(value: string, opts: MapStringBoolOptions = {}): MapParse {
  const fg = (opts.style ?? 'featureGate') === 'featureGate';
  const base = parsePairs(value, '=', fg ? (k) => `missing bool value for ${k}` : 'malformed pair, expect string=bool', true, true);
  const entries: MapEntry[] = [];
  for (const e of base.entries) {
    const b = parseGoBool(e.value);
    if (b === undefined) {
      const err = `strconv.ParseBool: parsing ${quote(e.value)}: invalid syntax`;
      const message = fg ? `invalid value of ${e.key}=${e.value}, err: ${err}` : `invalid value of ${e.key}: ${e.value}, err: ${err}`;
      const start = e.valueEnd > e.valueStart ? e.valueStart : e.keyStart;
      const end = e.valueEnd > e.valueStart ? e.valueEnd : e.valueEnd;
      return { entries, errors: [{ message, start, end }] };
    }
    entries.push({ key: e.key, value: e.value, keyStart: e.keyStart, keyEnd: e.keyEnd, valueStart: e.valueStart, valueEnd: e.valueEnd, bool: b });
  }
  return { entries, errors: base.errors };
}

/** Printable ASCII without '"' or '\\': quoting adds only the quotes. */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 34 || c === 92) return false;
  }
  return true;
}
