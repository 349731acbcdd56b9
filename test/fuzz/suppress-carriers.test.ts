/** Bounded runs of test/fuzz/suppress-carriers.ts (npm run fuzz runs it longer). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { WRAPS, suppressionCase, suppressionCaseProperty, suppressionProperty } from './suppress-carriers.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 15;
const SEED = 20261203;

test('disable actions in carriers: applied, the finding goes and nothing else changes', () => {
  let applied = 0;
  fc.assert(fc.property(suppressionCase, (c) => void (applied += suppressionCaseProperty(c))), { numRuns: RUNS * WRAPS.length, seed: SEED });
  assert.ok(applied > 0);
});

test('disable actions in each carrier holding a config with known mistakes: offered for line and file, and they hold', () => {
  const mistakes = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: 5\nkubeReserved:\n  memroy: 1Gi\n';
  for (const [path, wrap] of WRAPS) {
    const n = suppressionProperty(path, wrap(mistakes));
    assert.ok(n >= 2, `${path}: ${n} actions`);
  }
});
