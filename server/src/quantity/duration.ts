// Go's time.ParseDuration (golang/go src/time/format.go: ParseDuration, leadingInt, leadingFraction,
// unitMap, quote), reproduced with uint64 arithmetic in BigInt.
//
// - Optional single sign; "0" alone (after the sign) is zero; "" and a bare sign are invalid.
// - Each element: [0-9]* ('.' [0-9]*)? unit, at least one digit on either side of the dot.
// - Units: ns us µs (U+00B5) μs (U+03BC) ms s m h. The unit is every byte up to the next '.' or digit.
// - leadingInt overflows above 2^63 -> `time: invalid duration`; leadingFraction silently stops
//   accumulating precision. Fractions go through float64: uint64(float64(f) * (float64(unit) / scale)).
// - Overflow checks on the uint64 sum: > 2^63 invalid; a positive total must be <= 2^63-1; "-2562047h47m16.854775808s"
//   (exactly -2^63) is valid. The running total is uint64 and wraps like Go's.

export type DurationResult = { ok: true; nanos: bigint } | { ok: false; error: string };

const UNIT: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n, // U+00B5 micro sign
  'μs': 1000n, // U+03BC Greek mu
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};

const TWO63 = 1n << 63n;
const U64 = (v: bigint): bigint => BigInt.asUintN(64, v);

/** time.quote: ASCII printable kept (with \" and \\ escaped); other bytes as \xNN of their UTF-8 encoding. */
export function goTimeQuote(s: string): string {
  if (isPlainAscii(s)) return '"' + s + '"';
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of new TextEncoder().encode(ch)) out += '\\x' + b.toString(16).padStart(2, '0');
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export function parseGoDuration(orig: string): DurationResult {
  const invalid = (): DurationResult => ({ ok: false, error: 'time: invalid duration ' + goTimeQuote(orig) });
  let s = orig;
  let d = 0n; // uint64
  let neg = false;
  if (s !== '') {
    const c = s[0];
    if (c === '-' || c === '+') {
      neg = c === '-';
      s = s.slice(1);
    }
  }
  if (s === '0') return { ok: true, nanos: 0n };
  if (s === '') return invalid();
  let i = 0;
  const n = s.length;
  while (i < n) {
    let v = 0n;
    let f = 0n;
    let scale = 1;
    const c0 = s.charCodeAt(i);
    if (!(c0 === 46 || isDigit(c0))) return invalid();
    // leadingInt
    const pl = i;
    while (i < n && isDigit(s.charCodeAt(i))) {
      if (v > TWO63 / 10n) return invalid();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO63) return invalid();
      i++;
    }
    const pre = i !== pl;
    let post = false;
    if (i < n && s.charCodeAt(i) === 46) {
      i++;
      const fl = i;
      let overflow = false;
      while (i < n && isDigit(s.charCodeAt(i))) {
        if (!overflow) {
          if (f > (TWO63 - 1n) / 10n) overflow = true;
          else {
            const y = f * 10n + BigInt(s.charCodeAt(i) - 48);
            if (y > TWO63) overflow = true;
            else {
              f = y;
              scale *= 10;
            }
          }
        }
        i++;
      }
      post = i !== fl;
    }
    if (!pre && !post) return invalid();
    const us = i;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 46 || isDigit(c)) break;
      i++;
    }
    if (i === us) return { ok: false, error: 'time: missing unit in duration ' + goTimeQuote(orig) };
    const u = s.slice(us, i);
    const unit = Object.prototype.hasOwnProperty.call(UNIT, u) ? UNIT[u] : undefined;
    if (unit === undefined) return { ok: false, error: 'time: unknown unit ' + goTimeQuote(u) + ' in duration ' + goTimeQuote(orig) };
    if (v > TWO63 / unit) return invalid();
    v *= unit;
    if (f > 0n) {
      // float64 is needed to be nanosecond accurate for fractions of hours.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO63) return invalid();
    }
    d = U64(d + v);
    if (d > TWO63) return invalid();
  }
  if (neg) return { ok: true, nanos: BigInt.asIntN(64, -d) };
  if (d > TWO63 - 1n) return invalid();
  return { ok: true, nanos: d };
}

/**
 * Eviction soft grace period (pkg/kubelet/eviction/helpers.go parseGracePeriods): ParseDuration, then
 * a negative value is `invalid eviction grace period specified: <val>, must be a positive value` (zero is allowed).
 */
export function parseGracePeriod(s: string): DurationResult {
  const r = parseGoDuration(s);
  if (r.ok && r.nanos < 0n) return { ok: false, error: `invalid eviction grace period specified: ${s}, must be a positive value` };
  return r;
}

/** Printable ASCII without '"' or '\\': quoting adds only the quotes. */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 34 || c === 92) return false;
  }
  return true;
}
