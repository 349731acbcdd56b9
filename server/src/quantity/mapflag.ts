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
 * Where the pairs of a value are: strings.Split(value, ",") items (or the whole value when `split` is false), cut
 * at `sep`, keys and values strings.TrimSpace'd. `pairs` gets keyStart, keyEnd, valueStart, valueEnd for each pair
 * (the caller's scratch array); the result is how many. A malformed item stops the scan, as Set does, and is left in
 * `bad` ([itemStart, itemEnd), or -1). One pass, no objects: a command line can hold thousands of these, and
 * flag-duplicate reads every --node-labels.
 */
interface PairScratch {
  pairs: number[];
  bad: { start: number; end: number };
}

const pairScratch = (): PairScratch => ({ pairs: [], bad: { start: -1, end: -1 } });

function scanPairs(value: string, sep: string, split: boolean, allowEmpty: boolean, scratch: PairScratch): number {
  const { pairs: PAIRS, bad: BAD } = scratch;
  let n = 0;
  BAD.start = -1;
  let s = 0;
  for (;;) {
    const comma = split ? value.indexOf(',', s) : -1;
    const e = comma < 0 ? value.length : comma;
    if (!(e === s && allowEmpty)) {
      // len(s) == 0 items are skipped
      const at = value.indexOf(sep, s);
      if (at < 0 || at >= e) {
        BAD.start = s;
        BAD.end = e;
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
      PAIRS[4 * n] = ks;
      PAIRS[4 * n + 1] = ke;
      PAIRS[4 * n + 2] = vs;
      PAIRS[4 * n + 3] = ve;
      n++;
    }
    if (comma < 0) break;
    s = comma + 1;
  }
  return n;
}

/** scanPairs() as entries, with the malformed item as an error. */
function parsePairs(value: string, sep: string, malformed: string | ((key: string) => string), split: boolean, allowEmpty: boolean): MapParse {
  const scratch = pairScratch();
  const { pairs: PAIRS, bad: BAD } = scratch;
  const n = scanPairs(value, sep, split, allowEmpty, scratch);
  const entries: MapEntry[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const ks = PAIRS[4 * i];
    const ke = PAIRS[4 * i + 1];
    const vs = PAIRS[4 * i + 2];
    const ve = PAIRS[4 * i + 3];
    entries[i] = { key: value.slice(ks, ke), value: value.slice(vs, ve), keyStart: ks, keyEnd: ke, valueStart: vs, valueEnd: ve };
  }
  let errors = NO_ERRORS;
  if (BAD.start >= 0) {
    const s = BAD.start;
    const e = BAD.end;
    let ts = s;
    let te = e;
    while (ts < te && isGoSpace(value.charCodeAt(ts))) ts++;
    while (te > ts && isGoSpace(value.charCodeAt(te - 1))) te--;
    const msg = typeof malformed === 'string' ? malformed : malformed(value.slice(ts, te));
    errors = [{ message: msg, start: te > ts ? ts : s, end: te > ts ? te : e }];
  }
  return { entries, errors };
}

/**
 * The keys and values of a MapStringString (`sep` "=") or LangleSeparatedMapStringString (`sep` "<") value, or
 * with `bool` of a MapStringBool / feature-gate value, as Set reads them up to a malformed pair (or, with `bool`, a
 * value strconv.ParseBool rejects), each key once with its last value (a key repeated inside one value is
 * overwritten): into `keys` and `values`, returning how many. Strings only, no entry objects (flag-duplicate
 * reads every use of a repeated map flag).
 */
export function mapKeyValues(value: string, sep: '=' | '<', keys: string[], values: string[], bool = false): number {
  const scratch = pairScratch();
  const PAIRS = scratch.pairs;
  const n = scanPairs(value, sep, true, true, scratch);
  // Where each key went: a Map only for values with many pairs; the usual one or few are compared directly.
  const at = n > 8 ? new Map<string, number>() : undefined;
  let out = 0;
  for (let i = 0; i < n; i++) {
    const k = value.slice(PAIRS[4 * i], PAIRS[4 * i + 1]);
    const v = value.slice(PAIRS[4 * i + 2], PAIRS[4 * i + 3]);
    if (bool && parseGoBool(v) === undefined) break;
    let j = -1;
    if (at) j = at.get(k) ?? -1;
    else for (let x = 0; x < out; x++) if (keys[x] === k) j = x;
    if (j >= 0) values[j] = v;
    else {
      keys[out] = k;
      values[out] = v;
      at?.set(k, out);
      out++;
    }
  }
  return out;
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
