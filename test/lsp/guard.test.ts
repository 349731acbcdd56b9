/**
 * The server runs nothing and reaches nothing: a full editing exchange under a
 * preloaded guard (guard.cjs) that makes child_process, net, http(s), eval and
 * Function throw. Nothing may trip it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TestClient, positionOf, workspace } from './client.ts';

const SEED = 'seed-node/usr/lib/systemd/system/kubelet.service';
const DOCS = 'docs-example/kubelet-config.yaml';

describe('language server under a guard against processes, network and eval', () => {
  const ws = workspace('seed-node', 'docs-example', 'kubeadm-node');
  const client = new TestClient({ nodeArgs: ['--require', join(__dirname, 'guard.cjs')] });

  before(async () => {
    await client.initialize([ws.dir]);
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('diagnostics, hover, completion, code actions, edits and the effective configuration trip nothing', async () => {
    const seed = client.open(ws.path(SEED), ws.read(SEED));
    const p = await client.waitDiagnostics(seed, (ds) => ds.some((d) => d.code === 'unit-continuation-swallows-directive'));
    const d = p.diagnostics.find((x) => x.code === 'unit-continuation-swallows-directive')!;
    const actions = await client.request<any[]>('textDocument/codeAction', { textDocument: { uri: seed }, range: d.range, context: { diagnostics: [d] } });
    assert.ok(actions.length > 0);
    const docs = client.open(ws.path(DOCS), ws.read(DOCS));
    const hover = await client.request<any>('textDocument/hover', { textDocument: { uri: docs }, position: positionOf(ws.read(DOCS), 'kubeReserved') });
    assert.match(JSON.stringify(hover), /14\.5/);
    const items = await client.request<any>('textDocument/completion', { textDocument: { uri: docs }, position: { line: 5, character: 0 } });
    assert.ok(items);
    const v = client.change(docs, [{ range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, text: 'maxPods: 50\n' }]);
    await client.waitDiagnostics(docs, () => true, v);
    const yaml = await client.request<string>('workspace/executeCommand', { command: 'kubelet.showEffectiveConfiguration', arguments: [docs] });
    assert.match(String(yaml), /maxPods/);
    assert.equal(client.exited, false, 'the server is still running');
    assert.deepEqual(client.log.filter((l) => l.includes('guard:')), [], 'nothing tripped the guard');
  });
});

test('the guard itself trips on each of what it forbids (so the test above can fail)', () => {
  for (const code of [
    "require('child_process').execSync('true')",
    "require('net').connect(1, '127.0.0.1')",
    "require('http').get('http://127.0.0.1:1')",
    "eval('1')",
    "new Function('return 1')()",
  ]) {
    const r = spawnSync(process.execPath, ['--require', join(__dirname, 'guard.cjs'), '-e', code], { encoding: 'utf8' });
    assert.notEqual(r.status, 0, code);
    assert.match(r.stderr, /guard: /, code);
  }
});
