/**
 * The rules index (docs/rules/README.md), the README rule table and each
 * page's `Severity: ... · Fix: ...` line are generated from the rules'
 * metadata by scripts/rule-docs.ts (`npm run docs`); they must not drift.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generated, headerLine } from '../../scripts/rule-docs.ts';
import { RULES } from '../../server/src/registry.ts';

const ROOT = join(__dirname, '../..');

for (const f of generated(ROOT)) {
  test(`${f.path} is what npm run docs writes`, () => {
    let now = '';
    try {
      now = readFileSync(join(ROOT, f.path), 'utf8');
    } catch {}
    if (now === f.text) return;
    const a = now.split('\n');
    const b = f.text.split('\n');
    const i = a.findIndex((l, k) => l !== b[k]);
    assert.fail(`${f.path} differs from the rules' metadata at line ${i + 1}:\n  file:      ${a[i]}\n  generated: ${b[i]}\nRun npm run docs (and edit the metadata, not the generated lines).`);
  });
}

test('the header line says what the metadata says', () => {
  const locked = RULES.find((r) => r.id === 'feature-gate-locked')!;
  assert.equal(headerLine(locked), 'Severity: error · Fix: sets the gate to the value it is locked to');
  const mismatch = RULES.find((r) => r.id === 'cgroup-driver-mismatch')!;
  assert.match(headerLine(mismatch), /^Severity: error or warning · Fix: sets the kubelet's/);
  assert.equal(headerLine({ ...locked, fix: false, fixDoes: undefined }), 'Severity: error · Fix: none');
});
