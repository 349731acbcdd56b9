/**
 * Differential test of environment files against Debian's systemd 252 (test/oracle/env-files.ts): its environment.d
 * generator reads files with the same parser as EnvironmentFile= (parse_env_file_internal(), src/basic/env-file.c).
 * The long run is in `npm run fuzz` (test/fuzz/run-long.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { missing, REQUIRED } from './oracles.ts';
import { compareEnvFiles, envFileText } from './env-files.ts';

const notReady = missing('envfile');
const skip = notReady && !REQUIRED ? notReady : false;

/** Files per run of `npm test` (one generator run reads them all). */
const CASES = 1000;

test(`env files read as systemd 252 reads them (${CASES} generated files, seed 1; comment continuation before 254)`, { skip }, () => {
  assert.equal(notReady, undefined, notReady);
  const diffs = compareEnvFiles(fc.sample(envFileText, { numRuns: CASES, seed: 1 }));
  const shown = diffs.slice(0, 5).map((d) => `${JSON.stringify(d.text)}\n${d.diff}`).join('\n\n');
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES} files read differently:\n${shown}`);
});
