/**
 * How go-yaml v2 types a scalar (gopkg.in/yaml.v2 resolve.go), used by the
 * YAML reader (parse/yaml.ts): YAML 1.1
 * booleans yes/no/on/off/y/n, 0x/0o/0b/leading-0 ints, `_` in numbers,
 * timestamps stay strings; and how YAMLToJSON turns a key into a JSON key.
 */

/** Deepest nesting converted; deeper content is cut with a problem (go-yaml itself stops at 10,000). */
export const MAX_DEPTH = 1000;
/** The analyzer's own bound on nodes reachable through aliases. */
export const MAX_EXPANDED_NODES = 2_000_000;

const BOOL_TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const BOOL_FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
// A Map, not an object: `s in {...}` would also match inherited names (`constructor`, `toString`, ...).
const FLOAT_SPECIAL = new Map<string, number>([
  ['.nan', NaN], ['.NaN', NaN], ['.NAN', NaN],
  ['.inf', Infinity], ['.Inf', Infinity], ['.INF', Infinity],
  ['+.inf', Infinity], ['+.Inf', Infinity], ['+.INF', Infinity],
  ['-.inf', -Infinity], ['-.Inf', -Infinity], ['-.INF', -Infinity],
]);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT_DEC = /^[-+]?[0-9]+$/;
const INT_HEX = /^[-+]?0[xX][0-9a-fA-F]+$/;
const INT_OCT_O = /^[-+]?0[oO][0-7]+$/;
const INT_BIN = /^[-+]?0[bB][01]+$/;
const INT_OCT_LEGACY = /^[-+]?0[0-7]+$/;
const GO_FLOAT_DOT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

function parseGoInt(s: string): number | undefined {
  // go-yaml v2 resolve.go: strconv.ParseInt(plain, 0, 64), then strconv.ParseUint(plain, 0, 64) (no sign allowed):
  // sign, then 0x / 0o / 0b / 0 (octal) / decimal; outside int64 and uint64 it is no int (BigInt: exact bounds).
  let neg = false;
  let signed = false;
  let body = s;
  if (body[0] === '+' || body[0] === '-') {
    neg = body[0] === '-';
    signed = true;
    body = body.slice(1);
  }
  let digits: string;
  if (INT_HEX.test(s)) digits = '0x' + body.slice(2);
  else if (INT_OCT_O.test(s)) digits = '0o' + body.slice(2);
  else if (INT_BIN.test(s)) digits = '0b' + body.slice(2);
  else if (INT_OCT_LEGACY.test(s)) digits = '0o' + body.slice(1);
  else if (INT_DEC.test(s)) digits = body;
  else return undefined;
  if (digits.length < 16) {
    const v = Number(digits);
    return neg ? -v : v;
  }
  const b = neg ? -BigInt(digits) : BigInt(digits);
  if (b < INT64_MIN || b > (signed ? INT64_MAX : UINT64_MAX)) return undefined;
  return Number(b);
}

/**
 * The value go-yaml v2 gives an untagged plain scalar (what sigs.k8s.io/yaml
 * then writes to JSON). Timestamps stay strings (v2 keeps them as strings when
 * decoding into interface{}).
 */
export function resolvePlainScalar(s: string): string | number | boolean | null {
  const c = s.charCodeAt(0);
  // resolveTable hints: only these first characters can start a non-string. The null and bool words are at
  // most 5 characters and start with one of ~ n N y Y t T o O f F; the special floats with . + -.
  if (s.length <= 5) {
    switch (c) {
      case 126: case 110: case 78: case 121: case 89: case 116: case 84: case 111: case 79: case 102: case 70: // ~nNyYtToOfF
        if (NULLS.has(s)) return null;
        if (BOOL_TRUE.has(s)) return true;
        if (BOOL_FALSE.has(s)) return false;
        return s;
      case 46: case 43: case 45: { // . + -
        const f = FLOAT_SPECIAL.get(s);
        if (f !== undefined) return f;
        break;
      }
    }
    if (s.length === 0) return null;
  }
  const isDigitOrSign = (c >= 48 && c <= 57) || c === 43 || c === 45; // 0-9 + -
  if (c === 46 /* . */) {
    if (GO_FLOAT_DOT.test(s)) return goFloat(s, s);
    return s;
  }
  if (!isDigitOrSign) return s;
  const plain = s.indexOf('_') >= 0 ? s.replace(/_/g, '') : s;
  const i = parseGoInt(plain);
  if (i !== undefined) return i;
  if (YAML_STYLE_FLOAT.test(plain)) return goFloat(plain, s);
  return s;
}

/** strconv.ParseFloat(plain, 64): past the float64 range it fails (ErrRange) and go-yaml keeps the text as a string. */
function goFloat(plain: string, text: string): number | string {
  const f = parseFloat(plain);
  return Number.isFinite(f) ? f : text;
}

/** How Go's YAMLToJSON turns a resolved map key into a JSON object key. */
export function keyString(v: string | number | boolean | null): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Number.isNaN(v)) return '.nan';
  if (v === Infinity) return '.inf';
  if (v === -Infinity) return '-.inf';
  return String(v);
}
