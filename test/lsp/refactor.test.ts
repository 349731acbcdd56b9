/**
 * The refactors over the protocol: "Move kubelet flags into the KubeletConfiguration file" on a unit's ExecStart= line
 * gives one WorkspaceEdit across the env file and the config file; applied, the node's effective configuration is the
 * same and the flag-over-file notice is gone. On the kubeadm example it is listed disabled: kubeadm writes
 * /var/lib/kubelet/config.yaml again on upgrade (issue #23). "Insert recommended reservations" is offered in a config
 * file.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TestClient, applyEdits, positionOf, uri, workspace } from './client.ts';

const KUBEADM_DROPIN = 'kubeadm-node/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
// A node no kubeadm manages: its unit, the env file it reads, and its own --config file.
const DROPIN = 'plain-node/etc/systemd/system/kubelet.service';
const CONFIG = 'plain-node/etc/kubernetes/kubelet.yaml';
const ENV = 'plain-node/etc/default/kubelet';
const PLAIN = {
  [DROPIN]: '[Unit]\nDescription=kubelet\n\n[Service]\nEnvironmentFile=-/etc/default/kubelet\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.yaml --container-runtime-endpoint=unix:///var/run/containerd/containerd.sock $KUBELET_EXTRA_ARGS\n',
  [ENV]: '# Flags of this node\n\n\nKUBELET_EXTRA_ARGS=--system-reserved=cpu=1 --node-labels=node.kubernetes.io/pool=general\n',
  [CONFIG]: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\nsystemReserved:\n  memory: 1Gi\nevictionHard:\n  memory.available: 500Mi\n',
};
const DOCS = 'docs-example/kubelet-config.yaml';

/** The range of a whole text, for a full-document change. */
const whole = (text: string) => ({ start: { line: 0, character: 0 }, end: { line: text.split('\n').length, character: 0 } });

/** The effective configuration without its provenance comments: what the kubelet runs with. */

const values = (yaml: string) =>
  yaml
    .split('\n')
    .map((l) => l.replace(/ {2}#.*$/, ''))
    .filter((l) => !/^\s*#/.test(l))
    .join('\n');

describe('refactors over LSP', () => {
  const ws = workspace('kubeadm-node', 'docs-example');
  for (const [p, t] of Object.entries(PLAIN)) {
    mkdirSync(dirname(ws.path(p)), { recursive: true });
    ws.write(p, t);
  }
  const client = new TestClient();
  let caps: any;

  before(async () => {
    caps = (await client.initialize([ws.dir])).capabilities;
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('the server advertises quick fixes and rewrite refactors', () => {
    assert.deepEqual(caps.codeActionProvider.codeActionKinds, ['quickfix', 'refactor.rewrite']);
  });

  test('"Move kubelet flags" on the ExecStart line: one edit across files; applied, the effective configuration is the same and the override notice is gone', async () => {
    const text = ws.read(DROPIN);
    const dropin = client.open(ws.path(DROPIN), text);
    await client.waitDiagnostics(dropin);
    const envUri = client.open(ws.path(ENV), ws.read(ENV));
    await client.waitDiagnostics(envUri, (ds) => ds.some((d) => d.code === 'flag-overrides-config'));
    const configUri = uri(ws.path(CONFIG));
    const effectiveBefore: string = await client.request('workspace/executeCommand', { command: 'kubelet.showEffectiveConfiguration', arguments: [configUri] });

    const at = positionOf(text, 'ExecStart=/usr/bin/kubelet', 12);
    const range = { start: at, end: at };
    const quickOnly: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: dropin }, range, context: { diagnostics: [], only: ['quickfix'] } });
    assert.deepEqual(quickOnly.filter((a) => a.kind !== 'quickfix'), [], 'context.only: quickfix leaves refactors out');
    const actions: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: dropin }, range, context: { diagnostics: [], only: ['refactor'] } });
    const move = actions.find((a) => a.title.startsWith('Move kubelet flags into the KubeletConfiguration file'));
    assert.ok(move, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(move.kind, 'refactor.rewrite');
    assert.match(move.title, /--container-runtime-endpoint, --system-reserved/);
    const changed = Object.keys(move.edit.changes).sort();
    assert.deepEqual(changed, [uri(ws.path(ENV)), uri(ws.path(DROPIN)), configUri].sort());

    // Apply as an editor does: open each file the edit touches and change it.
    for (const [u, edits] of Object.entries(move.edit.changes) as [string, any[]][]) {
      const rel = [ENV, CONFIG, DROPIN].find((r) => uri(ws.path(r)) === u)!;
      const old = ws.read(rel);
      if (u !== envUri && u !== dropin) client.open(ws.path(rel), old);
      const next = applyEdits(old, edits);
      client.change(u, [{ range: whole(old), text: next }]);
      ws.write(rel, next);
    }

    assert.match(ws.read(CONFIG), /^systemReserved:\n {2}cpu: "1"\nevictionHard:/m);
    assert.match(ws.read(CONFIG), /^containerRuntimeEndpoint: "unix:\/\/\/var\/run\/containerd\/containerd.sock"$/m);
    // (an unquoted value keeps the blank after a word removed at its start: systemd keeps inner blanks of such a value)
    assert.match(ws.read(ENV).split('\n')[3], /^KUBELET_EXTRA_ARGS= ?--node-labels=node\.kubernetes\.io\/pool=general$/);
    await client.waitDiagnostics(envUri, (ds) => !ds.some((d) => d.code === 'flag-overrides-config'));
    const effectiveAfter: string = await client.request('workspace/executeCommand', { command: 'kubelet.showEffectiveConfiguration', arguments: [configUri] });
    assert.equal(values(effectiveAfter), values(effectiveBefore));
    assert.ok(effectiveAfter.includes(`systemReserved:  # systemReserved in ${CONFIG}`), effectiveAfter);

    // Nothing is left to move.
    const again: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: dropin }, range, context: { diagnostics: [], only: ['refactor'] } });
    assert.deepEqual(again.filter((a) => a.title.startsWith('Move kubelet flags')), []);
  });

  test('"Move kubelet flags" on a kubeadm node is listed disabled: kubeadm writes /var/lib/kubelet/config.yaml again on upgrade', async () => {
    const text = ws.read(KUBEADM_DROPIN);
    const dropin = client.open(ws.path(KUBEADM_DROPIN), text);
    await client.waitDiagnostics(dropin);
    const at = positionOf(text, 'ExecStart=/usr/bin/kubelet', 12);
    const actions: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: dropin }, range: { start: at, end: at }, context: { diagnostics: [], only: ['refactor'] } });
    const move = actions.find((a) => a.title.startsWith('Move kubelet flags'));
    assert.ok(move, JSON.stringify(actions.map((a) => a.title)));
    assert.match(move.disabled?.reason ?? '', /kubeadm writes \/var\/lib\/kubelet\/config\.yaml again/);
    assert.equal(move.edit, undefined);
  });

  test('"Insert recommended reservations" in a config file: GKE, EKS and AKS; the GKE one edits kubeReserved and evictionHard in place', async () => {
    const text = ws.read(DOCS);
    const docs = client.open(ws.path(DOCS), text);
    await client.waitDiagnostics(docs);
    const at = positionOf(text, 'kubeReserved:');
    const actions: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: docs }, range: { start: at, end: at }, context: { diagnostics: [], only: ['refactor.rewrite'] } });
    const titles = actions.map((a) => a.title);
    assert.deepEqual(titles.map((t) => /\((\w+) formula\)/.exec(t)?.[1]), ['GKE', 'EKS', 'AKS']);
    const gke = actions[0];
    const next = applyEdits(text, gke.edit.changes[docs]);
    // 16 CPU: 60 + 10 + 10 + 0.25% of 12 cores = 110m; 32Gi: 1024 + 819.2 + 819.2 + 983.04 = 3645.44 -> 3646Mi
    assert.match(next, /^kubeReserved:\n {2}cpu: 110m\n {2}memory: 3646Mi\n {2}ephemeral-storage: 1Gi\n/m);
    // The threshold it does not change keeps its quotes, as the file writes it.
    assert.match(next, /^evictionHard:\n {2}memory.available: 100Mi\n {2}nodefs.available: "10%"\n/m);
    assert.deepEqual(
      gke.edit.changes[docs].map((e: any) => e.newText),
      ['110m', '3646Mi', '100Mi'],
      'only the changed values are edited',
    );
    const v = client.change(docs, [{ range: whole(text), text: next }]);
    const p = await client.waitDiagnostics(docs, () => true, v);
    assert.deepEqual(p.diagnostics.filter((d) => d.severity === 1), []);
  });
});
