/**
 * Issue #18: one bad document costs only itself. A URI with a malformed `%` escape and a didOpen without `text`
 * used to make every analysis throw (uriToPath and the text of each open document are read for all of them), so no
 * document got diagnostics, hovers or code actions. Over stdio against dist/server.js.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestClient, positionOf, uri, workspace } from './client.ts';

const ENV = 'kubeadm-node/etc/default/kubelet';

describe('a document with a malformed URI or without text does not take the others down', () => {
  const ws = workspace('kubeadm-node');
  const client = new TestClient();
  let envUri = '';
  let envText = '';

  before(async () => {
    await client.initialize([ws.dir]);
    envText = ws.read(ENV);
    envUri = client.open(ws.path(ENV), envText);
    await client.waitDiagnostics(envUri, () => true, 1);
  });
  after(async () => {
    try {
      await client.close();
    } finally {
      ws.dispose();
    }
  });

  async function othersStillServed(version: number): Promise<void> {
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: envUri }, position: positionOf(envText, '--system-reserved', 4) });
    assert.match(h?.contents?.value ?? '', /system-reserved/);
    const d = await client.waitDiagnostics(envUri, () => true, version);
    assert.ok(d.diagnostics.every((x) => !/^Not analysed/.test(String(x.message))), JSON.stringify(d.diagnostics));
    const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri: envUri } });
    assert.ok(symbols.length > 0);
  }

  const touch = (): number => {
    const v = client.change(envUri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# touched\n' }]);
    envText = `# touched\n${envText}`;
    return v;
  };

  test('a URI with a malformed % escape (kept open)', async () => {
    const bad = uri(ws.path('kubeadm-node/etc/default')) + '/extra%zz%.env';
    await client.notify('textDocument/didOpen', { textDocument: { uri: bad, languageId: 'plaintext', version: 1, text: 'KUBELET_EXTRA_ARGS=--bogus-flag\n' } });
    await othersStillServed(touch());
    // the bad document itself is analysed under the name as written
    const own = await client.waitDiagnostics(bad, (ds) => ds.some((x) => x.code === 'flag-unknown'));
    assert.ok(own.diagnostics.length > 0);
  });

  test('a didOpen without text (kept open): that document is reported as not analysed, the others are', async () => {
    const none = uri(ws.path('kubeadm-node/etc/default/notext.env'));
    await client.notify('textDocument/didOpen', { textDocument: { uri: none, languageId: 'plaintext', version: 1 } });
    await othersStillServed(touch());
    const own = await client.waitDiagnostics(none, (ds) => ds.length === 1);
    assert.match(String(own.diagnostics[0].message), /^Not analysed: the editor opened this document without its text/);
  });
});
