/**
 * GitHub issue #6, "language server under stress": cancellation, requests for
 * documents the server does not know, malformed and unknown messages, and the
 * shutdown/exit sequence, over stdio against dist/server.js.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource, ResponseError } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HANG_MS } from '../helpers/hang.ts';
import { SERVER, TestClient, positionOf, uri, workspace } from './client.ts';
import { StdoutTap, comparable, frame, freshDiagnostics, until } from './server-process.ts';

const SEED = 'seed-node/usr/lib/systemd/system/kubelet.service';
const ENV = 'kubeadm-node/etc/default/kubelet';
const CONFIG = 'kubeadm-node/var/lib/kubelet/config.yaml';
const PULL = { textDocument: { diagnostic: { dynamicRegistration: false } }, workspace: { diagnostics: { refreshSupport: false } } };
/** LSP 3.17 ErrorCodes / LSPErrorCodes. */
const REQUEST_CANCELLED = -32800;
const METHOD_NOT_FOUND = -32601;

/** Log lines that say something failed (the server logs handler exceptions as "<name> failed: ..."). */
const failures = (c: TestClient) => c.log.filter((l) => /failed|error/i.test(l));

describe('cancellation ($/cancelRequest) is honoured', () => {
  const ws = workspace('kubeadm-node');
  const client = new TestClient();
  let tap: StdoutTap;
  let configUri = '';

  before(async () => {
    tap = new StdoutTap(client);
    await client.initialize([ws.dir], PULL);
    configUri = client.open(ws.path(CONFIG), ws.read(CONFIG));
  });
  after(async () => {
    try {
      await client.close();
    } finally {
      ws.dispose();
    }
  });

  test('a diagnostic pull cancelled before it ran answers RequestCancelled, not an empty report, and the next pull is right', async () => {
    // didChange, the request and its cancellation in one write (< PIPE_BUF, so one read on the server):
    // vscode-jsonrpc sees the cancel before it dispatches the request (connection.ts knownCanceledRequests),
    // with an analysis pending for the changed text. An empty "full" report would make a client clear the
    // document's real diagnostics.
    const line = ws.read(CONFIG).split('\n').findIndex((l) => l.startsWith('kubeReservedCgroup:'));
    const change = { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' };
    const id = 'cancel-me-1';
    // A round trip first: the client library's own writes (header, then body) are done, so none interleaves with ours.
    await client.request('textDocument/documentSymbol', { textDocument: { uri: configUri } });
    client.proc.stdin!.write(
      Buffer.concat([
        frame({ method: 'textDocument/didChange', params: { textDocument: { uri: configUri, version: 2 }, contentChanges: [change] } }),
        frame({ id, method: 'textDocument/diagnostic', params: { textDocument: { uri: configUri } } }),
        frame({ method: '$/cancelRequest', params: { id } }),
      ]),
    );
    const r = await tap.response(id);
    const next: any = await client.request('textDocument/diagnostic', { textDocument: { uri: configUri } });
    assert.equal(next.kind, 'full');
    assert.ok(next.items.some((d: any) => d.code === 'reserved-cgroup-missing'), 'the pending change (kubeReservedCgroup removed) is analysed');
    if (r.error) assert.equal(r.error.code, REQUEST_CANCELLED, JSON.stringify(r));
    else assert.deepEqual(comparable(r.result.items), comparable(next.items), 'a result after a cancel must still be the real one');
  });

  const position = () => positionOf(ws.read(CONFIG), 'systemReserved:', 2);
  const range = () => ({ start: { line: 0, character: 0 }, end: { line: 30, character: 0 } });
  const requests: [string, () => object][] = [
    ['textDocument/hover', () => ({ textDocument: { uri: configUri }, position: position() })],
    ['textDocument/completion', () => ({ textDocument: { uri: configUri }, position: position() })],
    ['textDocument/documentSymbol', () => ({ textDocument: { uri: configUri } })],
    ['textDocument/diagnostic', () => ({ textDocument: { uri: configUri } })],
    // Two nested guarded steps (quick fixes, then refactorings): the inner cancellation is no failure to log.
    ['textDocument/codeAction', () => ({ textDocument: { uri: configUri }, range: range(), context: { diagnostics: [] } })],
  ];
  for (const [method, make] of requests) {
    test(`${method} cancelled right after sending: RequestCancelled or the same result as uncancelled; the server stays healthy`, async () => {
      const params = make();
      for (let i = 0; i < 5; i++) {
        const source = new CancellationTokenSource();
        const pending = client.conn.sendRequest(method, params, source.token);
        source.cancel();
        const got = await pending.then(
          (result) => ({ result }),
          (error) => ({ error }),
        );
        const expected = await client.request(method, params);
        if ('error' in got) {
          assert.ok(got.error instanceof ResponseError && got.error.code === REQUEST_CANCELLED, String(got.error));
        } else {
          const norm = (x: any) => (method === 'textDocument/diagnostic' ? comparable(x.items) : x);
          assert.deepEqual(norm(got.result), norm(expected));
        }
      }
      assert.equal(client.exited, false);
      assert.deepEqual(failures(client), []);
    });
  }

  test('a cancel for an unknown or finished request is ignored', async () => {
    await client.notify('$/cancelRequest', { id: 987654 });
    await client.notify('$/cancelRequest', { id: 'cancel-me-1' });
    const r: any = await client.request('textDocument/documentSymbol', { textDocument: { uri: configUri } });
    assert.ok(r.length > 0);
    assert.deepEqual(failures(client), []);
  });
});

describe('requests for documents the server does not know answer empty results, not errors', () => {
  const ws = workspace('seed-node');
  const outside = mkdtempSync(join(tmpdir(), 'kubelet-outside-'));
  const client = new TestClient();

  before(async () => {
    // A real unit outside the workspace with a finding-worthy line: it must not be read for a request.
    writeFileSync(join(outside, 'kubelet.service'), ws.read(SEED));
    await client.initialize([ws.dir]);
    client.open(ws.path(SEED), ws.read(SEED));
  });
  after(async () => {
    try {
      await client.close();
    } finally {
      ws.dispose();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  const unknown = () => [
    uri(ws.path('seed-node/etc/systemd/system/kubelet.service.d/99-never-opened.conf')),
    uri(join(outside, 'kubelet.service')),
    'untitled:Untitled-1',
    `git:${ws.path(SEED)}?${encodeURIComponent(JSON.stringify({ path: ws.path(SEED), ref: '~' }))}`,
    'vscode-remote://ssh-remote+host/etc/systemd/system/kubelet.service',
  ];

  test('hover, completion, symbols, folding, inlay hints, code lenses, code actions and the effective configuration', async () => {
    const pos = { line: 0, character: 0 };
    const range = { start: pos, end: { line: 10, character: 0 } };
    for (const u of unknown()) {
      const td = { uri: u };
      assert.equal(await client.request('textDocument/hover', { textDocument: td, position: pos }), null, u);
      assert.deepEqual(await client.request('textDocument/completion', { textDocument: td, position: pos }), [], u);
      assert.deepEqual(await client.request('textDocument/documentSymbol', { textDocument: td }), [], u);
      assert.deepEqual(await client.request('textDocument/foldingRange', { textDocument: td }), [], u);
      assert.deepEqual(await client.request('textDocument/inlayHint', { textDocument: td, range }), [], u);
      assert.deepEqual(await client.request('textDocument/codeLens', { textDocument: td }), [], u);
      assert.deepEqual(await client.request('textDocument/codeAction', { textDocument: td, range, context: { diagnostics: [] } }), [], u);
      assert.equal(await client.request('workspace/executeCommand', { command: 'kubelet.showEffectiveConfiguration', arguments: [u] }), null, u);
    }
    assert.equal(client.exited, false);
    assert.deepEqual(failures(client), [], 'nothing logged as a failure');
  });

  test('a pull client gets an empty full report for them', async () => {
    const c = new TestClient();
    try {
      await c.initialize([ws.dir], PULL);
      for (const u of unknown()) {
        const r: any = await c.request('textDocument/diagnostic', { textDocument: { uri: u } });
        assert.equal(r.kind, 'full', u);
        assert.deepEqual(r.items, [], u);
      }
      assert.deepEqual(failures(c), []);
    } finally {
      await c.close();
    }
  });
});

describe('malformed and unknown messages are not fatal', () => {
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

  const alive = async () => {
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: envUri }, position: positionOf(envText, '--system-reserved', 4) });
    assert.match(h.contents.value, /system-reserved/);
    assert.equal(client.exited, false);
  };

  test('an unknown request method answers MethodNotFound (-32601)', async () => {
    await assert.rejects(client.request('kubelet/noSuchRequest', { x: 1 }), (e: any) => e.code === METHOD_NOT_FOUND);
    await alive();
  });

  test('unknown notifications are ignored ($/ and plain)', async () => {
    await client.notify('kubelet/noSuchNotification', { x: 1 });
    await client.notify('$/noSuchNotification', {});
    await alive();
  });

  test('hover without a position answers InvalidParams, with no stack trace in the log (issue #28); without a text document it is about no file and answers null', async () => {
    const noPos = await client.request('textDocument/hover', { textDocument: { uri: envUri } }).catch((e) => e);
    assert.ok(noPos instanceof ResponseError && noPos.code === -32602, String(noPos));
    const noDoc = await client.request('textDocument/hover', { position: { line: 0, character: 0 } }).catch((e) => e);
    assert.equal(noDoc, null);
    await alive();
    assert.ok(!client.log.some((l) => /\n\s+at /.test(l)), 'no stack trace in the log');
  });

  test('didChange for a document that was never opened is ignored (no diagnostics appear for it)', async () => {
    const ghost = uri(ws.path('kubeadm-node/etc/default/ghost.env'));
    await client.notify('textDocument/didChange', { textDocument: { uri: ghost, version: 2 }, contentChanges: [{ text: 'KUBELET_EXTRA_ARGS=--allow-privileged=true\n' }] });
    await alive();
    // A change after it: once its diagnostics are out, the server has handled the ghost change too.
    const v = client.change(envUri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# touched\n' }]);
    envText = `# touched\n${envText}`;
    await client.waitDiagnostics(envUri, () => true, v);
    assert.equal(client.diagnostics.has(ghost), false);
  });

  test('didOpen twice: the second text wins', async () => {
    const path = ws.path('kubeadm-node/etc/default/twice');
    const u = uri(path);
    await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'plaintext', version: 1, text: 'KUBELET_EXTRA_ARGS=--allow-privileged=true\n' } });
    await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'plaintext', version: 1, text: 'KUBELET_EXTRA_ARGS=--v=2\n' } });
    const h: any = await client.request('textDocument/documentSymbol', { textDocument: { uri: u } });
    assert.ok(!JSON.stringify(h).includes('allow-privileged'), JSON.stringify(h));
    await client.notify('textDocument/didClose', { textDocument: { uri: u } });
    await alive();
  });

  test('a version going backwards, an out-of-range edit and a reversed range are applied as vscode-languageserver-textdocument does; diagnostics match a fresh analysis', async () => {
    const path = ws.path('kubeadm-node/var/lib/kubelet/config.yaml');
    const u = uri(path);
    const text = ws.read(CONFIG);
    let doc = TextDocument.create(u, 'yaml', 10, text);
    await client.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 10, text } });
    const changes = [
      { version: 5, contentChanges: [{ range: { start: { line: 999, character: 0 }, end: { line: 999, character: 5 } }, text: 'maxPods: 50\n' }] },
      { version: 6, contentChanges: [{ range: { start: { line: 2, character: 400 }, end: { line: 2, character: 0 } }, text: '' }] },
      { version: 7, contentChanges: [{ range: { start: { line: -3, character: -1 }, end: { line: 0, character: 0 } }, text: '# head\n' }] },
    ];
    for (const c of changes) {
      doc = TextDocument.update(doc, c.contentChanges, c.version);
      await client.notify('textDocument/didChange', { textDocument: { uri: u, version: c.version }, contentChanges: c.contentChanges });
    }
    const got = await client.wait('textDocument/publishDiagnostics', (p: any) => p.uri === u && p.version === 7, HANG_MS);
    assert.ok(client.log.some((l) => l.includes('version 5 after version 10')), 'the out-of-order version is logged');
    const fresh = await freshDiagnostics([ws.dir], path, doc.getText());
    assert.deepEqual(comparable(got.diagnostics), comparable(fresh));
    await client.notify('textDocument/didClose', { textDocument: { uri: u } });
    await alive();
  });

  test('didChange without contentChanges or version, and didOpen without text, are survived', async () => {
    await client.notify('textDocument/didChange', { textDocument: { uri: envUri, version: 99 } });
    await client.notify('textDocument/didChange', { textDocument: { uri: envUri }, contentChanges: [{ text: 'x' }] });
    await client.notify('textDocument/didOpen', { textDocument: { uri: uri(ws.path('kubeadm-node/x.env')), languageId: 'plaintext', version: 1 } });
    await client.notify('textDocument/didClose', { textDocument: { uri: uri(ws.path('kubeadm-node/x.env')) } });
    await client.notify('textDocument/didClose', {});
    await alive();
  });
});

// vscode-jsonrpc alone answers nothing more after most of these: its reader consumes the bad header and takes
// the next body for a header, and so on (messageReader.ts). server/src/lsp/framing.ts drops such bytes first.
describe('bytes that are not JSON-RPC on stdin: dropped and logged, later requests still answered (stdio transport)', () => {
  const ws = workspace('seed-node');
  let client: TestClient;
  let seedUri = '';

  const hover = (timeoutMs = HANG_MS) =>
    client.request('textDocument/hover', { textDocument: { uri: seedUri }, position: positionOf(ws.read(SEED), 'ExecStart=', 2) }, timeoutMs);

  // [name, bytes, whether the framing filter (server/src/lsp/framing.ts) drops and logs them]
  const cases: [string, Buffer, boolean][] = [
    ['a stray line of text without a header', Buffer.from('hello, this is not a message\n'), true],
    ['garbage ending in a blank line', Buffer.from('garbage\r\n\r\n'), true],
    ['a header without Content-Length', Buffer.from('Content-Type: application/json\r\n\r\n{}'), true],
    ['a Content-Length that is not a number', Buffer.from('Content-Length: abc\r\n\r\n{}'), true],
    // Framed but not a message: vscode-jsonrpc itself reports and skips these.
    ['a body that is not JSON', Buffer.from('Content-Length: 5\r\n\r\n{abc}'), false],
    ['JSON that is not a JSON-RPC message', frame({ hello: [1, 2, 3] } as object), false],
    ['a Content-Length shorter than the body', Buffer.concat([Buffer.from('Content-Length: 10\r\n\r\n'), frame({ method: 'x/y', params: {} }).subarray(22)]), true],
    // The next request's header shows up inside the declared body: the filter drops the broken message there.
    ['a Content-Length longer than the body', Buffer.from('Content-Length: 100000\r\n\r\n{"jsonrpc":"2.0","method":"x/y"}'), true],
  ];

  for (const [name, bytes, logged] of cases) {
    test(`${name}: the server keeps running and answers the following requests`, async () => {
      client = new TestClient();
      try {
        await client.initialize([ws.dir]);
        seedUri = client.open(ws.path(SEED), ws.read(SEED));
        assert.match((await hover()).contents.value, /Node Allocatable/);
        client.proc.stdin!.write(bytes);
        const h: any = await hover();
        assert.match(h.contents.value, /Node Allocatable/);
        assert.match((await hover()).contents.value, /Node Allocatable/);
        assert.equal(client.exited, false);
        if (logged) assert.ok(client.log.some((l) => /ignored \d+ bytes on stdin/.test(l)), client.log.join('\n'));
      } finally {
        await client.close();
      }
    });
  }

  after(() => ws.dispose());
});

describe('shutdown and exit (LSP 3.17: exit code 0 after shutdown, 1 without)', () => {
  const ws = workspace('seed-node');
  after(() => ws.dispose());

  const exitCode = (c: TestClient) =>
    new Promise<number | null>((res, rej) => {
      if (c.proc.exitCode !== null) return res(c.proc.exitCode);
      const t = setTimeout(() => rej(new Error('the server did not exit')), HANG_MS);
      c.proc.once('exit', (code) => (clearTimeout(t), res(code)));
    });

  test('shutdown then exit: the process exits with 0', async () => {
    const c = new TestClient();
    try {
      await c.initialize([ws.dir]);
      assert.equal(await c.request('shutdown', null), null);
      await c.notify('exit', null);
      assert.equal(await exitCode(c), 0);
    } finally {
      c.proc.kill();
    }
  });

  test('exit without shutdown: the process exits with 1', async () => {
    const c = new TestClient();
    try {
      await c.initialize([ws.dir]);
      await c.notify('exit', null);
      assert.equal(await exitCode(c), 1);
    } finally {
      c.proc.kill();
    }
  });

  test('the client going away (stdin closed) ends the server with 1, no orphan left behind', async () => {
    const c = new TestClient();
    try {
      await c.initialize([ws.dir]);
      await c.notify('textDocument/didOpen', { textDocument: { uri: uri(ws.path(SEED)), languageId: 'plaintext', version: 1, text: ws.read(SEED) } });
      c.conn.dispose();
      c.proc.stdin!.end();
      assert.equal(await exitCode(c), 1);
    } finally {
      c.proc.kill();
    }
  });

  test('a server killed mid-session and a new one on the same workspace: the new one answers as the first did', async () => {
    const first = new TestClient();
    let before: any;
    try {
      await first.initialize([ws.dir]);
      const u = first.open(ws.path(SEED), ws.read(SEED));
      before = await first.waitDiagnostics(u, () => true, 1);
      first.proc.kill('SIGKILL');
      await until(() => first.exited, 'the first server is gone');
    } finally {
      first.proc.kill();
      first.conn.dispose();
    }
    const fresh = await freshDiagnostics([ws.dir], ws.path(SEED), ws.read(SEED));
    assert.deepEqual(comparable(fresh), comparable(before.diagnostics));
  });
});

describe('the engine bundle is loaded on first use (dist/server-engine.js)', () => {
  // dist/server.js copied alone: initialize must not need the engine, and its absence must not crash anything.
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-server-alone-'));
  copyFileSync(SERVER, join(dir, 'server.js'));
  const client = new TestClient({ server: join(dir, 'server.js') });
  after(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('initialize is answered without it; a document then gets one diagnostic saying why it was not analysed', async () => {
    const init = await client.initialize([], {});
    assert.equal(init.capabilities.hoverProvider, true);
    assert.deepEqual(init.capabilities.executeCommandProvider?.commands, ['kubelet.showEffectiveConfiguration']);
    const u = client.open(join(dir, 'kubelet.service'), '[Service]\nExecStart=/usr/bin/kubelet --v=2\n');
    const p = await client.waitDiagnostics(u, (d) => d.length > 0);
    assert.equal(p.diagnostics.length, 1);
    assert.match(String(p.diagnostics[0].message), /^Not analysed: the kubelet language server failed \(.*server-engine\.js/);
    assert.equal(await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 1, character: 3 } }), null);
    assert.ok(!client.exited, 'still running');
  });
});
