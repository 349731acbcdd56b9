/**
 * The real-world precision suite (test/realworld/README.md): real public files from many repositories, each group
 * analysed as one workspace through the engine. Fails on
 *   (a) an exception or a range outside its file,
 *   (b) an error or warning that JUDGMENTS.tsv does not judge (a new finding: judge it, true or false, with its source),
 *   (c) a judgment that matches no finding any more (stale: delete the row; if it was false, lower KNOWN_FALSE),
 *   (d) more findings judged false than KNOWN_FALSE (the ratchet: known false findings are tolerated while the
 *       platform layer is fixed, a new one is not), or fewer (lower KNOWN_FALSE so it never goes back up),
 *   (e) a file read as another kind than MANIFEST.tsv's "read as" column says (update the column, see the README).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertFindingsInside } from '../helpers/ranges.ts';
import { analyze } from '../../server/src/engine.ts';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { analyseGroup, groups, judgments, keyOf, readAs, REALWORLD, reported, type Reported } from '../helpers/realworld.ts';

/**
 * The ratchet: how many errors and warnings of the suite are judged false today. It may only go down; the false
 * findings are listed, grouped by cause, in test/realworld/README.md.
 */
const KNOWN_FALSE = 0;

const all = groups();
const judged = judgments();
const byKey = new Map(judged.map((j) => [keyOf(j.file, j.line, j.code, j.severity), j]));
const seen = new Set<string>();
const found: Reported[] = [];

test('the suite is there: at least 150 files in the groups, every judgment well formed', () => {
  assert.ok(all.reduce((n, g) => n + g.files.length, 0) >= 150);
  for (const j of judged) {
    assert.ok(j.verdict === 'true' || j.verdict === 'false', `${j.file}:${j.line} ${j.code}: verdict ${j.verdict}`);
    assert.ok(j.source && j.reason, `${j.file}:${j.line} ${j.code}: a judgment needs its source and reason`);
  }
  assert.equal(byKey.size, judged.length, 'a judgment is listed twice');
});

for (const g of all) {
  test(`realworld ${g.name}: no exception, ranges inside, every error and warning judged`, () => {
    const a = analyseGroup(g);
    assertFindingsInside(new Map(g.files.map((f) => [f.path, f.text])), a.findings);
    const unjudged: string[] = [];
    for (const r of reported(g, a)) {
      seen.add(r.key);
      found.push(r);
      if (!byKey.has(r.key)) unjudged.push(`${r.file}\t${r.line}\t${r.code}\t${r.severity}\t${r.message}`);
    }
    assert.deepEqual(unjudged, [], 'unjudged findings: add a row to test/realworld/JUDGMENTS.tsv for each');
  });
}

test('no stale judgment: each row of JUDGMENTS.tsv still matches a finding', () => {
  const stale = judged.filter((j) => !seen.has(keyOf(j.file, j.line, j.code, j.severity))).map((j) => `${j.file}:${j.line} ${j.code} (${j.verdict})`);
  assert.deepEqual(stale, [], 'these findings are gone: delete their rows (and lower KNOWN_FALSE for each false one)');
});

test('recall: each true finding that rests on what no file here states (a version, a value filled in, a file matched by name alone) is still reported, as information that says its condition (and, for a version, as its error with the version given)', () => {
  const rows = judgments('JUDGMENTS-CONDITIONAL.tsv');
  assert.ok(rows.length >= 30);
  const byGroup = new Map(all.map((g) => [g.name, g]));
  const missing: string[] = [];
  for (const j of rows) {
    assert.equal(j.verdict, 'true', `${j.file}:${j.line}: only true findings are kept here`);
    const g = [...byGroup.values()].find((x) => j.file.startsWith(`${x.name}/`))!;
    const at = (a: ReturnType<typeof analyseGroup>) => a.findings.filter((f) => `${g.name}/${f.file}` === j.file && f.range.start.line + 1 === j.line && f.code === j.code);
    const quiet = at(analyseGroup(g));
    if (!quiet.some((f) => f.severity === 'information' && /^(Holds for |If nothing fills in "|Only if )/.test(f.message))) missing.push(`${j.file}:${j.line} ${j.code}: no conditional information`);
    if (!quiet.some((f) => /^Holds for (a kubelet|kubeadm)/.test(f.message))) continue;
    const stated = at(analyze(g.files, { kubernetesVersion: NEWEST_VERSION }));
    if (!stated.some((f) => f.severity === j.severity)) missing.push(`${j.file}:${j.line} ${j.code}: not ${j.severity} with ${NEWEST_VERSION} given`);
  }
  assert.deepEqual(missing, []);
});

test(`ratchet: exactly ${KNOWN_FALSE} known false findings, never a new one`, (t) => {
  const falses = found.filter((r) => byKey.get(r.key)?.verdict === 'false');
  const trues = found.filter((r) => byKey.get(r.key)?.verdict === 'true');
  const byCode = new Map<string, number>();
  for (const r of falses) byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
  t.diagnostic(`known false findings: ${falses.length} (${[...byCode].map(([c, n]) => `${c} ${n}`).join(', ')}); true: ${trues.length}`);
  assert.ok(falses.length <= KNOWN_FALSE, `${falses.length - KNOWN_FALSE} new false finding(s): fix the engine, do not add them`);
  assert.equal(falses.length, KNOWN_FALSE, `only ${falses.length} false findings are left: lower KNOWN_FALSE to ${falses.length}`);
});

test('every file is read as MANIFEST.tsv says ("read as"; "not read" is a known gap)', () => {
  const [head, ...rows] = readFileSync(join(REALWORLD, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const cols = head.split('\t');
  const want = new Map(rows.map((r) => r.split('\t')).map((v) => [v[cols.indexOf('file')], v[cols.indexOf('read as')]]));
  const got = new Map(all.flatMap((g) => [...readAs(g)]));
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), 'MANIFEST.tsv lists exactly the files of test/realworld/files');
  const differ = [...got].filter(([f, k]) => want.get(f) !== k).map(([f, k]) => `${f}: read as ${k}, MANIFEST.tsv says ${want.get(f)}`);
  assert.deepEqual(differ, []);
});
