/** Bounded runs of test/fuzz/hardening.ts (npm run fuzz runs them longer). */
import { test } from 'node:test';
import fc from 'fast-check';
import * as H from './hardening.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 30;
const SEED = 20261201;

test('expansion size: the expanded command line stays bounded and its excess is reported', () => {
  fc.assert(fc.property(H.expansion, (x) => H.expansionProperty(x)), { numRuns: Math.min(RUNS, 60), seed: SEED });
  // `npm run fuzz`, seed 855233423: 1.88 MB of arguments and 205 KB of environment pass 2 MiB together
  H.expansionProperty({ refs: 8, flags: 1059, inline: false, flagLength: 193 });
});

test('stale code actions: a diagnostic of an older text yields only fixes of the current one', () => {
  fc.assert(fc.property(H.staleEdit, (x) => H.staleCodeActionProperty(x)), { numRuns: RUNS * 2, seed: SEED });
});

test('links: the CLI walk ends, stays under its root and reads nothing outside it', () => {
  fc.assert(fc.property(H.linkTree, (t) => H.linkProperty(t)), { numRuns: RUNS, seed: SEED });
});
