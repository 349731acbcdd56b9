/**
 * Issue #28: the CLI checks the fixes of one node one round each, up to MAX_FIX_ROUNDS; it says how many more it did
 * not check (and so does not offer), on stderr, so the report stays what it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { featureGateNames, gateAt } from '../../server/src/catalog/feature-gates.ts';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { MAX_FIX_ROUNDS } from '../../server/src/features/fix-check.ts';

test('kubelet-lint names the fixes of an over-full node it did not check, and offers none of them', () => {
  const names = featureGateNames()
    .filter((n) => n.length > 8 && gateAt(n, NEWEST_VERSION).status === 'known')
    .slice(0, 150);
  const text = `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n${names.map((n) => `  ${n.slice(0, 3)}${n.slice(4)}: true\n`).join('')}`;
  const dir = mkdtempSync(join(tmpdir(), 'kl-fix-limit-'));
  try {
    writeFileSync(join(dir, 'kubelet-config.yaml'), text);
    const r = spawnSync(process.execPath, [join(__dirname, '../../dist/cli.js'), '--format', 'json', 'kubelet-config.yaml'], { cwd: dir, encoding: 'utf8' });
    const m = /^kubelet-lint: (\d+) fixes were not checked, so they are not offered: their nodes have more than (\d+) fixable findings each\./m.exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.equal(Number(m[2]), MAX_FIX_ROUNDS);
    const report = JSON.parse(r.stdout) as { diagnostics: { fixes?: unknown[] }[] };
    const offered = report.diagnostics.filter((d) => d.fixes?.length).length;
    assert.ok(offered > 0 && offered <= MAX_FIX_ROUNDS, `${offered} offered`);
    assert.ok(Number(m[1]) >= 150 - MAX_FIX_ROUNDS - 10, `${m[1]} not checked`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
