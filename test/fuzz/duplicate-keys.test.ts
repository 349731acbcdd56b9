/** Bounded runs of test/fuzz/duplicate-keys.ts (npm run fuzz runs them longer). */
import { test } from 'node:test';
import fc from 'fast-check';
import { repeatedContents, repeatedContentsProperty, repeatedKeys, repeatedKeysProperty } from './duplicate-keys.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 40;
const SEED = 20261202;

test('repeated keys in a platform file: the model takes the last value of each, and each earlier one is reported as the tool takes it', () => {
  fc.assert(fc.property(repeatedKeys, (x) => repeatedKeysProperty(x)), { numRuns: RUNS * 2, seed: SEED });
});

test('repeated "contents" of one Ignition file or Butane entry: the last one is the file written', () => {
  fc.assert(fc.property(repeatedContents, (x) => repeatedContentsProperty(x)), { numRuns: RUNS, seed: SEED });
});
