import { HANG_MS } from '../helpers/hang.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ERR_FORMAT_WRONG,
  ERR_NUMERIC,
  ERR_SUFFIX,
  add,
  canonical,
  cmp,
  formatBytes,
  formatMillicores,
  isNegative,
  isZero,
  milliValue,
  mustParse,
  nanos,
  newMilliQuantity,
  newQuantity,
  parseQuantity,
  sub,
  value,
  type Quantity,
} from '../../server/src/quantity/quantity.ts';

const AM = 'apimachinery pkg/api/resource';

/** Exact nanos of a plain decimal string, rounded away from zero to nano (hand-computed BigInt math). */
function decToNanos(s: string): bigint {
  const neg = s.startsWith('-');
  const body = neg || s.startsWith('+') ? s.slice(1) : s;
  const [ip = '', fp = ''] = body.split('.');
  const head = BigInt((ip || '0') + fp.padEnd(9, '0').slice(0, 9));
  const up = /[1-9]/.test(fp.slice(9)) ? 1n : 0n;
  const v = head + up;
  return neg ? -v : v;
}

function q(s: string): Quantity {
  return mustParse(s);
}

// ---------------------------------------------------------------------------------------------
// quantity_test.go TestParseQuantity: [input, AsInt64() ok, AsDec value, canonical String()]
const PARSE_TABLE: [string, boolean, string, string][] = [
  ['-999999999999999999', true, '-999999999999999999', '-999999999999999999'],
  ['999999999999999999', true, '999999999999999999', '999999999999999999'],
  ['-999999999999999999.0', false, '-999999999999999999', '-999999999999999999'],
  ['999999999999999999.0', false, '999999999999999999', '999999999999999999'],
  ['-999999999999999999.1', false, '-999999999999999999.1', '-999999999999999999100m'],
  ['999999999999999999.1', false, '999999999999999999.1', '999999999999999999100m'],
  ['-9999999999999999999', false, '-9999999999999999999', '-9999999999999999999'],
  ['9999999999999999999', false, '9999999999999999999', '9999999999999999999'],
  ['-1E', true, '-1000000000000000000', '-1E'],
  ['1E', true, '1000000000000000000', '1E'],
  ['-1000000000000000000', false, '-1000000000000000000', '-1E'],
  ['1000000000000000000', false, '1000000000000000000', '1E'],
  ['-9999999999999999999.0', false, '-9999999999999999999', '-9999999999999999999'],
  ['9999999999999999999.0', false, '9999999999999999999', '9999999999999999999'],
  ['-1.0E', true, '-1000000000000000000', '-1E'],
  ['1.0E', true, '1000000000000000000', '1E'],
  ['-1000000000000000000.0', false, '-1000000000000000000', '-1E'],
  ['1000000000000000000.0', false, '1000000000000000000', '1E'],
  ['-9999999999999999999000m', false, '-9999999999999999999', '-9999999999999999999'],
  ['9999999999999999999000m', false, '9999999999999999999', '9999999999999999999'],
  ['-9999999999999999999.1', false, '-9999999999999999999.1', '-9999999999999999999100m'],
  ['9999999999999999999.1', false, '9999999999999999999.1', '9999999999999999999100m'],
  ['-1.0000000000000000001E', false, '-1000000000000000000.1', '-1000000000000000000100m'],
  ['1.0000000000000000001E', false, '1000000000000000000.1', '1000000000000000000100m'],
  ['-1000000000000000000.1', false, '-1000000000000000000.1', '-1000000000000000000100m'],
  ['1000000000000000000.1', false, '1000000000000000000.1', '1000000000000000000100m'],
  ['-1.000000000000000001E', false, '-1000000000000000001', '-1000000000000000001'],
  ['1.000000000000000001E', false, '1000000000000000001', '1000000000000000001'],
  ['-1000000000000000001', false, '-1000000000000000001', '-1000000000000000001'],
  ['1000000000000000001', false, '1000000000000000001', '1000000000000000001'],
  ['-10E', false, '-10000000000000000000', '-10E'],
  ['10E', false, '10000000000000000000', '10E'],
  ['-10000000000000000000', false, '-10000000000000000000', '-10E'],
  ['10000000000000000000', false, '10000000000000000000', '10E'],
  ['-10.0E', false, '-10000000000000000000', '-10E'],
  ['10.0E', false, '10000000000000000000', '10E'],
  ['-10000000000000000000.0', false, '-10000000000000000000', '-10E'],
  ['10000000000000000000.0', false, '10000000000000000000', '10E'],
  ['-10000000000000000000000m', false, '-10000000000000000000', '-10E'],
  ['10000000000000000000000m', false, '10000000000000000000', '10E'],
  ['-10.0000000000000000001E', false, '-10000000000000000000.1', '-10000000000000000000100m'],
  ['10.0000000000000000001E', false, '10000000000000000000.1', '10000000000000000000100m'],
  ['-10000000000000000000.1', false, '-10000000000000000000.1', '-10000000000000000000100m'],
  ['10000000000000000000.1', false, '10000000000000000000.1', '10000000000000000000100m'],
  ['-10.000000000000000001E', false, '-10000000000000000001', '-10000000000000000001'],
  ['10.000000000000000001E', false, '10000000000000000001', '10000000000000000001'],
  ['-10000000000000000001', false, '-10000000000000000001', '-10000000000000000001'],
  ['10000000000000000001', false, '10000000000000000001', '10000000000000000001'],
  ['-9223372036854775809', false, '-9223372036854775809', '-9223372036854775809'],
  ['9223372036854775806', false, '9223372036854775806', '9223372036854775806'],
  ['-9223372036854775809.0', false, '-9223372036854775809', '-9223372036854775809'],
  ['9223372036854775806.0', false, '9223372036854775806', '9223372036854775806'],
  ['-9223372036854775809000m', false, '-9223372036854775809', '-9223372036854775809'],
  ['9223372036854775806000m', false, '9223372036854775806', '9223372036854775806'],
  ['-9223372036854775809.1', false, '-9223372036854775809.1', '-9223372036854775809100m'],
  ['9223372036854775806.1', false, '9223372036854775806.1', '9223372036854775806100m'],
  ['-9223372036854775808', false, '-9223372036854775808', '-9223372036854775808'],
  ['9223372036854775807', false, '9223372036854775807', '9223372036854775807'],
  ['-9223372036854775808.0', false, '-9223372036854775808', '-9223372036854775808'],
  ['9223372036854775807.0', false, '9223372036854775807', '9223372036854775807'],
  ['-9223372036854775808000m', false, '-9223372036854775808', '-9223372036854775808'],
  ['9223372036854775807000m', false, '9223372036854775807', '9223372036854775807'],
  ['-9223372036854775808.1', false, '-9223372036854775808.1', '-9223372036854775808100m'],
  ['9223372036854775807.1', false, '9223372036854775807.1', '9223372036854775807100m'],
  ['-9223372036854775807', false, '-9223372036854775807', '-9223372036854775807'],
  ['9223372036854775808', false, '9223372036854775808', '9223372036854775808'],
  ['-9223372036854775807.0', false, '-9223372036854775807', '-9223372036854775807'],
  ['9223372036854775808.0', false, '9223372036854775808', '9223372036854775808'],
  ['-9223372036854775807000m', false, '-9223372036854775807', '-9223372036854775807'],
  ['9223372036854775808000m', false, '9223372036854775808', '9223372036854775808'],
  ['-9223372036854775807.1', false, '-9223372036854775807.1', '-9223372036854775807100m'],
  ['9223372036854775808.1', false, '9223372036854775808.1', '9223372036854775808100m'],

];

test(`${AM}/quantity_test.go TestParseQuantity: exact value, int64-vs-inf.Dec path and String() for ${PARSE_TABLE.length} boundary inputs`, () => {
  for (const [input, fast, dec, can] of PARSE_TABLE) {
    const r = parseQuantity(input);
    assert.ok(r.ok, input);
    assert.equal(nanos(r.q), decToNanos(dec), `value of ${input}`);
    // AsInt64() ok only on the int64 path with an in-range integer; "10E" is int64Amount{10, 18} but AsInt64 fails
    if (fast) assert.equal(r.q.repr, 'int64', `path of ${input}`);
    else assert.ok(r.q.repr === 'dec' || value(r.q) === 0n, `path of ${input}`);
    assert.equal(canonical(r.q), can, `String() of ${input}`);
  }
});

// quantity_test.go TestQuantityParse: [input, expected exact value (decimal), format]
const VALUE_TABLE: [string, string, string][] = [
  ['0', '0', 'DecimalSI'], ['0n', '0', 'DecimalSI'], ['0Ki', '0', 'BinarySI'], ['0Ti', '0', 'BinarySI'],
  ['1', '1', 'DecimalSI'], ['1Ki', '1024', 'BinarySI'], ['7Mi', '7340032', 'BinarySI'], ['6Gi', '6442450944', 'BinarySI'],
  ['5Ti', '5497558138880', 'BinarySI'], ['4Pi', '4503599627370496', 'BinarySI'], ['3Ei', '3458764513820540928', 'BinarySI'],
  ['5n', '0.000000005', 'DecimalSI'], ['4u', '0.000004', 'DecimalSI'], ['3m', '0.003', 'DecimalSI'], ['8k', '8000', 'DecimalSI'],
  ['50k', '50000', 'DecimalSI'], ['7M', '7000000', 'DecimalSI'], ['6G', '6000000000', 'DecimalSI'], ['2P', '2000000000000000', 'DecimalSI'],
  ['1E', '1000000000000000000', 'DecimalSI'], ['1E-3', '0.001', 'DecimalExponent'], ['1e3', '1000', 'DecimalExponent'],
  ['1E18', '1000000000000000000', 'DecimalExponent'], ['100.035k', '100035', 'DecimalSI'], ['0.0005k', '0.5', 'DecimalSI'],
  ['0.5e-1', '0.05', 'DecimalExponent'], ['10.035M', '10035000', 'DecimalSI'], ['1.3E+6', '1300000', 'DecimalExponent'],
  ['7.123456M', '7123456', 'DecimalSI'], ['6.987654321G', '6987654321', 'DecimalSI'], ['1.01E', '1010000000000000000', 'DecimalSI'],
  ['3.001n', '0.000000004', 'DecimalSI'], ['1.1E-9', '0.000000002', 'DecimalExponent'], ['0.0000000001', '0.000000001', 'DecimalSI'],
  ['0.0000000005', '0.000000001', 'DecimalSI'], ['0.5e-9', '0.000000001', 'DecimalExponent'], ['0.9n', '0.000000001', 'DecimalSI'],
  ['0.00000012345', '0.000000124', 'DecimalSI'], ['9Ei', '9223372036854775807', 'BinarySI'],
  ['9223372036854775807Ki', '9223372036854775807', 'BinarySI'], ['12E', '12000000000000000000', 'DecimalSI'],
  ['100.035Ki', '102435.84', 'BinarySI'], ['0.5Mi', '524288', 'BinarySI'], ['0.05Gi', '53687091.2', 'BinarySI'],
  ['0.025Ti', '27487790694.4', 'BinarySI'], ['0.000000000001Ki', '0.000000002', 'DecimalSI'], ['.001', '0.001', 'DecimalSI'],
  ['.0001k', '0.1', 'DecimalSI'], ['1.', '1', 'DecimalSI'], ['1.G', '1000000000', 'DecimalSI'],
];

test(`${AM}/quantity_test.go TestQuantityParse: values round up to nano, BinarySI caps at 2^63-1 and <1 becomes DecimalSI; also with - and + prefixes`, () => {
  for (const [input, dec, format] of VALUE_TABLE) {
    const r = parseQuantity(input);
    assert.ok(r.ok, input);
    assert.equal(nanos(r.q), decToNanos(dec), input);
    assert.equal(r.q.format, format, input);
    const n = parseQuantity('-' + input);
    assert.ok(n.ok);
    assert.equal(nanos(n.q), -decToNanos(dec), '-' + input);
    assert.equal(n.q.format, format, '-' + input);
    const p = parseQuantity('+' + input);
    assert.ok(p.ok);
    assert.equal(nanos(p.q), decToNanos(dec), '+' + input);
  }
});

test(`${AM}/quantity_test.go TestQuantityParse invalid list + brief: errors carry apimachinery's texts`, () => {
  const cases: [string, string][] = [
    ['', ERR_FORMAT_WRONG], // ParseQuantity: len(str) == 0
    ['1.1.M', ERR_FORMAT_WRONG], ['1+1.0M', ERR_FORMAT_WRONG], ['aoeu', ERR_FORMAT_WRONG], [' 1', ERR_FORMAT_WRONG], ['1 ', ERR_FORMAT_WRONG],
    ['GB', ERR_FORMAT_WRONG], ['1GB', ERR_FORMAT_WRONG], ['0.1mi', ERR_SUFFIX], ['0.1am', ERR_FORMAT_WRONG], ['.5i', ERR_SUFFIX], ['1i', ERR_SUFFIX],
    ['-3.01i', ERR_SUFFIX], ['-3.01e-', ERR_SUFFIX], ['1ki', ERR_SUFFIX], ['ki', ERR_SUFFIX], ['K', ERR_SUFFIX], ['1K', ERR_SUFFIX],
    ['1e', ERR_SUFFIX], ['1e+', ERR_SUFFIX], ['1ee3', ERR_SUFFIX], ['1Ki5', ERR_SUFFIX], ['1e99999999999999999999', ERR_SUFFIX],
    ['1e3e3', ERR_FORMAT_WRONG], ['1Gi ', ERR_FORMAT_WRONG], ['１', ERR_FORMAT_WRONG],
  ];
  for (const [input, err] of cases) {
    const r = parseQuantity(input);
    assert.equal(r.ok, false, JSON.stringify(input));
    if (!r.ok) assert.equal(r.error, err, JSON.stringify(input));
  }
  assert.equal(ERR_FORMAT_WRONG, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  assert.equal(ERR_SUFFIX, "unable to parse quantity's suffix");
});

test(`${AM}/quantity.go parseQuantityString: a bare sign, dot or suffix scans as numerator "0" (valid zero); ".Ei"/"-Ei" hit inf.Dec SetString without digits -> ErrNumeric`, () => {
  for (const s of ['-', '+', '.', '-.', 'Ki', 'k', 'm', 'E', 'e5', '-Mi', '.Ti', '000', '-000']) {
    const r = parseQuantity(s);
    assert.ok(r.ok, s);
    assert.ok(isZero(r.q), s);
    assert.equal(canonical(r.q), '0', s);
  }
  assert.equal(mustParse('Ki').format, 'BinarySI');
  for (const s of ['.Ei', '-Ei', '+.Pi', 'Ei', 'Pi']) {
    const r = parseQuantity(s);
    assert.equal(r.ok, false, s);
    if (!r.ok) assert.equal(r.error, ERR_NUMERIC, s);
  }
});

test(`${AM}/quantity.go: no negative zero: "-0", "-0.0", "-0Ki" are zero with Sign() 0 and String() "0", keeping their format`, () => {
  for (const [s, f] of [['-0', 'DecimalSI'], ['-0.0', 'DecimalSI'], ['-0Ki', 'BinarySI'], ['-0e5', 'DecimalExponent'], ['-0.0000000000', 'DecimalSI']] as const) {
    const v = q(s);
    assert.ok(isZero(v), s);
    assert.equal(isNegative(v), false, s);
    assert.equal(canonical(v), '0', s);
    assert.equal(v.format, f, s);
    assert.equal(value(v), 0n);
  }
  // but a negative value below nano rounds away from zero, it does not become -0
  assert.equal(canonical(q('-0.1n')), '-1n');
  assert.equal(nanos(q('-0.0000000001')), -1n);
});

test(`${AM}/suffix.go interpret: exponent is strconv.ParseInt(_,10,64) then int32(): 1e4294967296 == 1, 1e4294967297 == 10, 1e-2147483648 is astronomically large`, () => {
  // String() gives the text back as written: ParseQuantity kept it, its int64 form being canonical (kubelet oracle, v0.37.2)
  assert.equal(canonical(q('1e4294967296')), '1e4294967296');
  assert.equal(value(q('1e4294967296')), 1n);
  assert.equal(value(q('1e4294967297')), 10n);
  assert.equal(value(q('1e+00003')), 1000n);
  const huge = q('1e-2147483648');
  assert.equal(isNegative(huge), false);
  assert.equal(cmp(huge, q('1e999999')), 1);
  // int32 scale wrap in the fast path: scale = exponent - len(denom)
  assert.equal(cmp(q('1.5e-2147483648'), q('1e999999')), 1);
});

test(`${AM}/quantity.go CanonicalizeBytes: keeps the format family, largest exact suffix, no fraction (1.5 -> 1500m, 1.5Gi -> 1536Mi)`, () => {
  const cases: [string, string][] = [
    ['1.5', '1500m'], ['1.5Gi', '1536Mi'], ['0', '0'], ['1024Mi', '1Gi'], ['1000M', '1G'], ['1Ki', '1Ki'], ['6144', '6144'],
    ['.001Ki', '1024m'], ['.000001Ki', '1024u'], ['.000000001Ki', '1024n'], ['.000000000001Ki', '2n'], // TestQuantityParseEmit
    ['-1.5', '-1500m'], ['-1.5Gi', '-1536Mi'], ['-1024Mi', '-1Gi'], ['1.1Ki', '1126400m'], ['100.035Ki', '102435840m'],
    ['1025Ki', '1025Ki'], ['1000Ki', '1000Ki'], ['1023', '1023'], ['0.5Ki', '512'], ['1e3', '1e3'], ['1.2e3', '1200'.length ? '1200' : ''],
    ['1.3E+6', '1300e3'], ['100m', '100m'], ['0.1', '100m'], ['1e-3', '1e-3'], ['1000E', '1'], ['12E', '12E'], ['1G', '1G'],
    ['2000m', '2'], ['1e999999', '1e999999'], ['8Ei', '9223372036854775807'], ['-9Ei', '-9223372036854775807'],
    ['30Gi', '30Gi'], ['500Mi', '500Mi'], ['512Mi', '512Mi'], ['0.5Gi', '512Mi'], ['123456789n', '123456789n'],
  ];
  for (const [input, want] of cases) assert.equal(canonical(q(input)), want, input);
  // 1.2e3: DecimalExponent with exponent 2 -> multiple of 3 below: 1200e0 -> "1200"
  assert.equal(canonical(q('1.2e3')), '1200');
});

test(`${AM}/quantity.go CanonicalizeBytes: DecimalSI above E has no suffix; released v0.37.2 prints none ("1000E" -> "1"), newer 357557a falls back to e-notation`, () => {
  assert.equal(canonical(q('1000E')), '1');
  assert.equal(canonical(q('1000E'), { reparseable: true }), '1e21');
  assert.equal(canonical(q('10E')), '10E');
});

test(`${AM}: round trip parse(canonical(q)) == q over a table of values`, () => {
  const inputs = [
    '0', '1', '-1', '1.5', '1.5Gi', '100m', '0.1', '1Ki', '1023Ki', '1.1Ki', '3.001n', '0.9n', '1e3', '1.3E+6', '12E', '1E', '999E',
    '1e21', '1.01E', '9Ei', '-9Ei', '7.123456M', '0.000000000001Ki', '100.035Ki', '0.025Ti', '123456789012345678901234567890',
    '-0.00000012345', '32Gi', '2Gi', '1Gi', '500Mi', '100Gi', '10737418400', '16', '500m', '14500m', '1e999999', '5e-9', '1.5e-7',
    '9223372036854775807', '9223372036854775808', '-9223372036854775809.1', '110', '4Pi', '3Ei', '0.5e-9', '1000000000000000000000m',
  ];
  for (const s of inputs) {
    const a = q(s);
    const c = canonical(a, { reparseable: true });
    const b = q(c);
    assert.equal(cmp(a, b), 0, `${s} -> ${c}`);
    assert.equal(canonical(b, { reparseable: true }), c, `${s} -> ${c} is a fixed point`);
  }
});

test(`${AM}: parsed values equal hand-computed BigInt math (deterministic random table of digits, fractions and suffixes)`, () => {
  let seed = 12345;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const dec: [string, number][] = [['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18]];
  const bin: [string, number][] = [['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60]];
  for (let i = 0; i < 2000; i++) {
    const intDigits = Array.from({ length: rnd(25) }, () => String(rnd(10))).join('');
    const fracDigits = Array.from({ length: rnd(14) }, () => String(rnd(10))).join('');
    const neg = rnd(3) === 0;
    const text = (neg ? '-' : '') + (intDigits || (fracDigits ? '' : '0')) + (fracDigits ? '.' + fracDigits : '');
    const kind = rnd(3);
    const mant = BigInt((intDigits || '0') + fracDigits); // value = mant * 10^-len(frac)
    const fl = fracDigits.length;
    let s: string;
    let num: bigint; // exact value = num / den
    let den: bigint;
    let binary = false;
    if (kind === 0) {
      const [suf, e] = dec[rnd(dec.length)]!;
      s = text + suf;
      num = e >= 0 ? mant * 10n ** BigInt(e) : mant;
      den = 10n ** BigInt(fl + (e < 0 ? -e : 0));
    } else if (kind === 1) {
      const [suf, e] = bin[rnd(bin.length)]!;
      s = text + suf;
      num = mant << BigInt(e);
      den = 10n ** BigInt(fl);
      binary = true;
    } else {
      const e = rnd(41) - 20;
      s = text + 'e' + e;
      num = e >= 0 ? mant * 10n ** BigInt(e) : mant;
      den = 10n ** BigInt(fl + (e < 0 ? -e : 0));
    }
    // nanos, rounded away from zero
    const scaled = num * 1000000000n;
    let n = scaled / den + (scaled % den === 0n ? 0n : 1n);
    if (binary && n > ((1n << 63n) - 1n) * 1000000000n) n = ((1n << 63n) - 1n) * 1000000000n;
    const r = parseQuantity(s);
    assert.ok(r.ok, s);
    assert.equal(nanos(r.q), neg ? -n : n, s);
    // and the canonical string parses back to the same value
    assert.equal(cmp(q(canonical(r.q)), r.q), 0, s);
  }
});

// ---------------------------------------------------------------------------------------------
// Value / MilliValue

test(`${AM}/amount.go AsScaledInt64 (int64 path): Value and MilliValue round away from zero ("1.5" -> 2, "-1.5" -> -2, "1m" -> 1)`, () => {
  assert.equal(value(q('1.5')), 2n);
  assert.equal(value(q('-1.5')), -2n);
  assert.equal(value(q('1m')), 1n);
  assert.equal(value(q('-1m')), -1n);
  assert.equal(milliValue(q('1.5')), 1500n);
  assert.equal(milliValue(q('1n')), 1n);
  assert.equal(milliValue(q('-1n')), -1n);
  assert.equal(milliValue(q('500m')), 500n);
  assert.equal(value(q('32Gi')), 34359738368n);
  assert.equal(milliValue(q('16')), 16000n);
  assert.equal(value(q('0.5Ki')), 512n); // dec path, exact
  assert.equal(value(q('1.5Ki')), 1536n);
  assert.equal(value(q('0.05Gi')), 53687092n); // 53687091.2 rounds up
});

test(`${AM}/quantity_test.go TestScaledValue: NewScaledQuantity(1, s).ScaledValue(t) for Value/MilliValue`, () => {
  assert.equal(value(newQuantity(1n)), 1n);
  assert.equal(milliValue(newQuantity(1n)), 1000n);
  assert.equal(value(newMilliQuantity(1n)), 1n);
  assert.equal(milliValue(newMilliQuantity(1n)), 1n);
  assert.equal(value(q('1n')), 1n);
  assert.equal(milliValue(q('1u')), 1n);
});

test(`${AM}/math.go positiveScaleInt64: int64-path Value() beyond int64 overflows to 0 ("10E", "1e999999", MilliValue of "1E"), or wraps when one multiplication by 10^1, 2, 3, 6 or 9 does it`, () => {
  assert.equal(q('10E').repr, 'int64');
  assert.equal(value(q('10E')), 0n);
  assert.equal(value(q('1e999999')), 0n);
  assert.equal(milliValue(q('1E')), 0n);
  assert.equal(value(q('1E')), 1000000000000000000n);
  assert.equal(milliValue(q('9223372036854775')), 9223372036854775000n);
  // one multiplication by 1000 (int64MultiplyScale1000), its overflow flag dropped by ScaledValue: the wrapped product
  assert.equal(milliValue(q('9223372036854776')), -9223372036854775616n);
  assert.equal(value(q('9223372036855M')), -9223372036854551616n);
  assert.equal(milliValue(q('9223372036855M')), 224192000n);
  // a wrapped int32 scale difference: the value comes back unscaled (kubelet oracle, v0.37.2)
  assert.equal(milliValue(q('1e2147483647')), 1n);
  assert.equal(value(q('1e2147483647')), 0n);
});

test(`${AM}/quantity.go ParseQuantity keeps an int64 value already in canonical form as written: String() gives "+5", "1.500", "30Gi" back`, () => {
  for (const s of ['+5', '1.500', '30Gi', '1Ki', '100m', '12E', '1e21', '05', '007Ki']) assert.equal(canonical(q(s)), s, s);
  // not kept: a binary multiple of 8, a decimal with trailing 000, a scale not a multiple of 3
  for (const [s, c] of [['8Ki', '8Ki'], ['1024Ki', '1Mi'], ['1000k', '1M'], ['1.5', '1500m'], ['0.5Gi', '512Mi']]) assert.equal(canonical(q(s!)), c, s);
  // arithmetic gives a computed form (Add clears the kept string)
  assert.equal(canonical(sub(q('0'), q('+5'))), '-5');
});

test(`${AM}/scale_int.go scaledValue (inf.Dec path): low 64 bits beyond int64, and negatives use int64 division toward zero + 1`, () => {
  // "8Ei" is capped at 2^63-1 with scale 0: MilliValue = int64((2^63-1) * 1000) wraps to -1000
  assert.equal(value(q('8Ei')), 9223372036854775807n);
  assert.equal(milliValue(q('8Ei')), -1000n);
  assert.equal(milliValue(q('-9Ei')), 1000n);
  // 20 digits: dec path; positive rounds up, beyond int64 keeps the low 64 bits
  assert.equal(value(q('18446744073709551617')), 1n);
  assert.equal(value(q('9223372036854775808')), -9223372036854775808n);
  assert.equal(value(q('1.5000000000000000000')), 2n);
  // negative dec path: trunc(-1.5) + 1 = 0 (the int64 path gives -2)
  assert.equal(q('-1.5000000000000000000').repr, 'dec');
  assert.equal(value(q('-1.5000000000000000000')), 0n);
  assert.equal(value(q('-1.5')), -2n);
  // "-0.0000000001" is -1n on the dec path: MilliValue = trunc(-1/10^6) + 1 = 1 (positive!)
  assert.equal(milliValue(q('-0.0000000001')), 1n);
  assert.equal(milliValue(q('-1n')), -1n); // same value via the int64 path: away from zero
});


// ---------------------------------------------------------------------------------------------
// Docs example (kubernetes/website reserve-compute-resources.md "Example Scenario"; reference doc section 1)

test('docs example: memory 32Gi - 2Gi - 1Gi - 500Mi = 30614224896 bytes (hand BigInt math and quantity arithmetic agree)', () => {
  const hand = 34359738368n - 2147483648n - 1073741824n - 524288000n;
  assert.equal(hand, 30614224896n);
  const viaValue = value(q('32Gi')) - value(q('2Gi')) - value(q('1Gi')) - value(q('500Mi'));
  assert.equal(viaValue, hand);
  const viaSub = sub(sub(sub(q('32Gi'), q('2Gi')), q('1Gi')), q('500Mi'));
  assert.equal(value(viaSub), hand);
  assert.equal(canonical(viaSub), '29196Mi');
  assert.equal(formatBytes(hand), '28.51 GiB');
});

test('docs example: storage 100Gi - 1Gi - 1Gi - 10% (10737418400) = 94489280352 bytes', () => {
  const hand = 107374182400n - 2147483648n - 10737418400n;
  assert.equal(hand, 94489280352n);
  assert.equal(value(q('100Gi')) - value(q('1Gi')) - value(q('1Gi')) - 10737418400n, hand);
});

test('docs example: cpu 16 - 1 - 500m = 14500m (MilliValue), canonical "14500m", display "14.5"', () => {
  const m = milliValue(q('16')) - milliValue(q('1')) - milliValue(q('500m'));
  assert.equal(m, 14500n);
  const r = sub(sub(q('16'), q('1')), q('500m'));
  assert.equal(canonical(r), '14500m');
  assert.equal(milliValue(r), 14500n);
  assert.equal(formatMillicores(m), '14.5');
});

// ---------------------------------------------------------------------------------------------
// Arithmetic

test(`${AM}/quantity.go Add/Sub: exact, result takes the other's format when the receiver is zero (TestQuantityAddZeroPreservesSuffix)`, () => {
  for (const s of ['100m', '1Gi']) {
    assert.equal(canonical(add(q(s), q('0'))), s);
    assert.equal(canonical(add(q('0'), q(s))), s);
    assert.equal(canonical(sub(q(s), q('0'))), s);
    assert.equal(canonical(sub(q('0'), q(s))), '-' + s);
  }
  assert.equal(canonical(add(q('1Gi'), q('512Mi'))), '1536Mi');
  assert.equal(canonical(add(q('1'), q('1Gi'))), '1073741825');
  assert.equal(canonical(add(q('1Gi'), q('1'))), '1073741825');
  assert.equal(canonical(sub(q('1'), q('1500m'))), '-500m');
  assert.equal(cmp(add(q('0.1'), q('0.2')), q('300m')), 0);
  assert.equal(cmp(add(q('1e999999'), q('-1e999999')), q('0')), 0);
  assert.equal(nanos(add(q('9223372036854775807'), q('1'))), 9223372036854775808000000000n); // beyond int64: exact, dec form
  assert.equal(add(q('9223372036854775807'), q('1')).repr, 'dec');
  assert.equal(add(q('1'), q('2')).repr, 'int64');
});

test(`${AM}: cmp, isNegative, isZero on exact values (TestQuantityCmp: 10000T > 100Gi)`, () => {
  assert.equal(cmp(q('10000T'), q('100Gi')), 1);
  assert.equal(cmp(q('100m'), q('50m')), 1);
  assert.equal(cmp(q('50m'), q('100m')), -1);
  assert.equal(cmp(q('0'), q('0')), 0);
  assert.equal(cmp(q('1Ki'), q('1024')), 0);
  assert.equal(cmp(q('-1'), q('1n')), -1);
  assert.equal(cmp(q('-2'), q('-1')), -1);
  assert.equal(cmp(q('1e999999'), q('9'.repeat(5000))), 1);
  assert.ok(isNegative(q('-1n')));
  assert.ok(!isNegative(q('0')));
  assert.ok(isZero(q('0Mi')));
});

test('formatBytes / formatMillicores for display', () => {
  assert.equal(formatBytes(536870912n), '512 MiB');
  assert.equal(formatBytes(30601641984n), '28.5 GiB');
  assert.equal(formatBytes(1000n), '1000 B');
  assert.equal(formatBytes(0n), '0 B');
  assert.equal(formatBytes(1536n), '1.5 KiB');
  assert.equal(formatBytes(-2147483648n), '-2 GiB');
  assert.equal(formatBytes(107374182400n), '100 GiB');
  assert.equal(formatMillicores(500n), '500m');
  assert.equal(formatMillicores(14500n), '14.5');
  assert.equal(formatMillicores(16000n), '16');
  assert.equal(formatMillicores(1250n), '1.25');
  assert.equal(formatMillicores(0n), '0');
  assert.equal(formatMillicores(-500n), '-500m');
});

// ---------------------------------------------------------------------------------------------
// Hostile input: bounded time, result or clear error

function timed<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}

test('hostile input is bounded: 1e999999, a 10,000-digit number, "9".repeat(100000), huge exponents', () => {
  // warm up the JIT so the timing measures the algorithm
  for (let i = 0; i < 3; i++) parseQuantity('9'.repeat(100000));
  const [a, ta] = timed(() => parseQuantity('1e999999'));
  assert.ok(a.ok);
  if (a.ok) {
    assert.equal(canonical(a.q), '1e999999');
    assert.equal(value(a.q), 0n); // int64 path overflow -> 0
  }
  const [b, tb] = timed(() => parseQuantity('7'.repeat(10000)));
  assert.ok(b.ok);
  if (b.ok) assert.equal(canonical(b.q), '7'.repeat(10000));
  const [c, tc] = timed(() => parseQuantity('9'.repeat(100000)));
  assert.equal(c.ok, false);
  if (!c.ok) {
    assert.equal(c.analyzerLimit, true);
    assert.match(c.error, /apimachinery would accept it/);
  }
  const [d, td] = timed(() => parseQuantity('1' + '0'.repeat(30) + 'e2147483647'));
  assert.ok(d.ok);
  const [e, te] = timed(() => parseQuantity('0.' + '0'.repeat(99998) + '1'));
  assert.ok(e.ok);
  if (e.ok) assert.equal(canonical(e.q), '1n');
  const [f, tf] = timed(() => parseQuantity('1e' + '9'.repeat(100000)));
  assert.equal(f.ok, false);
  const [g, tg] = timed(() => parseQuantity('1.' + '5'.repeat(100000) + 'Ki'));
  assert.equal(g.ok, false); // BinarySI with > MAX_DIGITS digits: analyzer limit
  for (const [name, t] of [['1e999999', ta], ['10k digits', tb], ['100k digits', tc], ['30 digits e2^31', td], ['100k frac', te], ['100k exp', tf], ['100k bin', tg]] as const) {
    assert.ok(t < HANG_MS, `${name} took ${t.toFixed(2)} ms`);
  }
  if (d.ok) {
    const [, tv] = timed(() => [value(d.q), milliValue(d.q), canonical(d.q), cmp(d.q, a.ok ? a.q : d.q)]);
    assert.ok(tv < HANG_MS);
  }
});
