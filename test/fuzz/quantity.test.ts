/**
 * Quantities (server/src/quantity/quantity.ts) against BigInt reference math:
 * parse keeps the exact value (rounded away from zero to nano), canonical() round-trips,
 * add/sub/cmp/value/milliValue agree with plain BigInt arithmetic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonical, cmp, mustParse, newQuantity, parseQuantity } from '../../server/src/quantity/quantity.ts';
import * as G from './gen.ts';
import * as P from './props.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 1500;
const SEED = 20261129;
const INT64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });

test('parseQuantity keeps the exact value: nanos/value/milliValue match BigInt reference math', () => {
  fc.assert(fc.property(P.qspec, (q) => P.quantityReferenceProperty(q)), { numRuns: RUNS, seed: SEED });
});

test('add/sub/cmp match BigInt reference math', () => {
  fc.assert(fc.property(P.qspec, P.qspec, (a, b) => P.quantityArithmeticProperty(a, b)), { numRuns: RUNS, seed: SEED });
});

test('parse -> canonical -> parse keeps the value, and canonical is a fixed point', () => {
  fc.assert(fc.property(fc.oneof(G.quantityText, P.qspec.map(P.qText), fc.string({ maxLength: 12 })), (t) => P.quantityRoundTripProperty(t)), { numRuns: RUNS, seed: SEED });
});

test('newQuantity/newMilliQuantity -> canonical -> parse gives the integer back', () => {
  fc.assert(
    fc.property(INT64, fc.boolean(), fc.constantFrom('DecimalSI' as const, 'BinarySI' as const, 'DecimalExponent' as const), (v, milli, format) => {
      // apimachinery itself does not round-trip MinInt64 as BinarySI: see the regression test below.
      fc.pre(!(v === -(1n << 63n) && !milli && format === 'BinarySI'));
      P.quantityFromIntProperty(v, milli, format);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

// Regression (found by the property above, seed 42, counterexample [-9223372036854775808n, false, "BinarySI"]).
// Not a bug of ours: apimachinery prints NewQuantity(math.MinInt64, BinarySI) as "-8Ei", and ParseQuantity("-8Ei")
// caps BinarySI at 2^63-1 in magnitude (quantity.go parseQuantityString: "if the value is out of range, clamp it").
test('regression: MinInt64 BinarySI prints as -8Ei, which parses back capped to -(2^63-1), like apimachinery', () => {
  const q = newQuantity(-(1n << 63n), 'BinarySI');
  assert.equal(canonical(q), '-8Ei');
  const back = parseQuantity('-8Ei');
  assert.ok(back.ok);
  assert.equal(back.ok && back.q.coef, -((1n << 63n) - 1n));
  assert.equal(cmp(mustParse('-8Ei'), mustParse('-9223372036854775807')), 0);
});
