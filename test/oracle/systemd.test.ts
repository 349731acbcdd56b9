/**
 * Differential test against Debian's systemd (252): generated services (a unit plus drop-ins, test/oracle/units.ts)
 * go through `systemd --test` and through the engine's unit parser and service model; each unit's load state
 * (loaded or refused), its Environment= and EnvironmentFile= lists and its ExecStart= and ExecStartPre= command lines
 * must agree. The long run is in
 * `npm run fuzz` (test/fuzz/run-long.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { missing, REQUIRED, runSystemd, unitName } from './oracles.ts';
import { compareServices, serviceCase } from './units.ts';

const notReady = missing('systemd');
const skip = notReady && !REQUIRED ? notReady : false;

/** Cases per run of `npm test` (one systemd start loads them all: about a second). */
const CASES = 600;

test('systemd --test dumps Environment=, EnvironmentFile= and the Exec lines as the oracle reads them', { skip }, () => {
  assert.equal(notReady, undefined, notReady);
  const [v] = runSystemd([{ unit: '[Service]\nEnvironment="A=1 2" B=$A\nExecStart=/usr/bin/kubelet "--x=a b" $B \\\\x41\n', dropIns: [] }]);
  assert.deepEqual(v, {
    loadState: 'loaded',
    environment: ['A=1 2', 'B=$A'],
    execStart: [['/usr/bin/kubelet', '--x=a b', '$B', '\\x41']],
    execStartPre: [],
    environmentFiles: [],
  });
});

test(`the engine reads ${CASES} generated services as systemd 252 does (seed 1)`, { skip }, () => {
  const cases = fc.sample(serviceCase, { numRuns: CASES, seed: 1 });
  const diffs = compareServices(cases, runSystemd);
  const shown = diffs.slice(0, 5).map((d) => `${JSON.stringify(d.case)}\n${d.diff}`).join('\n\n');
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES} services read differently (${unitName(0)}...):\n${shown}`);
});

// Issue #18: read_line() (src/basic/fileio.c, categorize_eol) ends a line at "\n", "\r" or "\r\n"; "\n\r" is one end.
test('systemd reads a unit with CR-only, CRLF and LF-CR line ends as the same unit with LF, and so does the engine', { skip }, () => {
  const unit = '[Service]\nEnvironment=A=1\nExecStart=/usr/bin/kubelet --v=2 \\\n  --max-pods=10 $A\n';
  const dropIn = '[Service]\nEnvironment=B=2\n#c \\\nEnvironment=C=3\n';
  const cases = ['\n', '\r', '\r\n', '\n\r'].map((eol) => ({ unit: unit.replaceAll('\n', eol), dropIns: [['10-x.conf', dropIn.replaceAll('\n', eol)]] as [string, string][] }));
  const verdicts = runSystemd(cases);
  for (const v of verdicts) assert.deepEqual(v, { loadState: 'loaded', environment: ['A=1', 'B=2', 'C=3'], execStart: [['/usr/bin/kubelet', '--v=2', '--max-pods=10', '$A']], execStartPre: [], environmentFiles: [] });
  assert.deepEqual(compareServices(cases, () => verdicts), []);
});
