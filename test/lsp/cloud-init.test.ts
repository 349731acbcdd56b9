/** A cloud-init #cloud-config over stdio: diagnostics, hover and quick fixes at the write_files entries' lines. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, TestClient, applyEdits, positionOf, workspace } from './client.ts';

describe('language server: cloud-init carrier', () => {
  const ws = workspace();
  const client = new TestClient();
  // The worked example of the user page.
  const text = readFileSync(join(ROOT, 'docs/formats/cloud-init.md'), 'utf8').split('```yaml\n')[1].split('```')[0];
  let u = '';

  before(async () => {
    ws.write('user-data', text);
    await client.initialize([ws.dir]);
    u = client.open(ws.path('user-data'), text);
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('diagnostics of the entries are published for the cloud-config, at the entries\' lines; the quick fix edits the entry', async () => {
    const p = await client.waitDiagnostics(u, (ds) => ds.some((d) => d.code === 'reserved-resource-unknown'));
    const d = p.diagnostics.find((x) => x.code === 'reserved-resource-unknown')!;
    assert.deepEqual(d.range.start, positionOf(text, 'memroy'));
    assert.ok(p.diagnostics.some((x) => x.code === 'eviction-soft-without-grace' && x.range.start.line === 15));
    const actions: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } });
    const edits = actions[0].edit.changes[u];
    assert.ok(edits, `edits for the cloud-config itself: ${JSON.stringify(actions[0].edit)}`);
    const fixed = applyEdits(text, edits);
    assert.equal(fixed, text.replace('memroy', 'memory'));
  });

  test('hover on a flag inside an entry, with its range in the cloud-config', async () => {
    const at = positionOf(text, '--kube-reserved', 3);
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: u }, position: at });
    assert.ok(h && /kube-reserved/.test(JSON.stringify(h.contents)), JSON.stringify(h));
    assert.equal(h.range.start.line, at.line);
  });
});
