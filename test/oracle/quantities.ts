/**
 * Generated quantity and duration strings for the oracle of k8s.io/apimachinery's resource.ParseQuantity (String(),
 * Value(), MilliValue()) and Go's time.ParseDuration (test/oracle/kubelet-oracle), and the comparison with the
 * engine (server/src/quantity). Shared by test/oracle/quantity.test.ts and test/fuzz/run-long.ts.
 *
 * The corners: values past int64 (Go's Value() and MilliValue() wrap or saturate there), exponents and suffixes near
 * the int32 limits of the scale (±2^31), many digits, canonical inputs String() keeps as written, signs, spaces,
 * suffixes in the wrong case; durations past int64 nanoseconds, fractions of every unit, µs spellings.
 * Exponents past int32 wrap (e4294967296 is e0). Kept out: most exponents near ±2^31 (1e2147483648, 1e-2147483640,
 * 5e2147483640): ParseQuantity does not return for them (it rounds a number of about 2^31 digits), so the kubelet
 * hangs on such a value; only the two that return at once are in.
 */
import fc from 'fast-check';
import { canonical, milliValue, parseQuantity, value } from '../../server/src/quantity/quantity.ts';
import { parseGoDuration } from '../../server/src/quantity/duration.ts';
import type { KubeletOracleAnswer } from './oracles.ts';

const SUFFIX = ['', '', '', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'K', 'mi', 'ki'];
const EXP = ['e0', 'e3', 'E-2', 'e+6', 'e18', 'e19', 'e-9', 'e-10', 'e400', 'e-400', 'e4294967296', 'e4294967299', 'e-4294967293', 'e4294967295', 'e9223372036854775807', 'e-9223372036854775808', 'e99999999999999999999', 'e', 'e+', 'E9'];
const INTS = ['0', '1', '7', '10', '100', '1000', '1024', '999', '9223372036854775807', '9223372036854775808', '9223372036855', '18446744073709551616', '123456789012345678901234567890', '00', '0001'];

export const quantityString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('', '', '', '-', '+'), fc.oneof(fc.constantFrom(...INTS), fc.stringMatching(/^[0-9]{1,20}$/)), fc.option(fc.stringMatching(/^[0-9]{0,12}$/), { nil: undefined }), fc.constantFrom(...SUFFIX)).map(([s, i, f, x]) => `${s}${i}${f !== undefined ? '.' + f : ''}${x}`) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('', '-'), fc.constantFrom(...INTS), fc.constantFrom('', '.5', '.000001'), fc.constantFrom(...EXP)).map(([s, i, f, e]) => `${s}${i}${f}${e}`) },
  { weight: 1, arbitrary: fc.constantFrom('.', '-', '+', 'Ki', '1.', '.5', '-.5m', '1e999999', '8Ei', '-8Ei', '9Ei', '-9Ei', '1 Gi', ' 1Gi', '1Gi ', '', '100%', '1,000', '0x10', '1e', '1E', '1.5.5', '++1', '1e2147483647', '1e-2147483649', '1Mi1', '0.000000001n', '1n', '0.1n', '1u', '1000m', '1500m', '2048Ki', '1048576Mi', '12e2', '120e1', '1.20e3', '1EE', 'e3') },
);

const UNITS = ['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h'];

export const durationString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('', '', '-', '+'), fc.array(fc.tuple(fc.stringMatching(/^[0-9]{0,12}$/), fc.option(fc.stringMatching(/^[0-9]{0,6}$/), { nil: undefined }), fc.constantFrom(...UNITS)), { minLength: 1, maxLength: 3 })).map(([s, parts]) => s + parts.map(([i, f, u]) => `${i}${f !== undefined ? '.' + f : ''}${u}`).join('')) },
  { weight: 1, arbitrary: fc.constantFrom('0', '', '-0', '+0', '1', '1d', '1.5h', '2562047h47m16.854775807s', '2562047h47m16.854775808s', '-2562047h47m16.854775808s', '9223372036854775807ns', '9223372036854775808ns', '-9223372036854775808ns', '.s', '1.s', '.5s', 's', '1 s', ' 1s', '1S', '1H', '0.0000000001s', '1h-1m', '1e3s', '１s') },
);

/** Every string the engine reads differently from apimachinery / Go, with both readings. */
export function compareQuantities(inputs: readonly string[], answers: readonly KubeletOracleAnswer[]): { input: string; diff: string }[] {
  const out: { input: string; diff: string }[] = [];
  inputs.forEach((s, i) => {
    const go = answers[i]!;
    const r = parseQuantity(s);
    const engine = r.ok ? { ok: true, string: canonical(r.q), value: String(value(r.q)), milli: String(milliValue(r.q)) } : { ok: false };
    const want = go.ok ? { ok: true, string: go.string, value: go.value, milli: go.milli } : { ok: false };
    if (JSON.stringify(engine) !== JSON.stringify(want)) out.push({ input: s, diff: `apimachinery: ${JSON.stringify(go)}\nengine:       ${JSON.stringify(r.ok ? engine : r)}` });
  });
  return out;
}

export function compareDurations(inputs: readonly string[], answers: readonly KubeletOracleAnswer[]): { input: string; diff: string }[] {
  const out: { input: string; diff: string }[] = [];
  inputs.forEach((s, i) => {
    const go = answers[i]!;
    const r = parseGoDuration(s);
    const engine = r.ok ? { ok: true, nanos: String(r.nanos) } : { ok: false };
    const want = go.ok ? { ok: true, nanos: go.nanos } : { ok: false };
    if (JSON.stringify(engine) !== JSON.stringify(want)) out.push({ input: s, diff: `Go:     ${JSON.stringify(go)}\nengine: ${JSON.stringify(r)}` });
  });
  return out;
}
