/**
 * Issue #18: a code action built from a stale diagnostic. The client sends back the diagnostics it shows, whose
 * `data` holds fixes computed on an older text; applied to the current text, their edits corrupt it. Quick fixes
 * come from the current analysis instead: a diagnostic that no longer matches a finding gets none. Over stdio.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestClient, applyEdits, workspace } from './client.ts';

const ENV = 'kubeadm-node/etc/default/kubelet';

describe('quick fixes follow the current text, not the diagnostic the client sent', () => {
  const ws = workspace('kubeadm-node');
  const client = new TestClient();
  let u = '';
  let text = '';

  before(async () => {
    await client.initialize([ws.dir]);
    text = 'KUBELET_EXTRA_ARGS=--max-pod=50 --v=2\n';
    u = client.open(ws.path(ENV), text);
  });
  after(async () => {
    try {
      await client.close();
    } finally {
      ws.dispose();
    }
  });

  const actions = (diagnostics: unknown[]) =>
    client.request<any[]>('textDocument/codeAction', {
      textDocument: { uri: u },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics, only: ['quickfix'] },
    });

  // ("Disable ... for this line" is offered for any diagnostic; it inserts a comment line, whatever the text)
  const fixes = (list: any[]) => list.filter((a) => !/^Disable /.test(a.title));

  test('a diagnostic of an older version gets no quick fix; the current one gets a fix that applies to the current text', async () => {
    const first = await client.waitDiagnostics(u, (ds) => ds.some((d) => d.code === 'flag-unknown'), 1);
    const stale = first.diagnostics.find((d) => d.code === 'flag-unknown')!;
    assert.ok(fixes(await actions([stale])).length > 0, `offered while current: ${JSON.stringify(stale)}`);

    // The user inserts text before the flag: the stale diagnostic's range (and its data's edit) now covers other characters.
    const v = client.change(u, [{ range: { start: { line: 0, character: 19 }, end: { line: 0, character: 19 } }, text: '--node-ip=10.0.0.1 ' }]);
    text = text.slice(0, 19) + '--node-ip=10.0.0.1 ' + text.slice(19);
    const fresh = await client.waitDiagnostics(u, (ds) => ds.some((d) => d.code === 'flag-unknown'), v);

    assert.deepEqual(fixes(await actions([stale])), [], 'a fix built from the stale diagnostic would cut "--node-ip=10.0.0.1"');
    const now = fixes(await actions(fresh.diagnostics.filter((d) => d.code === 'flag-unknown')));
    assert.equal(now.length, 1);
    const after = applyEdits(text, now[0].edit.changes[u]);
    assert.equal(after, 'KUBELET_EXTRA_ARGS=--node-ip=10.0.0.1 --max-pods=50 --v=2\n');
  });

  test('diagnostics that are not objects, or lack a range, are ignored', async () => {
    assert.deepEqual(fixes(await actions([null, 42, { code: 'flag-unknown' }])), []);
  });
});
