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

  test('the effective configuration and the allocatable view name the entries `user-data → /path`, relative, at the cloud-config\'s lines', async () => {
    await client.waitDiagnostics(u, (ds) => ds.length > 0);
    const yaml: string = await client.request('workspace/executeCommand', { command: 'kubelet.showEffectiveConfiguration', arguments: [u] });
    assert.ok(yaml.startsWith('# Effective kubelet configuration of node user-data → /etc/systemd/system/kubelet.service '), yaml.split('\n')[0]);
    assert.match(yaml, /^# Files: user-data → \/etc\/systemd\/system\/kubelet\.service, user-data → \/etc\/systemd\/system\/kubelet\.service\.d\/20-reserved\.conf, user-data → \/var\/lib\/kubelet\/config\.yaml$/m);
    // A setting is cited at the line of the cloud-config that holds it (kubeReserved: line 10).
    assert.match(yaml, /^kubeReserved: {2}# --kube-reserved via \$KUBELET_EXTRA_ARGS in user-data line 10$/m);
    assert.ok(!yaml.includes(ws.dir) && !yaml.includes('user-data//'), yaml);
    const r: any = await client.request('kubelet/allocatable', { uri: u });
    const n = r.nodes[0];
    assert.equal(n.node, 'user-data → /etc/systemd/system/kubelet.service');
    assert.ok(n.files.includes('user-data → /var/lib/kubelet/config.yaml'), n.files.join(', '));
    const all = JSON.stringify(r);
    assert.ok(!all.includes(ws.dir) && !all.includes('user-data//'), all);
  });

  test('document links and Go to Definition inside the entries open the entry they name, in the cloud-config', async () => {
    const links: any[] = await client.request('textDocument/documentLink', { textDocument: { uri: u } });
    const config = links.find((l) => l.range.start.line === positionOf(text, '--config=').line);
    assert.ok(config, JSON.stringify(links));
    assert.equal(config.target, `${u}#L${positionOf(text, 'apiVersion: kubelet').line + 1}`);
    assert.equal(config.tooltip, 'Open user-data → /var/lib/kubelet/config.yaml');
    const defs: any[] = await client.request('textDocument/definition', { textDocument: { uri: u }, position: positionOf(text, '$KUBELET_EXTRA_ARGS', 2) });
    assert.deepEqual(defs.map((d) => [d.uri, d.range.start.line]), [[u, positionOf(text, 'Environment="KUBELET_EXTRA_ARGS').line]]);
  });
});
