import { HANG_MS } from '../helpers/hang.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonical } from '../../server/src/quantity/quantity.ts';
import {
  parseFloat32,
  parseMinimumReclaimValue,
  parsePercentage,
  parseThresholdValue,
  rawPercentage,
  thresholdQuantity,
} from '../../server/src/quantity/threshold.ts';

const H = 'pkg/kubelet/eviction/helpers.go';
const T = 'pkg/kubelet/eviction/api/types.go GetThresholdQuantity';

test(`${H} parsePercentage: ParseFloat(TrimRight(s,"%"),32) then float32(v)/100 in float32 (10% -> float32 0.1)`, () => {
  const p = parsePercentage('10%');
  assert.ok(p.ok && !p.dropped);
  if (p.ok) assert.equal(p.fraction, Math.fround(0.1));
  assert.equal(Math.fround(0.1), 0.10000000149011612);
  const q = parsePercentage('5.5%');
  assert.ok(q.ok);
  if (q.ok) assert.equal(q.fraction, Math.fround(Math.fround(5.5) / 100));
  // TrimRight removes every trailing %
  const r = rawPercentage('10%%%');
  assert.ok(r.ok && r.fraction === Math.fround(0.1));
});

test(`${T}: int64(float64(capacity)*float64(pct)): 10% of 107374182400 is 10737418400, not 10737418240 (docs example)`, () => {
  const p = parsePercentage('10%');
  assert.ok(p.ok);
  if (!p.ok) return;
  assert.equal(thresholdQuantity(107374182400n, p.fraction), 10737418400n);
  assert.equal(107374182400n / 10n, 10737418240n);
  // truncation toward zero
  assert.equal(thresholdQuantity(7n, 0.5), 3n);
  assert.equal(thresholdQuantity(-7n, 0.5), -3n);
  // float64(capacity) rounds above 2^53: 2^53+1 becomes 2^53
  assert.equal(thresholdQuantity(9007199254740993n, 1), 9007199254740992n);
  // NaN / out of range: amd64 int64 conversion gives -2^63
  assert.equal(thresholdQuantity(100n, NaN), -(1n << 63n));
  assert.equal(thresholdQuantity(1n << 63n, 1), -(1n << 63n));
});

test(`${H} parseThresholdStatement: exactly "0%" and "100%" create no threshold; "0.0%" and "100.0%" do`, () => {
  assert.deepEqual(parseThresholdValue('0%'), { kind: 'dropped' });
  assert.deepEqual(parseThresholdValue('100%'), { kind: 'dropped' });
  assert.deepEqual(parseThresholdValue('0.0%'), { kind: 'percentage', fraction: 0 });
  assert.deepEqual(parseThresholdValue('100.0%'), { kind: 'percentage', fraction: 1 });
  assert.deepEqual(parseThresholdValue('00%'), { kind: 'percentage', fraction: 0 });
  const p = parsePercentage('0%');
  assert.ok(p.ok && p.dropped);
});

test(`${H} parseThresholdStatement: percent < 0 or > 100 is an error with the kubelet's message; NaN passes both checks`, () => {
  assert.deepEqual(parseThresholdValue('-1%', 'memory.available'), { kind: 'error', error: 'eviction percentage threshold memory.available must be >= 0%: -1%' });
  assert.deepEqual(parseThresholdValue('101%', 'nodefs.available'), { kind: 'error', error: 'eviction percentage threshold nodefs.available must be <= 100%: 101%' });
  assert.deepEqual(parseThresholdValue('100.00001%', 'x'), { kind: 'error', error: 'eviction percentage threshold x must be <= 100%: 100.00001%' });
  assert.deepEqual(parseThresholdValue('abc%'), { kind: 'error', error: 'strconv.ParseFloat: parsing "abc": invalid syntax' });
  assert.deepEqual(parseThresholdValue('%'), { kind: 'error', error: 'strconv.ParseFloat: parsing "": invalid syntax' });
  assert.deepEqual(parseThresholdValue('1e39%'), { kind: 'error', error: 'strconv.ParseFloat: parsing "1e39": value out of range' });
  const nan = parseThresholdValue('NaN%');
  assert.equal(nan.kind, 'percentage');
  if (nan.kind === 'percentage') assert.ok(Number.isNaN(nan.fraction));
  assert.equal(parseThresholdValue('inf%').kind, 'error');
  assert.equal(parseThresholdValue(' 10%').kind, 'error');
});

test(`${H} parseThresholdStatement: quantity must be > 0 (zero and negative are errors, message uses q.String())`, () => {
  const q = parseThresholdValue('500Mi');
  assert.equal(q.kind, 'quantity');
  if (q.kind === 'quantity') assert.equal(canonical(q.q), '500Mi');
  assert.deepEqual(parseThresholdValue('0', 'memory.available'), { kind: 'error', error: 'eviction threshold memory.available must be positive: 0' });
  assert.deepEqual(parseThresholdValue('0Mi', 's'), { kind: 'error', error: 'eviction threshold s must be positive: 0' });
  assert.deepEqual(parseThresholdValue('-1.5Gi', 's'), { kind: 'error', error: 'eviction threshold s must be positive: -1536Mi' });
  assert.deepEqual(parseThresholdValue('1GB'), {
    kind: 'error',
    error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  });
});

test(`${H} parseMinimumReclaims: percent must be > 0, quantity must not be negative (zero allowed), no 0%/100% special case`, () => {
  assert.deepEqual(parseMinimumReclaimValue('0%', 'memory.available'), { kind: 'error', error: 'eviction percentage minimum reclaim memory.available must be positive: 0%' });
  assert.equal(parseMinimumReclaimValue('100%').kind, 'percentage');
  assert.equal(parseMinimumReclaimValue('0').kind, 'quantity');
  assert.deepEqual(parseMinimumReclaimValue('-1Mi', 'nodefs.available'), { kind: 'error', error: 'negative eviction minimum reclaim specified for nodefs.available' });
});

test('golang/go src/strconv/atof.go ParseFloat(s, 32): syntax (inf/nan, hex, underscores, exponent) and correct float32 rounding', () => {
  const v = (s: string): number => {
    const r = parseFloat32(s);
    assert.ok(r.ok, s);
    return r.value;
  };
  assert.equal(v('10'), 10);
  assert.equal(v('0.1'), Math.fround(0.1));
  assert.equal(v('+1.5e1'), 15);
  assert.equal(v('.5'), 0.5);
  assert.equal(v('5.'), 5);
  assert.equal(v('1_0'), 10); // underscoreOK: between digits
  assert.equal(v('0x1p-2'), 0.25);
  assert.equal(v('0x1.8p1'), 3);
  assert.equal(v('inf'), Infinity);
  assert.equal(v('-Infinity'), -Infinity);
  assert.ok(Number.isNaN(v('nan')));
  assert.equal(v('3.4028235e38'), 3.4028234663852886e38); // max float32
  assert.equal(v('1e-46'), 0); // underflow to zero, no error
  assert.equal(v('1.401298464324817e-45'), 1.401298464324817e-45); // smallest subnormal
  // halfway cases: ties to even. 16777217 is halfway between 16777216 and 16777218
  assert.equal(v('16777217'), 16777216);
  assert.equal(v('16777219'), 16777220);
  assert.equal(v('16777217.000000000000000000000001'), 16777218);
  // double rounding trap: decimal -> float64 -> float32 would differ here
  assert.equal(v('1.00000005960464477539062500000001'), 1.0000001192092896);
  for (const bad of ['', '1_', '_1', '1__0', 'abc', '1e', '1e+', '0x1', '+nan', 'infin', '1.2.3', ' 1', '1 ', '0x', '--1']) {
    const r = parseFloat32(bad);
    assert.equal(r.ok, false, JSON.stringify(bad));
    if (!r.ok) assert.equal(r.error, `strconv.ParseFloat: parsing ${JSON.stringify(bad)}: invalid syntax`);
  }
  const o = parseFloat32('3.5e38');
  assert.ok(!o.ok && o.error === 'strconv.ParseFloat: parsing "3.5e38": value out of range' && o.value === Infinity);
  const t = performance.now();
  assert.equal(parseFloat32('1' + '0'.repeat(100000)).ok, false);
  assert.equal(v('0.' + '0'.repeat(100000) + '1'), 0);
  assert.ok(performance.now() - t < HANG_MS);
});
