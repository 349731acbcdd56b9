// Eviction threshold values as the kubelet parses them.
//
// kubernetes/kubernetes pkg/kubelet/eviction/helpers.go:
//   parseThresholdStatement: value ending in "%": exactly "0%" or "100%" -> no threshold (nil, nil);
//     else parsePercentage; < 0 -> `eviction percentage threshold <signal> must be >= 0%: <val>`;
//     > 1 -> `eviction percentage threshold <signal> must be <= 100%: <val>`. NaN passes both checks.
//     Otherwise resource.ParseQuantity; Sign() < 0 or IsZero() -> `eviction threshold <signal> must be positive: <q.String()>`.
//   parsePercentage: strconv.ParseFloat(strings.TrimRight(input, "%"), 32), then float32(value) / 100 (float32 division).
//     TrimRight removes every trailing '%': "10%%" is 10%.
//   parseMinimumReclaims: percent <= 0 -> `eviction percentage minimum reclaim <signal> must be positive: <val>`;
//     quantity Sign() < 0 -> `negative eviction minimum reclaim specified for <signal>` (zero allowed).
// pkg/kubelet/eviction/api/types.go GetThresholdQuantity:
//   resource.NewQuantity(int64(float64(capacity.Value())*float64(value.Percentage)), resource.BinarySI)

import { canonical, isNegative, isZero, parseQuantity, type Quantity } from './quantity.ts';

// ---------------------------------------------------------------------------------------------
// strconv.ParseFloat(s, 32): syntax of golang/go src/strconv/atof.go (special, readFloat, underscoreOK),
// correctly rounded to float32 (round half to even), ±Inf + "value out of range" on overflow.

export type Float32Result = { ok: true; value: number } | { ok: false; error: string; value: number };

/** strconv.Quote, close enough for error messages. */
export function goQuote(s: string): string {
  if (isPlainAscii(s)) return '"' + s + '"';
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c >= 0x80 && c < 0xa0) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

const lower = (c: string): string => (c >= 'A' && c <= 'Z' ? String.fromCharCode(c.charCodeAt(0) + 32) : c);

function commonPrefixLenIgnoreCase(s: string, prefix: string): number {
  const n = Math.min(s.length, prefix.length);
  for (let i = 0; i < n; i++) if (lower(s[i]!) !== prefix[i]) return i;
  return n;
}

function special(s: string): { f: number; n: number } | undefined {
  if (s.length === 0) return undefined;
  let sign = 1;
  let nsign = 0;
  let t = s;
  const c = s[0];
  if (c === '+' || c === '-') {
    if (c === '-') sign = -1;
    nsign = 1;
    t = s.slice(1);
  }
  if (c === '+' || c === '-' || c === 'i' || c === 'I') {
    let n = commonPrefixLenIgnoreCase(t, 'infinity');
    if (3 < n && n < 8) n = 3;
    if (n === 3 || n === 8) return { f: sign * Infinity, n: nsign + n };
    return undefined;
  }
  if (c === 'n' || c === 'N') {
    if (commonPrefixLenIgnoreCase(s, 'nan') === 3) return { f: NaN, n: 3 };
  }
  return undefined;
}

function underscoreOK(s0: string): boolean {
  let saw = '^';
  let i = 0;
  let s = s0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && (lower(s[1]!) === 'b' || lower(s[1]!) === 'o' || lower(s[1]!) === 'x')) {
    i = 2;
    saw = '0';
    hex = lower(s[1]!) === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

interface ReadFloat {
  neg: boolean;
  hex: boolean;
  /** significant digits (decimal or hex), without leading zeros; '' for zero */
  digits: string;
  /** value = digits * base^(exp) where base is 10 (decimal) or 2 (hex, exp already in bits) */
  exp: number;
  n: number;
}

/** atof.go readFloat (digits kept as a string so rounding is exact). */
function readFloat(s: string): ReadFloat | undefined {
  let i = 0;
  let neg = false;
  if (i >= s.length) return undefined;
  if (s[i] === '+') i++;
  else if (s[i] === '-') {
    neg = true;
    i++;
  }
  let hex = false;
  let expChar = 'e';
  if (i + 2 < s.length && s[i] === '0' && lower(s[i + 1]!) === 'x') {
    hex = true;
    i += 2;
    expChar = 'p';
  }
  let underscores = false;
  let sawdot = false;
  let sawdigits = false;
  let dp = 0;
  const start = i;
  let all = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 95 /* _ */) {
      underscores = true;
      continue;
    }
    if (c === 46 /* . */) {
      if (sawdot) break;
      sawdot = true;
      dp = all;
      continue;
    }
    const lc = c | 0x20;
    if ((c >= 48 && c <= 57) || (hex && lc >= 97 && lc <= 102)) {
      sawdigits = true;
      all++;
      continue;
    }
    break;
  }
  if (!sawdigits) return undefined;
  if (!sawdot) dp = all;
  const raw = s.slice(start, i);
  const mant = sawdot || underscores ? raw.replace(/[._]/g, '') : raw;
  let e = 0;
  if (i < s.length && lower(s[i]!) === expChar) {
    i++;
    if (i >= s.length) return undefined;
    let esign = 1;
    if (s[i] === '+') i++;
    else if (s[i] === '-') {
      i++;
      esign = -1;
    }
    if (i >= s.length || s[i]! < '0' || s[i]! > '9') return undefined;
    for (; i < s.length && ((s[i]! >= '0' && s[i]! <= '9') || s[i] === '_'); i++) {
      if (s[i] === '_') {
        underscores = true;
        continue;
      }
      if (e < 10000) e = e * 10 + (s.charCodeAt(i) - 48);
    }
    e *= esign;
  } else if (hex) return undefined;
  if (underscores && !underscoreOK(s.slice(0, i))) return undefined;
  // value = int(mant) * base^(dp - len(mant)) * (10^e or 2^e)
  let a = 0;
  while (a < mant.length && mant.charCodeAt(a) === 48) a++;
  let sig = mant.slice(a);
  let dropped = 0;
  if (sig.length > 900) {
    const rest = sig.slice(900);
    const sticky = /[^0]/.test(rest);
    dropped = sig.length - 900;
    sig = sig.slice(0, 900);
    if (sticky) {
      sig += '1';
      dropped -= 1;
    }
  }
  const shift = dp - mant.length + dropped;
  const exp = hex ? shift * 4 + e : shift + e;
  return { neg, hex, digits: sig, exp, n: i };
}

function bitLength(v: bigint): number {
  return v === 0n ? 0 : v.toString(2).length;
}

/** Round num/den (positive) to the nearest float32, ties to even. Returns Infinity on overflow. */
function roundRationalToFloat32(num: bigint, den: bigint): number {
  // find k so that 2^23 <= num/(den*2^k) < 2^24
  let k = bitLength(num) - bitLength(den) - 24;
  const quo = (kk: number): [bigint, bigint, bigint] => {
    const n = kk < 0 ? num << BigInt(-kk) : num;
    const d = kk > 0 ? den << BigInt(kk) : den;
    return [n / d, n % d, d];
  };
  let [q] = quo(k);
  while (q >= 1n << 24n) [q] = quo(++k);
  while (q < 1n << 23n) [q] = quo(--k);
  if (k < -149) k = -149; // subnormal: fixed ulp 2^-149
  let [q2, r, d] = quo(k);
  const twice = r * 2n;
  if (twice > d || (twice === d && (q2 & 1n) === 1n)) q2 += 1n;
  if (q2 === 1n << 24n) {
    q2 = 1n << 23n;
    k++;
  }
  if (q2 === 0n) return 0;
  if (k + 24 > 128) return Infinity; // >= 2^128
  return Number(q2) * 2 ** k;
}

/** strconv.ParseFloat(s, 32) as a float32 value (held in a JS number). */
export function parseFloat32(s: string): Float32Result {
  const fn = (): string => 'strconv.ParseFloat: parsing ' + goQuote(s);
  const sp = special(s);
  if (sp) {
    if (sp.n === s.length) return { ok: true, value: sp.f };
    return { ok: false, error: fn() + ': invalid syntax', value: 0 };
  }
  const rf = readFloat(s);
  if (!rf || rf.n !== s.length) return { ok: false, error: fn() + ': invalid syntax', value: 0 };
  const signed = (v: number): number => (rf.neg ? -v : v);
  if (rf.digits.length === 0) return { ok: true, value: signed(0) };
  let v: number;
  if (rf.hex) {
    const m = BigInt('0x' + rf.digits);
    const e = rf.exp;
    // magnitude ~ 2^(bitlen + e)
    const top = bitLength(m) + e;
    if (top > 130) v = Infinity;
    else if (top < -160) v = 0;
    else v = e >= 0 ? roundRationalToFloat32(m << BigInt(e), 1n) : roundRationalToFloat32(m, 1n << BigInt(-e));
  } else {
    const m = BigInt(rf.digits);
    const e = rf.exp;
    const top = rf.digits.length + e; // value < 10^top
    if (top > 40) v = Infinity;
    else if (top < -47) v = 0;
    else v = e >= 0 ? roundRationalToFloat32(m * 10n ** BigInt(e), 1n) : roundRationalToFloat32(m, 10n ** BigInt(-e));
  }
  if (v === Infinity) return { ok: false, error: fn() + ': value out of range', value: signed(Infinity) };
  return { ok: true, value: signed(v) };
}

// ---------------------------------------------------------------------------------------------

export type PercentageResult =
  | { ok: true; /** float32 fraction (10% -> 0.1f = 0.100000001490116...) */ fraction: number; /** exactly "0%" or "100%": the kubelet creates no threshold */ dropped: boolean }
  | { ok: false; error: string };

/**
 * kubelet parsePercentage plus parseThresholdStatement's range checks.
 * `signal` only feeds the error messages.
 */
export function parsePercentage(s: string, signal = '<signal>'): PercentageResult {
  if (s === '0%' || s === '100%') return { ok: true, fraction: s === '0%' ? 0 : 1, dropped: true };
  const raw = rawPercentage(s);
  if (!raw.ok) return raw;
  const pct = raw.fraction;
  if (pct < 0) return { ok: false, error: `eviction percentage threshold ${signal} must be >= 0%: ${s}` };
  if (pct > 1) return { ok: false, error: `eviction percentage threshold ${signal} must be <= 100%: ${s}` };
  return { ok: true, fraction: pct, dropped: false };
}

/** helpers.go parsePercentage only: ParseFloat(TrimRight(s, "%"), 32), float32(v)/100 in float32. */
export function rawPercentage(s: string): { ok: true; fraction: number } | { ok: false; error: string } {
  // Every node reads the same few defaults ("10%", "15%", "5%") through the exact float32 rounding, which is not cheap.
  let r = PERCENTAGES.get(s);
  if (r === undefined) {
    if (PERCENTAGES.size >= 1024) PERCENTAGES.clear(); // (values typed by users: bounded)
    PERCENTAGES.set(s, (r = Object.freeze(computeRawPercentage(s))));
  }
  return r;
}

const PERCENTAGES = new Map<string, Readonly<{ ok: true; fraction: number } | { ok: false; error: string }>>();

function computeRawPercentage(s: string): { ok: true; fraction: number } | { ok: false; error: string } {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 37) end--;
  const f = parseFloat32(s.slice(0, end));
  if (!f.ok) return { ok: false, error: f.error };
  return { ok: true, fraction: Math.fround(Math.fround(f.value) / 100) };
}

const MIN_INT64 = -(1n << 63n);

/**
 * GetThresholdQuantity: int64(float64(capacity) * float64(pct)).
 * float64(capacity) rounds to nearest above 2^53; int64() truncates toward zero; NaN or out-of-range
 * converts to -2^63 (amd64 CVTTSD2SQ; Go leaves it implementation-defined).
 */
export function thresholdQuantity(capacity: bigint, pct: number): bigint {
  const x = Number(capacity) * pct;
  if (!Number.isFinite(x) || x >= 2 ** 63 || x < -(2 ** 63)) return MIN_INT64;
  return BigInt(Math.trunc(x));
}

export type ThresholdValue =
  | { kind: 'quantity'; q: Quantity }
  | { kind: 'percentage'; fraction: number }
  /** "0%" or "100%": parseThresholdStatement returns nil, the signal gets no threshold */
  | { kind: 'dropped' }
  | { kind: 'error'; error: string };

/** The value half of parseThresholdStatement (evictionHard / evictionSoft). */
export function parseThresholdValue(s: string, signal = '<signal>'): ThresholdValue {
  if (s.endsWith('%')) {
    const p = parsePercentage(s, signal);
    if (!p.ok) return { kind: 'error', error: p.error };
    if (p.dropped) return { kind: 'dropped' };
    return { kind: 'percentage', fraction: p.fraction };
  }
  const r = parseQuantity(s);
  if (!r.ok) return { kind: 'error', error: r.error };
  if (isNegative(r.q) || isZero(r.q)) return { kind: 'error', error: `eviction threshold ${signal} must be positive: ${canonical(r.q)}` };
  return { kind: 'quantity', q: r.q };
}

/** The value half of parseMinimumReclaims (evictionMinimumReclaim). No 0%/100% special case there. */
export function parseMinimumReclaimValue(s: string, signal = '<signal>'): ThresholdValue {
  if (s.endsWith('%')) {
    const p = rawPercentage(s);
    if (!p.ok) return { kind: 'error', error: p.error };
    if (p.fraction <= 0) return { kind: 'error', error: `eviction percentage minimum reclaim ${signal} must be positive: ${s}` };
    return { kind: 'percentage', fraction: p.fraction };
  }
  const r = parseQuantity(s);
  if (!r.ok) return { kind: 'error', error: r.error };
  if (isNegative(r.q)) return { kind: 'error', error: `negative eviction minimum reclaim specified for ${signal}` };
  return { kind: 'quantity', q: r.q };
}

/** Printable ASCII without '"' or '\\': quoting adds only the quotes. */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 34 || c === 92) return false;
  }
  return true;
}
