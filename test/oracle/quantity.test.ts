/**
 * Differential test of quantities and durations against the real code (test/oracle/kubelet-oracle): apimachinery
 * v0.37.2's resource.ParseQuantity with String(), Value() and MilliValue(), and Go's time.ParseDuration, on generated
 * strings full of corners (test/oracle/quantities.ts): values past int64, exponents that wrap the int32 scale,
 * canonical inputs String() keeps as written, durations past int64 nanoseconds. The long run is in `npm run fuzz`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { missing, REQUIRED, runKubeletOracle } from './oracles.ts';
import { compareDurations, compareQuantities, durationString, quantityString } from './quantities.ts';

const notReady = missing('kubelet');
const skip = notReady && !REQUIRED ? notReady : false;

/** Strings per run of `npm test`, for each of the two. */
const CASES = 3000;

test('the quantity oracle answers like apimachinery: kept strings, int64 wrap, no suffix above E', { skip }, () => {
  assert.equal(notReady, undefined, notReady);
  const [kept, wrap, oversize, bad] = runKubeletOracle('quantity', ['+5', '9223372036855M', '1000E', '1 Gi']);
  assert.deepEqual(kept, { ok: true, string: '+5', value: '5', milli: '5000' });
  assert.deepEqual(wrap, { ok: true, string: '9223372036855M', value: '-9223372036854551616', milli: '224192000' });
  assert.equal(oversize!.string, '1');
  assert.equal(bad!.ok, false);
  const [d] = runKubeletOracle('duration', ['1h1.5m']);
  assert.equal(d!.nanos, String(3_690_000_000_000));
});

test(`the engine parses ${CASES} generated quantities as apimachinery does: error or String(), Value(), MilliValue() (seed 1)`, { skip }, () => {
  const inputs = fc.sample(quantityString, { numRuns: CASES, seed: 1 });
  const diffs = compareQuantities(inputs, runKubeletOracle('quantity', inputs));
  const shown = diffs.slice(0, 5).map((d) => `${JSON.stringify(d.input)}\n${d.diff}`).join('\n\n');
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES} quantities read differently:\n${shown}`);
});

test(`the engine parses ${CASES} generated durations as time.ParseDuration does (seed 1)`, { skip }, () => {
  const inputs = fc.sample(durationString, { numRuns: CASES, seed: 1 });
  const diffs = compareDurations(inputs, runKubeletOracle('duration', inputs));
  const shown = diffs.slice(0, 5).map((d) => `${JSON.stringify(d.input)}\n${d.diff}`).join('\n\n');
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES} durations read differently:\n${shown}`);
});
