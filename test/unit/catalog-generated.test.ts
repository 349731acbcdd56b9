/**
 * The gate catalog is generated from the fact tables in server/src/catalog/facts (scripts/catalog.ts, npm run
 * catalog). These tests fail when the generated modules are stale, and check the catalog against the tables as read
 * here, independently of the generator: for each release from 1.34 to the newest, every gate of
 * feature-gates-upstream.tsv (pkg/features/kube_features.go and the staging gates) has the default, stage and lock of
 * its last row at or below that release, the removed and not-yet-added gates are what the feature-gate rules report,
 * and the dependencies are those of feature-gate-dependencies.tsv.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate, GATES_OUT, VERSIONS_OUT } from '../../scripts/catalog.ts';
import { compareVersions, NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { FEATURE_GATES, gateAt, gateDependencies } from '../../server/src/catalog/feature-gates.ts';
import { analyze } from '../../server/src/engine.ts';

const ROOT = join(__dirname, '../..');
const FACTS = join(ROOT, 'server/src/catalog/facts');

test('the generated gate catalog and version are up to date with the fact tables (run npm run catalog)', () => {
  const want = generate(ROOT);
  assert.equal(readFileSync(join(ROOT, GATES_OUT), 'utf8'), want.gates, `${GATES_OUT} is stale: run npm run catalog`);
  assert.equal(readFileSync(join(ROOT, VERSIONS_OUT), 'utf8'), want.versions, `${VERSIONS_OUT} is stale: run npm run catalog`);
});

/** Data rows of a fact table. */
function rows(file: string): string[][] {
  const lines = readFileSync(join(FACTS, file), 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  return lines.slice(1).map((l) => l.split('\t'));
}

const upstream = rows('feature-gates-upstream.tsv');
const lifecycle = new Map(rows('feature-gates-lifecycle.tsv').map(([g, added, removed]) => [g!, { added, removed }]));
const VERSIONS = ['1.34', '1.35', '1.36', '1.37'];

test('the newest version whose data is complete is 1.37, and every release checked here is at or below it', () => {
  assert.equal(NEWEST_VERSION, '1.37');
  for (const v of VERSIONS) assert.ok(compareVersions(v, NEWEST_VERSION) <= 0);
});

for (const v of VERSIONS) {
  test(`${v}: every gate of feature-gates-upstream.tsv has the default, stage and lock of its last row at or below ${v}`, () => {
    const expected = new Map<string, string[]>();
    for (const r of upstream) if (compareVersions(r[1]!, v) <= 0) expected.set(r[0]!, r); // the last row wins (MinCompatibilityVersion pairs)
    let checked = 0;
    for (const [name, [, , dflt, pre, lock]] of expected) {
      const life = lifecycle.get(name);
      const st = gateAt(name, v);
      if (life?.removed && compareVersions(v, life.removed) >= 0) {
        assert.equal(st.status, 'removed', `${name} at ${v}`);
        continue;
      }
      if (life?.added && compareVersions(v, life.added) < 0) {
        assert.equal(st.status, 'unknown', `${name} at ${v}: added in ${life.added}`);
        continue;
      }
      assert.equal(st.status, 'known', `${name} at ${v}`);
      if (st.status !== 'known') continue;
      assert.equal(st.spec.default, dflt === 'true', `${name} default at ${v}`);
      assert.equal(st.spec.stage, { Alpha: 'alpha', Beta: 'beta', GA: 'ga', Deprecated: 'deprecated' }[pre!], `${name} stage at ${v}`);
      assert.equal(st.spec.locked === true, lock === 'true', `${name} lock at ${v}`);
      checked++;
    }
    assert.ok(checked > 150, `only ${checked} gates checked`);
    // Gates whose first row is after v are unknown to a kubelet of v.
    for (const r of upstream) {
      const first = upstream.find((x) => x[0] === r[0])!;
      if (compareVersions(first[1]!, v) > 0) assert.equal(gateAt(r[0]!, v).status, 'unknown', `${r[0]} first appears in ${first[1]}`);
    }
  });

  test(`${v}: the dependencies the kubelet checks are those of feature-gate-dependencies.tsv (none before 1.36)`, () => {
    const want = new Map<string, string[]>();
    for (const [g, needs, since] of rows('feature-gate-dependencies.tsv')) {
      if (compareVersions(v, since!) >= 0) want.set(g!, [...(want.get(g!) ?? []), ...needs!.split(',')]);
    }
    for (const g of FEATURE_GATES) {
      assert.deepEqual(gateDependencies(g.name, v).flatMap((d) => [...d.needs]), want.get(g.name) ?? [], `${g.name} at ${v}`);
    }
    if (compareVersions(v, '1.36') < 0) assert.equal(want.size, 0);
  });

  test(`${v}: a config naming every gate at its default gets feature-gate-removed exactly for the removed ones and feature-gate-unknown for the ones not added yet`, () => {
    const lines: string[] = [];
    const expectCode = new Map<string, string | undefined>();
    for (const g of FEATURE_GATES) {
      const st = gateAt(g.name, v);
      const value = st.status === 'known' ? st.spec.default : true;
      lines.push(`  ${g.name}: ${value}`);
      expectCode.set(g.name, st.status === 'removed' ? 'feature-gate-removed' : st.status === 'unknown' ? 'feature-gate-unknown' : undefined);
    }
    const text = `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n${lines.join('\n')}\n`;
    const a = analyze([{ path: 'kubelet-config.yaml', text }], { kubernetesVersion: v });
    const gateCodes = new Set(['feature-gate-removed', 'feature-gate-unknown', 'feature-gate-locked', 'feature-gate-dependency']);
    const got = new Map<string, string>();
    for (const f of a.findings) {
      if (!gateCodes.has(f.code)) continue;
      const name = lines[f.range.start.line - 3]!.trim().split(':')[0]!;
      assert.equal(got.has(name), false, `${name}: two gate findings`);
      got.set(name, f.code);
    }
    for (const [name, code] of expectCode) assert.equal(got.get(name), code, `${name} at ${v}`);
  });
}
