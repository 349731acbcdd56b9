/** Pull diagnostics (textDocument/diagnostic, workspace/diagnostic, refresh) and the push debounce. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TestClient, positionOf, uri, workspace } from './client.ts';

const SEED = 'seed-node/usr/lib/systemd/system/kubelet.service';
const DROPIN = 'seed-node/etc/systemd/system/kubelet.service.d/10-kubelet.conf';
const ENV = 'kubeadm-node/etc/default/kubelet';
const CONFIG = 'kubeadm-node/var/lib/kubelet/config.yaml';

describe('language server (pull diagnostics)', () => {
  const ws = workspace('seed-node', 'kubeadm-node');
  const client = new TestClient();
  let caps: any;

  before(async () => {
    caps = (await client.initialize([ws.dir], {
      textDocument: { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } },
      workspace: { diagnostics: { refreshSupport: true }, configuration: true },
    })).capabilities;
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('initialize announces a diagnostic provider with workspace diagnostics', () => {
    assert.deepEqual(caps.diagnosticProvider, { identifier: 'kubelet', interFileDependencies: true, workspaceDiagnostics: true });
  });

  let seedUri = '';
  test('textDocument/diagnostic reports the swallowed directive; an unchanged result says so', async () => {
    seedUri = client.open(ws.path(SEED), ws.read(SEED));
    const r: any = await client.request('textDocument/diagnostic', { textDocument: { uri: seedUri } });
    assert.equal(r.kind, 'full');
    const d = r.items.find((i: any) => i.code === 'unit-continuation-swallows-directive');
    assert.equal(d.range.start.line, positionOf(ws.read(SEED), '\tRestart=always', 1).line);
    const again: any = await client.request('textDocument/diagnostic', { textDocument: { uri: seedUri }, previousResultId: r.resultId });
    assert.deepEqual(again, { kind: 'unchanged', resultId: r.resultId });
    assert.ok(!client.diagnostics.has(seedUri), 'nothing pushed in pull mode');
  });

  test('workspace/diagnostic covers files on disk that are not open', async () => {
    const r: any = await client.request('workspace/diagnostic', { previousResultIds: [] });
    const dropin = r.items.find((i: any) => i.uri === uri(ws.path(DROPIN)));
    assert.ok(dropin, 'the drop-in on disk is reported');
    assert.equal(dropin.version, null);
    assert.ok(dropin.items.some((i: any) => i.code === 'flag-removed'));
    const seed = r.items.find((i: any) => i.uri === seedUri);
    assert.equal(seed.version, 1);
  });

  /** The previousResultIds a client sends after a workspace/diagnostic answer. */
  const idsOf = (r: any) => r.items.map((i: any) => ({ uri: i.uri, value: i.resultId }));
  /** Settles with 'pending' when `p` has not settled within `ms`. */
  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

  test('workspace/diagnostic with nothing new is held (long poll) until an edit changes a report', async () => {
    const first: any = await client.request('workspace/diagnostic', { previousResultIds: [] });
    const held = client.cancellable('workspace/diagnostic', { previousResultIds: idsOf(first) });
    // VS Code asks again 2 s after each answer: an immediate "all unchanged" would make it poll forever.
    assert.equal(await within(held.result, 400), 'pending');
    // A comment changes no diagnostic: still held.
    const text = ws.read(SEED);
    const end = positionOf(text, '[Install]');
    client.change(seedUri, [{ range: { start: end, end }, text: '# a comment\n' }]);
    assert.equal(await within(held.result, 400), 'pending');
    // A new error does change one: the answer comes, with that document's full report.
    client.change(seedUri, [{ range: { start: end, end }, text: 'Bogus\n' }]);
    const r: any = await within(held.result, 4000);
    assert.notEqual(r, 'pending', 'answered after the change');
    const seed = r.items.find((i: any) => i.uri === seedUri);
    assert.equal(seed.kind, 'full');
    assert.ok(seed.items.some((i: any) => /Missing '='/.test(i.message)));
    // Undo the edits for the tests below.
    client.change(seedUri, [{ range: { start: { line: 0, character: 0 }, end: { line: text.split('\n').length + 1, character: 0 } }, text }]);
  });

  test('a held workspace/diagnostic answers RequestCancelled as soon as the client cancels it', async () => {
    const first: any = await client.request('workspace/diagnostic', { previousResultIds: [] });
    const held = client.cancellable('workspace/diagnostic', { previousResultIds: idsOf(first) });
    assert.equal(await within(held.result, 300), 'pending');
    const t0 = Date.now();
    held.cancel();
    await assert.rejects(held.result, (e: any) => e.code === -32800);
    assert.ok(Date.now() - t0 < 2000, 'answered promptly');
  });

  test('a closed file whose findings are fixed on disk gets an empty report (the client would keep the old ones)', async () => {
    const first: any = await client.request('workspace/diagnostic', { previousResultIds: [] });
    const dropinUri = uri(ws.path(DROPIN));
    assert.ok(first.items.find((i: any) => i.uri === dropinUri)?.items.length > 0);
    const before = ws.read(DROPIN);
    // Remove the flags the drop-in is reported for, on disk, and tell the server.
    ws.write(DROPIN, '[Service]\n');
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: dropinUri, type: 2 }] });
    const deadline = Date.now() + 5000;
    let report: any;
    for (;;) {
      const r: any = await client.request('workspace/diagnostic', { previousResultIds: idsOf(first) });
      report = r.items.find((i: any) => i.uri === dropinUri);
      if (report?.kind === 'full' && report.items.length === 0) break;
      assert.ok(Date.now() < deadline, `the drop-in gets an empty report: ${JSON.stringify(report)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    ws.write(DROPIN, before);
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: dropinUri, type: 2 }] });
  });

  test('an edit of the env file asks the client to refresh, and config.yaml pulls the new state', async () => {
    const configUri = client.open(ws.path(CONFIG), ws.read(CONFIG));
    const first: any = await client.request('textDocument/diagnostic', { textDocument: { uri: configUri } });
    assert.ok(first.items.some((i: any) => i.code === 'reserved-cgroup-missing'));
    const envUri = client.open(ws.path(ENV), ws.read(ENV));
    const line = ws.read(ENV).split('\n')[3];
    const refreshes = client.serverRequests.filter((r) => r.method === 'workspace/diagnostic/refresh').length;
    client.change(envUri, [{ range: { start: { line: 3, character: line.length }, end: { line: 3, character: line.length } }, text: ' --system-reserved-cgroup=/system.slice' }]);
    await client.wait('workspace/diagnostic/refresh', () => client.serverRequests.filter((r) => r.method === 'workspace/diagnostic/refresh').length > refreshes);
    const next: any = await client.request('textDocument/diagnostic', { textDocument: { uri: configUri }, previousResultId: first.resultId });
    assert.equal(next.kind, 'full');
    assert.ok(!next.items.some((i: any) => i.code === 'reserved-cgroup-missing'));
  });

  test('settings come from workspace/configuration when the client has it', async () => {
    client.settings = { rules: { 'unit-continuation-swallows-directive': 'warning' } };
    await client.notify('workspace/didChangeConfiguration', { settings: null });
    await client.wait('workspace/diagnostic/refresh', () => true);
    const deadline = Date.now() + 5000;
    for (;;) {
      const r: any = await client.request('textDocument/diagnostic', { textDocument: { uri: seedUri } });
      const d = r.items.find((i: any) => i.code === 'unit-continuation-swallows-directive');
      if (d?.severity === 2) break;
      assert.ok(Date.now() < deadline, 'severity override applied');
      await client.wait('workspace/diagnostic/refresh', () => true, 1000).catch(() => undefined);
    }
  });
});

describe('language server (push debounce)', () => {
  const ws = workspace('seed-node');
  const client = new TestClient();

  before(async () => {
    await client.initialize([ws.dir], {}, { debounceMs: 40 });
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('rapid edits publish once, for the last version only', async () => {
    const text = ws.read(SEED);
    const u = client.open(ws.path(SEED), text);
    await client.waitDiagnostics(u, () => true, 1);
    const end = positionOf(text, '[Install]');
    let v = 1;
    for (let i = 0; i < 5; i++) v = client.change(u, [{ range: { start: end, end }, text: `# edit ${i}\n` }]);
    const p = await client.waitDiagnostics(u, () => true, v);
    assert.equal(p.version, 6);
    assert.ok(p.diagnostics.some((d) => d.code === 'unit-continuation-swallows-directive'));
    assert.deepEqual(client.publishedVersions(u), [1, 6], 'no results for the intermediate versions');
  });
});
