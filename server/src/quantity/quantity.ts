// resource.Quantity as k8s.io/apimachinery implements it.
//
// Sources (kubernetes/apimachinery, mirror HEAD eed236c 2026-07-23):
//   pkg/api/resource/quantity.go  parseQuantityString, ParseQuantity, CanonicalizeBytes, Value, MilliValue, ScaledValue, Add, Sub
//   pkg/api/resource/suffix.go    fastLookup.interpret, suffixHandler.interpret (exponent: strconv.ParseInt(_, 10, 64) then int32()), constructBytes
//   pkg/api/resource/amount.go    int64Amount.AsScaledInt64 / AsCanonicalBytes, infDecAmount.AsCanonicalBytes
//   pkg/api/resource/math.go      maxInt64Factors = 18, maxAllowed = 2^63-1, positiveScaleInt64, negativeScaleInt64
//   pkg/api/resource/scale_int.go scaledValue (the inf.Dec path of Value/MilliValue)
//
// Behaviour mirrored, including the odd corners:
//   - Empty string: ErrFormatWrong. "0" is special-cased to DecimalSI zero.
//   - The scanner accepts a bare sign or dot ("-", "+", ".", "-.") as zero, and a bare suffix
//     ("Ki", "k", "m", "e5") as zero: the numerator defaults to "0". Exception: ".Pi", ".Ei", "-Ei" take the
//     inf.Dec path, whose SetString needs a digit, so they fail with ErrNumeric.
//   - Fast path (int64Amount) when precision >= 0 and scale >= -9: DecimalSI/DecimalExponent with at most
//     18 digits in total (maxInt64Factors), BinarySI without fraction whose product fits int64 and with
//     15 - len(num) - exponent*3/10 - 1 >= 0. Everything else goes through inf.Dec ("dec" path).
//   - The dec path rounds every non-zero value away from zero to nano precision ("0.9n" -> "1n",
//     "-0.1n" -> "-1n"). The fast path never needs rounding (scale >= -9 there).
//   - BinarySI parsed through the dec path is silently capped at 2^63-1 in magnitude ("8Ei", "-9Ei").
//     A non-zero BinarySI value with magnitude < 1 becomes DecimalSI ("0.000000000001Ki" -> "2n").
//   - The exponent after e/E is parsed with strconv.ParseInt(_, 10, 64) (so > 19 digits that overflow int64
//     are ErrSuffix) and then truncated with int32(): "1e4294967296" is 1, "1e-2147483648" is 10^2147483648.
//     Scale arithmetic (scale - len(denom), inf.Dec scale + -exponent) is int32 and wraps too.
//   - No negative zero: "-0", "-0.0", "-0Ki" are zero (Sign() == 0, String() "0"), keeping their format.
//
// Limits of this analyzer (apimachinery has none of these; they keep every keystroke bounded):
//   - A value whose significant digits (after rounding to nano) exceed MAX_DIGITS is rejected with
//     `analyzerLimit: true`; apimachinery would accept it. A "1e999999"-style value (few digits, huge
//     exponent) is represented exactly as coefficient * 10^exponent and is fine.
//   - apimachinery itself materialises 10^(9-scale) in inf.Dec.Round for dec-path values with a huge
//     exponent (e.g. 19+ digits followed by e2000000000): it would take minutes or run out of memory.
//     We never materialise such powers.
//   - add/sub of operands whose aligned size exceeds ALIGN_CAP digits return the dominant operand, marked
//     `approximate: true`.

export type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** Exact value is coef * 10^exp. coef has no trailing zeros; zero is coef 0, exp 0. */
  readonly coef: bigint;
  readonly exp: number;
  /** Decimal digits of |coef| (1 for zero). */
  readonly digits: number;
  readonly format: Format;
  /** Which of apimachinery's two internal forms holds the value: int64Amount ('int64') or inf.Dec ('dec'). */
  readonly repr: 'int64' | 'dec';
  /** Go's unscaled integer is value / 10^goExp (int64Amount.scale, or -inf.Dec.Scale()). Matters for Value(). */
  readonly goExp: number;
  /** Set only by add/sub beyond ALIGN_CAP: the result is the dominant operand, not the exact sum. */
  readonly approximate?: boolean;
  /**
   * The text as parsed, when ParseQuantity keeps it (quantity.go: an int64 value already in canonical form, e.g.
   * "100Mi", "+5", "1.500", "1e4294967296"): String() then gives it back as written, not recomputed.
   */
  readonly written?: string;
}

export type ParseResult = { ok: true; q: Quantity } | { ok: false; error: string; analyzerLimit?: boolean };

/** Largest number of significant digits kept exactly (BigInt parse of 10k digits is ~0.5 ms). */
export const MAX_DIGITS = 10000;
/** Largest aligned coefficient (digits) add/sub/cmp will build. */
export const ALIGN_CAP = 20000;

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64_FACTORS = 18; // math.go maxInt64Factors
const NANO = -9; // amount.go Nano

const toInt32 = (n: number): number => n | 0;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Build a Quantity from an exact coefficient and exponent, stripping trailing zeros. */
function make(coef: bigint, exp: number, format: Format, repr: 'int64' | 'dec', goExp: number, approximate?: boolean): Quantity {
  if (coef === 0n) return { coef: 0n, exp: 0, digits: 1, format, repr, goExp, ...(approximate ? { approximate } : {}) };
  let s = (coef < 0n ? -coef : coef).toString();
  let z = s.length;
  while (z > 1 && s.charCodeAt(z - 1) === 48) z--;
  if (z !== s.length) {
    const strip = s.length - z;
    coef = coef / pow10(strip);
    exp += strip;
    s = s.slice(0, z);
  }
  const q: Quantity = { coef, exp, digits: s.length, format, repr, goExp };
  return approximate ? { ...q, approximate } : q;
}

/** Like make() but from a digit string (no sign), avoiding a BigInt round trip for sizing. */
function makeFromDigits(neg: boolean, digits: string, exp: number, format: Format, repr: 'int64' | 'dec', goExp: number): ParseResult {
  let a = 0;
  while (a < digits.length && digits.charCodeAt(a) === 48) a++;
  if (a === digits.length) return { ok: true, q: make(0n, 0, format, repr, goExp) };
  let z = digits.length;
  while (z > a && digits.charCodeAt(z - 1) === 48) z--;
  const sig = digits.slice(a, z);
  if (sig.length > MAX_DIGITS) return limitError(sig.length);
  const c = BigInt(sig);
  return { ok: true, q: { coef: neg ? -c : c, exp: exp + (digits.length - z), digits: sig.length, format, repr, goExp } };
}

function limitError(n: number): ParseResult {
  return {
    ok: false,
    analyzerLimit: true,
    error: `quantity has ${n} significant digits; this analyzer handles at most ${MAX_DIGITS} (apimachinery would accept it)`,
  };
}

interface Scanned {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** quantity.go parseQuantityString, character for character. */
function scan(str: string): Scanned | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    const c = str.charCodeAt(0);
    if (c === 45 /* - */) {
      positive = false;
      pos++;
    } else if (c === 43 /* + */) pos++;
  }
  // strip leading zeros
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
    if (str.charCodeAt(i) === 48) pos++;
    else break;
  }
  let num = '';
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: str.slice(0, end), num: str.slice(pos, end), denom: '', suffix: '' };
    if (!isDigit(str.charCodeAt(i))) {
      num = str.slice(pos, i);
      pos = i;
      break;
    }
  }
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str.charCodeAt(pos) === 46 /* . */) {
    pos++;
    for (let i = pos; ; i++) {
      if (i >= end) return { positive, value: str.slice(0, end), num, denom: str.slice(pos, end), suffix: '' };
      if (!isDigit(str.charCodeAt(i))) {
        denom = str.slice(pos, i);
        pos = i;
        break;
      }
    }
    // "we currently allow 1.G" (quantity.go TODO)
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart, end) };
    if ('eEinumkKMGTP'.indexOf(str[i]!) < 0) {
      pos = i;
      break;
    }
  }
  if (pos < end) {
    const c = str.charCodeAt(pos);
    if (c === 45 || c === 43) pos++;
  }
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart, end) };
    if (!isDigit(str.charCodeAt(i))) break;
  }
  return undefined; // ErrFormatWrong
}

/** strconv.ParseInt(s, 10, 64): optional sign, ASCII digits only, int64 range. */
export function goParseInt64(s: string): bigint | undefined {
  let i = 0;
  let neg = false;
  if (s.length > 0 && (s[0] === '+' || s[0] === '-')) {
    neg = s[0] === '-';
    i = 1;
  }
  if (i >= s.length) return undefined;
  let first = -1;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (!isDigit(c)) return undefined;
    if (first < 0 && c !== 48) first = j;
  }
  if (first < 0) return 0n;
  if (s.length - first > 19) return undefined; // out of range
  const v = BigInt(s.slice(first));
  const r = neg ? -v : v;
  if (r > MAX_INT64 || r < MIN_INT64) return undefined;
  return r;
}

interface Interp {
  base: 10 | 2;
  exponent: number;
  format: Format;
}

const DEC_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** suffix.go fastLookup.interpret + suffixHandler.interpret. */
function interpret(s: string): Interp | undefined {
  if (Object.prototype.hasOwnProperty.call(DEC_SUFFIX, s)) return { base: 10, exponent: DEC_SUFFIX[s]!, format: 'DecimalSI' };
  if (Object.prototype.hasOwnProperty.call(BIN_SUFFIX, s)) return { base: 2, exponent: BIN_SUFFIX[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E')) {
    const p = goParseInt64(s.slice(1));
    if (p === undefined) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, p)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** Results of short strings already parsed (rules read the same reservations and thresholds several times per analysis, and the language server re-analyses on every keystroke). Frozen: shared. */
const PARSED = new Map<string, ParseResult>();

/** resource.ParseQuantity. */
export function parseQuantity(str: string): ParseResult {
  if (str.length > 64) return parseQuantityUncached(str);
  let r = PARSED.get(str);
  if (r === undefined) {
    r = parseQuantityUncached(str);
    if (r.ok) Object.freeze(r.q);
    Object.freeze(r);
    if (PARSED.size >= 2048) PARSED.clear();
    PARSED.set(str, r);
  }
  return r;
}

function parseQuantityUncached(str: string): ParseResult {
  if (str.length === 0) return { ok: false, error: ERR_FORMAT_WRONG };
  if (str === '0') return { ok: true, q: make(0n, 0, 'DecimalSI', 'int64', 0) };

  const sc = scan(str);
  if (!sc) return { ok: false, error: ERR_FORMAT_WRONG };
  const { positive, value, num, denom } = sc;
  const it = interpret(sc.suffix);
  if (!it) return { ok: false, error: ERR_SUFFIX };
  let { format } = it;
  const { base, exponent } = it;

  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      // int32(float32(exponent)*3/10), in float32
      const f = Math.trunc(Math.fround(Math.fround(Math.fround(exponent) * 3) / 10));
      precision = 15 - num.length - f - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  }

  if (precision >= 0) {
    scale = toInt32(scale - denom.length);
    if (scale >= NANO) {
      const shifted = num + denom; // at most 18 digits here
      const v = BigInt(shifted);
      let result = v * mantissa;
      if (result <= MAX_INT64) {
        if (!positive) result = -result;
        const q = make(result, scale, format, 'int64', scale);
        // ParseQuantity keeps the string when the value is in canonical form already (k8s.io/apimachinery
        // pkg/api/resource/quantity.go, v0.37): binary with a suffix of 2^(10k) and a value not a multiple of 8;
        // decimal with a scale that is a multiple of 3 and digits without leading 0 or trailing 000.
        const keep = format === 'BinarySI' ? exponent % 10 === 0 && (v & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return { ok: true, q: keep ? { ...q, written: str } : q };
      }
    }
  }

  // inf.Dec path. SetString(value): optional sign, digits, at most one '.', at least one digit.
  let i = 0;
  if (i < value.length && (value[0] === '+' || value[0] === '-')) i = 1;
  let digits = '';
  let infScale = 0;
  const dot = value.indexOf('.', i);
  if (dot >= 0) {
    digits = value.slice(i, dot) + value.slice(dot + 1);
    infScale = value.length - dot - 1;
  } else digits = value.slice(i);
  if (digits.length === 0) return { ok: false, error: ERR_NUMERIC };
  const neg = !positive;

  if (base === 10) {
    // amount.SetScale(amount.Scale() + Scale(exponent).infScale()), all int32
    infScale = toInt32(infScale + toInt32(-exponent));
    // value = digits * 10^-infScale. Round up (away from zero) to inf scale 9.
    if (infScale > 9) {
      const k = infScale - 9;
      let a = 0;
      while (a < digits.length && digits.charCodeAt(a) === 48) a++;
      const sig = digits.slice(a);
      if (sig.length === 0) return { ok: true, q: make(0n, 0, format, 'dec', 0) };
      let coefDigits: string;
      let bump = false;
      if (k >= sig.length) {
        coefDigits = '0';
        bump = true; // 0 < value < 1n
      } else {
        coefDigits = sig.slice(0, sig.length - k);
        const rest = sig.slice(sig.length - k);
        for (let j = 0; j < rest.length; j++) {
          if (rest.charCodeAt(j) !== 48) {
            bump = true;
            break;
          }
        }
      }
      if (!bump) return makeFromDigits(neg, coefDigits, NANO, format, 'dec', NANO);
      if (coefDigits.length > MAX_DIGITS + 1) return limitError(coefDigits.length);
      const c = BigInt(coefDigits) + 1n;
      return { ok: true, q: make(neg ? -c : c, NANO, format, 'dec', NANO) };
    }
    return makeFromDigits(neg, digits, -infScale, format, 'dec', NANO);
  }

  // base 2: unscaled * 2^exponent, then round up to nano, cap at 2^63-1, <1 -> DecimalSI.
  let a = 0;
  while (a < digits.length && digits.charCodeAt(a) === 48) a++;
  const sig = digits.slice(a);
  if (sig.length === 0) return { ok: true, q: make(0n, 0, format, 'dec', 0) };
  if (sig.length > MAX_DIGITS) return limitError(sig.length);
  let u = BigInt(sig) << BigInt(exponent);
  let e = -infScale;
  if (infScale > 9) {
    const k = infScale - 9;
    const uDigits = u.toString().length;
    if (k >= uDigits) u = 1n;
    else {
      const d = pow10(k);
      const q = u / d;
      u = u % d === 0n ? q : q + 1n;
    }
    e = NANO;
  }
  let goExp = NANO;
  // compare u*10^e with 2^63-1
  let over = false;
  if (e >= 0) over = e > 19 || u * pow10(e) > MAX_INT64;
  else over = u > MAX_INT64 * pow10(-e);
  if (over) {
    u = MAX_INT64;
    e = 0;
    goExp = 0; // amount.Set(maxAllowed.Dec): scale 0
  } else if (e < 0 && u < pow10(-e)) {
    format = 'DecimalSI';
  }
  return { ok: true, q: make(neg ? -u : u, e, format, 'dec', goExp) };
}

/** Convenience: parse or throw (tests, constants). */
export function mustParse(s: string): Quantity {
  const r = parseQuantity(s);
  if (!r.ok) throw new Error(`cannot parse '${s}': ${r.error}`);
  return r.q;
}

/** resource.NewQuantity(value, format): int64Amount{value, 0}. */
export function newQuantity(v: bigint, format: Format = 'DecimalSI'): Quantity {
  return make(BigInt.asIntN(64, v), 0, format, 'int64', 0);
}

/** resource.NewMilliQuantity(value, format): int64Amount{value, -3}. */
export function newMilliQuantity(v: bigint, format: Format = 'DecimalSI'): Quantity {
  return make(BigInt.asIntN(64, v), -3, format, 'int64', -3);
}

// ---------------------------------------------------------------------------------------------
// Canonical form (quantity.go CanonicalizeBytes / String)

const DEC_SUFFIX_BY_EXP: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BIN_SUFFIX_BY_TIMES: Record<number, string> = { 1: 'Ki', 2: 'Mi', 3: 'Gi', 4: 'Ti', 5: 'Pi', 6: 'Ei' };

export interface CanonicalOptions {
  /**
   * DecimalSI values needing an exponent above 18 ("1000E" = 1e21) have no SI suffix. Released apimachinery (checked:
   * v0.37.2, by the kubelet oracle in test/oracle) ignores constructBytes' ok flag and prints NO suffix at all ("1000E"
   * -> "1", silently a different value): that is the default here. A revision after it (357557a, seen in the code
   * index) falls back to e-notation ("1e21"), which parses back to the same value: set reparseable for that.
   */
  reparseable?: boolean;
}

/** apimachinery's String(): canonical form keeping the format family, largest exact suffix, no fraction. */
export function canonical(q: Quantity, opts: CanonicalOptions = {}): string {
  if (q.written !== undefined) return q.written;
  if (q.coef === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    // -1024 < q < 1024 -> DecimalSI; not an integer (AsScale(0) inexact) -> DecimalSI
    const small = q.exp < 0 || (q.digits + q.exp <= 4 && abs(q.coef) * pow10(q.exp) < 1024n);
    if (small || q.exp < 0) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    // AsCanonicalBase1024Bytes: strip factors of 1024.
    if (q.digits + q.exp > MAX_DIGITS) {
      // Beyond the analyzer's exact range: show it in exponent notation instead of materialising it.
      return canonical({ ...q, format: 'DecimalExponent' }, opts);
    }
    const v = q.coef * pow10(q.exp);
    const av = abs(v);
    const tz = trailingZeroBits(av);
    const times = Math.floor(tz / 10);
    const m = av >> BigInt(times * 10);
    return (v < 0n ? '-' : '') + m.toString() + (BIN_SUFFIX_BY_TIMES[times] ?? '');
  }
  // AsCanonicalBytes: mantissa without factors of 10, exponent lowered to a multiple of 3 (int32 arithmetic).
  let e = toInt32(q.exp);
  let m = q.coef;
  if (q.repr === 'int64') {
    const r = e % 3;
    if (r === 1 || r === -2) {
      m *= 10n;
      e = toInt32(e - 1);
    } else if (r === 2 || r === -1) {
      m *= 100n;
      e = toInt32(e - 2);
    }
  } else {
    while (e % 3 !== 0) {
      m *= 10n;
      e = toInt32(e - 1);
    }
  }
  let suffix: string;
  if (format === 'DecimalExponent') suffix = e === 0 ? '' : `e${e}`;
  else {
    const s = DEC_SUFFIX_BY_EXP[e];
    suffix = s !== undefined ? s : opts.reparseable ? `e${e}` : '';
  }
  return m.toString() + suffix;
}

function trailingZeroBits(v: bigint): number {
  if (v === 0n) return 0;
  let n = 0;
  while ((v & 0xffffffffn) === 0n) {
    v >>= 32n;
    n += 32;
  }
  while ((v & 1n) === 0n) {
    v >>= 1n;
    n++;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Value / MilliValue (quantity.go ScaledValue; amount.go AsScaledInt64; scale_int.go scaledValue)

/**
 * ceil-ish conversion to int64 at 10^target, exactly as apimachinery does it, overflow included.
 * - int64Amount path: rounds away from zero ("-1.5" -> -2); if the result does not fit int64 it returns 0
 *   (positiveScaleInt64 reports overflow and ScaledValue drops it): "10E".Value() == 0, "1e999999".Value() == 0.
 * - inf.Dec path (scaledValue): positives round up; negatives take `int64 / 10^d` (toward zero) plus 1
 *   when inexact, so "-1.5000000000000000000" (dec path) gives Value() == 0, not -1 or -2. Beyond int64 the
 *   result is the low 64 bits (big.Int.Int64), e.g. the 2^63-1 cap of "8Ei" gives MilliValue() == -1000
 *   (int64 wrap of (2^63-1)*1000).
 */
export function scaledValue(q: Quantity, target: number): bigint {
  if (q.coef === 0n) return 0n;
  if (q.repr === 'int64') {
    // int64Amount.AsScaledInt64 on Go's own (value, scale), its `ok` dropped by ScaledValue
    const v = q.coef * pow10(q.exp - q.goExp);
    // the comparison is on the scales, the difference is an int32 Scale that may wrap ("1e2147483647" at milli)
    if (q.goExp >= target) return positiveScaleInt64(v, toInt32(q.goExp - target));
    const div = pow10(target - q.goExp);
    const t = v / div;
    return v % div === 0n ? t : v > 0n ? t + 1n : t - 1n;
  }
  // dec: unscaled U = coef * 10^(exp - goExp), inf scale = -goExp; newScale = -target
  const t = q.exp - q.goExp; // >= 0
  const dif = target - q.goExp;
  const low64 = (): bigint => (t >= 64 ? 0n : BigInt.asIntN(64, q.coef * pow10(t)));
  if (dif === 0) return low64();
  if (dif < 0) {
    const n = -dif;
    const f = n <= 18 ? pow10(n) : MIN_INT64; // int64(math.Pow10(n)) on amd64: out of range -> 0x8000000000000000
    return BigInt.asIntN(64, low64() * f);
  }
  const uLessThanMax = q.coef < 0n || (q.digits + t <= 19 && q.coef * pow10(t) < MAX_INT64);
  if (uLessThanMax && dif < 19) {
    const u = low64();
    const d = pow10(dif);
    const r = u / d; // Go int64 division truncates
    return u % d !== 0n ? BigInt.asIntN(64, r + 1n) : r;
  }
  // big.Int DivMod (Euclidean: floor for a positive divisor), +1 when inexact, then Int64() low bits.
  let quo: bigint;
  let inexact: boolean;
  if (t >= dif) {
    const k = t - dif;
    quo = k >= 64 ? 0n : q.coef * pow10(k); // only the low 64 bits matter
    inexact = false;
  } else {
    const u = q.coef * pow10(t);
    const d = pow10(dif);
    quo = u / d;
    const rem = u % d;
    if (rem < 0n) quo -= 1n;
    inexact = rem !== 0n;
  }
  return BigInt.asIntN(64, BigInt.asIntN(64, quo) + (inexact ? 1n : 0n));
}

/**
 * math.go positiveScaleInt64: v * 10^n in int64. For n of 1, 2, 3, 6 and 9 it multiplies once and an overflow keeps
 * the wrapped product ("9223372036855M".Value() is -9223372036854551616); for other n it multiplies by 10 step by
 * step and an overflow gives 0. The most negative int64 gives 0 either way. n is an int32 Scale: when the difference of
 * two scales wrapped negative, v comes back as it is ("1e2147483647".MilliValue() is 1).
 */
function positiveScaleInt64(v: bigint, n: number): bigint {
  if (n <= 0 || v === 0n) return v; // a wrapped (negative) n: the loop does not run
  if (n === 1 || n === 2 || n === 3 || n === 6 || n === 9) return v === MIN_INT64 ? 0n : BigInt.asIntN(64, v * pow10(n));
  let x = v;
  for (let i = 0; i < n; i++) {
    if (x === 0n || x === 1n) {
      x *= 10n;
      continue;
    }
    if (x === MIN_INT64) return 0n;
    const c = BigInt.asIntN(64, x * 10n);
    if (c / 10n !== x) return 0n;
    x = c;
  }
  return x;
}

/** Quantity.Value(): see scaledValue for rounding and what happens beyond int64. */
export function value(q: Quantity): bigint {
  return scaledValue(q, 0);
}

/** Quantity.MilliValue(): ceil(q*1000) (see scaledValue); overflows like apimachinery beyond int64. */
export function milliValue(q: Quantity): bigint {
  return scaledValue(q, -3);
}

/** Exact value in nano units, or undefined when it would exceed MAX_DIGITS digits. */
export function nanos(q: Quantity): bigint | undefined {
  if (q.coef === 0n) return 0n;
  if (q.digits + q.exp + 9 > MAX_DIGITS) return undefined;
  return q.coef * pow10(q.exp + 9); // exp >= -9 always
}

/** Exact integer value rounded up (ceil, toward +inf), without apimachinery's overflow; undefined if huge. */
export function exactCeil(q: Quantity, target = 0): bigint | undefined {
  if (q.coef === 0n) return 0n;
  if (q.exp >= target) {
    if (q.digits + q.exp - target > MAX_DIGITS) return undefined;
    return q.coef * pow10(q.exp - target);
  }
  const d = pow10(target - q.exp);
  const t = q.coef / d;
  return q.coef % d !== 0n && q.coef > 0n ? t + 1n : t;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic on exact values

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

export function isZero(q: Quantity): boolean {
  return q.coef === 0n;
}

export function isNegative(q: Quantity): boolean {
  return q.coef < 0n;
}

export function sign(q: Quantity): -1 | 0 | 1 {
  return q.coef === 0n ? 0 : q.coef < 0n ? -1 : 1;
}

/** Exact comparison: -1, 0 or 1. */
export function cmp(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const sa = sign(a);
  const sb = sign(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const ma = a.digits + a.exp;
  const mb = b.digits + b.exp;
  let r: -1 | 0 | 1;
  if (ma !== mb) r = ma < mb ? -1 : 1;
  else {
    const e = Math.min(a.exp, b.exp);
    const x = abs(a.coef) * pow10(a.exp - e);
    const y = abs(b.coef) * pow10(b.exp - e);
    r = x === y ? 0 : x < y ? -1 : 1;
  }
  return sa < 0 && r !== 0 ? ((-r) as -1 | 1) : r;
}

function neg(q: Quantity): Quantity {
  return { ...q, coef: -q.coef, written: undefined };
}

function goUnscaled(q: Quantity): bigint {
  return q.coef * pow10(q.exp - q.goExp);
}

/**
 * Exact a + b. Format and internal form follow Quantity.Add: the result takes b's format when a is zero;
 * it stays int64Amount when both are and int64Amount.Add does not overflow, else inf.Dec.
 */
export function add(a: Quantity, b: Quantity): Quantity {
  const format = a.coef === 0n ? b.format : a.format;
  let repr: 'int64' | 'dec' = 'dec';
  let goExp = Math.min(a.goExp, b.goExp);
  if (a.repr === 'int64' && b.repr === 'int64') {
    if (b.coef === 0n) {
      repr = 'int64';
      goExp = a.goExp;
    } else if (a.coef === 0n) {
      repr = 'int64';
      goExp = b.goExp;
    } else {
      // int64Amount.Add: scale the larger-scale operand down, both steps must fit int64.
      const ua = goUnscaled(a);
      const ub = goUnscaled(b);
      const sa = a.goExp >= b.goExp ? ua * pow10(a.goExp - goExp) : ua;
      const sb = b.goExp > a.goExp ? ub * pow10(b.goExp - goExp) : ub;
      const sum = sa + sb;
      if (sa <= MAX_INT64 && sa >= MIN_INT64 && sb <= MAX_INT64 && sb >= MIN_INT64 && sum <= MAX_INT64 && sum >= MIN_INT64) repr = 'int64';
    }
  }
  // a result is computed: Go's Add clears the string ParseQuantity kept
  if (a.coef === 0n) return { ...b, format, repr, goExp, written: undefined };
  if (b.coef === 0n) return { ...a, format, repr, goExp, written: undefined };
  const e = Math.min(a.exp, b.exp);
  const gap = Math.max(a.exp, b.exp) - e;
  if (gap + Math.max(a.digits, b.digits) > ALIGN_CAP) {
    const dom = a.digits + a.exp >= b.digits + b.exp ? a : b;
    return { ...dom, format, repr, goExp, approximate: true, written: undefined };
  }
  const sum = a.coef * pow10(a.exp - e) + b.coef * pow10(b.exp - e);
  return make(sum, e, format, repr, goExp, a.approximate || b.approximate);
}

/** Exact a - b (Quantity.Sub: result takes b's format when a is zero). */
export function sub(a: Quantity, b: Quantity): Quantity {
  return add(a, neg(b));
}

// ---------------------------------------------------------------------------------------------
// Display helpers (not apimachinery formats)

const BYTE_UNITS: [string, bigint][] = [
  ['EiB', 1n << 60n],
  ['PiB', 1n << 50n],
  ['TiB', 1n << 40n],
  ['GiB', 1n << 30n],
  ['MiB', 1n << 20n],
  ['KiB', 1n << 10n],
];

/** Human bytes: "512 MiB", "28.5 GiB", "28.51 GiB" (2 decimals, rounded half up), "1000 B" when < 1 KiB. */
export function formatBytes(n: bigint): string {
  const sgn = n < 0n ? '-' : '';
  const a = abs(n);
  for (const [name, unit] of BYTE_UNITS) {
    if (a >= unit) {
      const hundredths = (a * 100n + unit / 2n) / unit;
      const whole = hundredths / 100n;
      const frac = hundredths % 100n;
      let f = frac === 0n ? '' : '.' + frac.toString().padStart(2, '0');
      if (f.endsWith('0')) f = f.slice(0, -1);
      return `${sgn}${whole}${f} ${name}`;
    }
  }
  return `${sgn}${a} B`;
}

/** Millicores for display: 14500 -> "14.5", 16000 -> "16", 500 -> "500m", 1250 -> "1.25". */
export function formatMillicores(m: bigint): string {
  const sgn = m < 0n ? '-' : '';
  const a = abs(m);
  if (a < 1000n && a !== 0n) return `${sgn}${a}m`;
  const whole = a / 1000n;
  const frac = a % 1000n;
  if (frac === 0n) return `${sgn}${whole}`;
  let digits = frac.toString().padStart(3, '0');
  while (digits.endsWith('0')) digits = digits.slice(0, -1);
  return `${sgn}${whole}.${digits}`;
}
