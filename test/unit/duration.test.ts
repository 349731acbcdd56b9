import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HANG_MS } from '../helpers/hang.ts';
import { parseGoDuration, parseGracePeriod } from '../../server/src/quantity/duration.ts';

const SRC = 'golang/go src/time/format.go ParseDuration';

function ok(s: string): bigint {
  const r = parseGoDuration(s);
  assert.ok(r.ok, `${s}: ${r.ok ? '' : r.error}`);
  return r.ok ? r.nanos : 0n;
}
function err(s: string): string {
  const r = parseGoDuration(s);
  assert.equal(r.ok, false, s);
  return r.ok ? '' : r.error;
}

test(`${SRC}: units ns us µs μs ms s m h, fractions, sign, several elements`, () => {
  const cases: [string, bigint][] = [
    ['0', 0n], ['5s', 5000000000n], ['30s', 30000000000n], ['1478s', 1478000000000n], ['-5s', -5000000000n], ['+5s', 5000000000n],
    ['-0', 0n], ['+0', 0n], ['5.0s', 5000000000n], ['5.6s', 5600000000n], ['5.s', 5000000000n], ['.5s', 500000000n], ['1.0s', 1000000000n],
    ['1.00s', 1000000000n], ['1.004s', 1004000000n], ['1.0040s', 1004000000n], ['100.00100s', 100001000000n], ['10ns', 10n],
    ['11us', 11000n], ['12µs', 12000n], ['12μs', 12000n], ['13ms', 13000000n], ['14s', 14000000000n], ['15m', 900000000000n],
    ['16h', 57600000000000n], ['3h30m', 12600000000000n], ['10.5s4m', 250500000000n], ['-2m3.4s', -123400000000n],
    ['1h2m3s4ms5us6ns', 3723004005006n], ['39h9m14.425s', 140954425000000n], ['52763797000ns', 52763797000n],
    ['0.3333333333333333333h', 1200000000000n], ['9007199254740993ns', 9007199254740993n],
    ['9223372036854775807ns', 9223372036854775807n], ['9223372036854775.807us', 9223372036854775807n],
    ['9223372036s854ms775us807ns', 9223372036854775807n], ['-9223372036854775808ns', -9223372036854775808n],
    ['-9223372036854775.808us', -9223372036854775808n], ['-9223372036s854ms775us808ns', -9223372036854775808n],
    ['-2562047h47m16.854775808s', -9223372036854775808n], ['0.100000000000000000000h', 360000000000n],
    ['0.830103483285477580700h', 2988372539827n], ['1.5h', 5400000000000n], ['300ms', 300000000n], ['0s', 0n], ['0.0s', 0n],
  ];
  for (const [s, want] of cases) assert.equal(ok(s), want, s);
});

test(`${SRC}: error texts "time: invalid duration", "time: missing unit in duration", "time: unknown unit ... in duration"`, () => {
  assert.equal(err('x'), 'time: invalid duration "x"');
  assert.equal(err('1'), 'time: missing unit in duration "1"');
  assert.equal(err('1d'), 'time: unknown unit "d" in duration "1d"');
  assert.equal(err(''), 'time: invalid duration ""');
  assert.equal(err('-'), 'time: invalid duration "-"');
  assert.equal(err('s'), 'time: invalid duration "s"');
  assert.equal(err('.'), 'time: invalid duration "."');
  assert.equal(err('-.'), 'time: invalid duration "-."');
  assert.equal(err('.s'), 'time: invalid duration ".s"');
  assert.equal(err('+.s'), 'time: invalid duration "+.s"');
  assert.equal(err('1.5'), 'time: missing unit in duration "1.5"');
  assert.equal(err('3000000h'), 'time: invalid duration "3000000h"');
  assert.equal(err('9223372036854775808ns'), 'time: invalid duration "9223372036854775808ns"');
  assert.equal(err('9223372036854775.808us'), 'time: invalid duration "9223372036854775.808us"');
  assert.equal(err('9223372036854ms775us808ns'), 'time: invalid duration "9223372036854ms775us808ns"');
  assert.equal(err('-9223372036854775809ns'), 'time: invalid duration "-9223372036854775809ns"');
  assert.equal(err('1 s'), 'time: unknown unit " s" in duration "1 s"');
  assert.equal(err(' 1s'), 'time: invalid duration " 1s"');
  assert.equal(err('1S'), 'time: unknown unit "S" in duration "1S"');
  assert.equal(err('5m0'), 'time: missing unit in duration "5m0"');
  assert.equal(err('1sec'), 'time: unknown unit "sec" in duration "1sec"');
  assert.equal(err('--1s'), 'time: invalid duration "--1s"');
  // time.quote: non-ASCII and control bytes as \xNN of their UTF-8 encoding, " and \ escaped
  assert.equal(err('1µ'), 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"');
  assert.equal(err('1"'), 'time: unknown unit "\\"" in duration "1\\""');
  assert.equal(err('\t1s'), 'time: invalid duration "\\x091s"');
});

test(`${SRC}: hostile input stays bounded (100k digits, long fraction)`, () => {
  const t = performance.now();
  assert.equal(err('9'.repeat(100000) + 's'), `time: invalid duration "${'9'.repeat(100000)}s"`);
  assert.equal(ok('1.' + '0'.repeat(100000) + 's'), 1000000000n);
  assert.ok(performance.now() - t < HANG_MS, 'stuck'); // speed is npm run bench's; this only catches a hang
});

test('pkg/kubelet/eviction/helpers.go parseGracePeriods: negative grace period is an error, zero is fine', () => {
  const r = parseGracePeriod('-1s');
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.error, 'invalid eviction grace period specified: -1s, must be a positive value');
  const z = parseGracePeriod('0s');
  assert.ok(z.ok && z.nanos === 0n);
  const e = parseGracePeriod('90');
  assert.ok(!e.ok && e.error === 'time: missing unit in duration "90"');
});
