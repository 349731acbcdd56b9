// The language server of VS Code for the Web (dist/web/server.js, built by `npm run build`) in a real browser:
// headless Chromium (Debian's, installed by scripts/integrations-setup.sh; KUBELET_INTEGRATIONS=skip skips this)
// runs it in a web worker, and a small client in the page speaks LSP to it over the worker's messages, as
// vscode-languageclient/browser does. The workspace is a `vscode-test-web://mount/ws` folder held in the page: the
// worker has no disk and reads it through the client's answers to kubelet/findFiles and kubelet/readFile, as the
// extension answers them with vscode.workspace.fs (client/src/workspace-files.ts).
//
// The whole extension in a real editor's web worker extension host is test/e2e/web-extension.test.ts (code-server);
// this one checks the worker server's protocol and file reading directly, without an editor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

const repoRoot = resolve(__dirname, '..', '..');
const SERVER = join(repoRoot, 'dist', 'web', 'server.js');
const CHROMIUM = '/usr/bin/chromium';
const required = process.env.KUBELET_INTEGRATIONS === 'required';
const skip =
  process.env.KUBELET_INTEGRATIONS === 'skip'
    ? 'KUBELET_INTEGRATIONS=skip'
    : !existsSync(CHROMIUM) && !required
      ? 'Chromium is not installed (scripts/integrations-setup.sh installs it)'
      : false;
/** Generous: the machine may be shared and loaded; nothing here measures time. */
const WAIT_MS = 120_000;

const ROOT = 'vscode-test-web://mount/ws';
const UNIT = `${ROOT}/etc/systemd/system/kubelet.service`;
const DROPIN = `${ROOT}/etc/systemd/system/kubelet.service.d/20-extra.conf`;
const CONFIG = `${ROOT}/var/lib/kubelet/config.yaml`;
const FILES: Record<string, string> = {
  // The unit takes its flags from the drop-in's environment and reads the config file.
  [UNIT]: '[Unit]\nDescription=kubelet\n\n[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $EXTRA\nRestart=always\n',
  [DROPIN]: '[Service]\nEnvironment="EXTRA=--allow-privileged=true"\n# kubelet-lint: kubernetes-version 1.37\n',
  [CONFIG]: '# kubelet-lint: capacity cpu=4,memory=16Gi,ephemeral-storage=100Gi\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\nmaxPods: 50\n',
  [`${ROOT}/node_modules/x/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet --allow-privileged=true\n# kubelet-lint: kubernetes-version 1.37\n',
  [`${ROOT}/README.md`]: '# a node\n',
};

/**
 * The page's side: the worker, a JSON-RPC client over postMessage, and the answers to the server's requests from an
 * in-memory file system (what vscode.workspace.fs would read). Runs in the browser.
 */
const CLIENT = `
const worker = new Worker('/server.js', { name: 'kubelet-language-server' });
const files = new Map();
const pending = new Map();
const notifications = [];
const asked = [];
const errors = [];
let nextId = 1;
worker.onerror = (e) => errors.push(String(e.message || e));
const utf8base64 = (text) => { const b = new TextEncoder().encode(text); let s = ''; for (const x of b) s += String.fromCharCode(x); return btoa(s); };
const answer = (m) => {
  asked.push({ method: m.method, params: m.params });
  switch (m.method) {
    case 'kubelet/findFiles': {
      const dir = m.params.folder.endsWith('/') ? m.params.folder : m.params.folder + '/';
      const skip = new Set(m.params.exclude);
      return { uris: [...files.keys()].filter((u) => u.startsWith(dir) && !u.slice(dir.length).split('/').slice(0, -1).some((s) => skip.has(s))).slice(0, m.params.max) };
    }
    case 'kubelet/readFile': {
      if (files.has(m.params.uri)) return { kind: 'file', base64: utf8base64(files.get(m.params.uri)) };
      if ([...files.keys()].some((u) => u.startsWith(m.params.uri + '/'))) return { kind: 'directory' };
      return { kind: 'none', reason: 'not found' };
    }
    case 'workspace/configuration': return m.params.items.map(() => ({}));
    default: return null;
  }
};
worker.onmessage = (e) => {
  const m = e.data;
  if (m.id !== undefined && m.method === undefined) {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (p) m.error ? p.reject(new Error(m.error.message)) : p.resolve(m.result);
  } else if (m.id !== undefined) {
    worker.postMessage({ jsonrpc: '2.0', id: m.id, result: answer(m) });
  } else notifications.push(m);
};
window.lsp = {
  files, notifications, asked, errors,
  request: (method, params) => new Promise((resolve, reject) => { const id = nextId++; pending.set(id, { resolve, reject }); worker.postMessage({ jsonrpc: '2.0', id, method, params }); }),
  notify: (method, params) => worker.postMessage({ jsonrpc: '2.0', method, params }),
};
`;

interface Diagnostic {
  code?: string;
  severity?: number;
  message: string;
  range: { start: { line: number; character: number } };
  relatedInformation?: { location: { uri: string } }[];
}

test('VS Code for the Web: the language server runs in a web worker in Chromium and reads the workspace through the client', { skip, timeout: 5 * WAIT_MS }, async (t) => {
  assert.ok(existsSync(CHROMIUM), 'KUBELET_INTEGRATIONS=required but /usr/bin/chromium is missing');
  assert.ok(existsSync(SERVER), `${SERVER} is missing: run "npm run build" first`);
  const http: Server = createServer((req, res) => {
    if (req.url === '/server.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(SERVER));
    else if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(CLIENT);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>kubelet web worker</title><script src="/client.js"></script>');
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      timeout: WAIT_MS,
    });
    const page: Page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    // Only this page's own server: the worker must need nothing from the network.
    const outside: string[] = [];
    await page.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : (outside.push(route.request().url()), route.abort())));
    await page.goto(base);
    await page.evaluate((files) => {
      const w = globalThis as unknown as { lsp: { files: Map<string, string> } };
      for (const [uri, text] of Object.entries(files)) w.lsp.files.set(uri, text);
    }, FILES);
    const request = <T>(method: string, params: unknown) =>
      page.evaluate(([m, p]) => (globalThis as unknown as { lsp: { request(m: string, p: unknown): Promise<unknown> } }).lsp.request(m as string, p), [method, params] as const) as Promise<T>;
    const notify = (method: string, params: unknown) =>
      page.evaluate(([m, p]) => (globalThis as unknown as { lsp: { notify(m: string, p: unknown): void } }).lsp.notify(m as string, p), [method, params] as const);
    /** The latest diagnostics published for `uri` once `ok` holds for them (waits for the condition, never a fixed time). */
    const diagnostics = async (uri: string, ok: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]> => {
      const handle = await page.waitForFunction(
        ([u, from]) => {
          const w = globalThis as unknown as { lsp: { notifications: { method: string; params: { uri: string; diagnostics: unknown[] } }[] } };
          const list = w.lsp.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === u);
          const last = list.at(-1);
          return last && list.length > (from as number) ? last.params.diagnostics : undefined;
        },
        [uri, 0] as const,
        { timeout: WAIT_MS, polling: 100 },
      );
      let got = (await handle.jsonValue()) as Diagnostic[];
      const deadline = Date.now() + WAIT_MS;
      while (!ok(got) && Date.now() < deadline) {
        await page.waitForTimeout(200);
        got = (await page.evaluate((u) => {
          const w = globalThis as unknown as { lsp: { notifications: { method: string; params: { uri: string; diagnostics: unknown[] } }[] } };
          return w.lsp.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === u).at(-1)?.params.diagnostics;
        }, uri)) as Diagnostic[];
      }
      return got;
    };

    const init = await request<{ serverInfo: { name: string }; capabilities: Record<string, unknown> }>('initialize', {
      processId: null,
      rootUri: ROOT,
      workspaceFolders: [{ uri: ROOT, name: 'ws' }],
      capabilities: { workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } } },
    });
    assert.equal(init.serverInfo.name, 'kubelet-language-server');
    assert.ok(init.capabilities.hoverProvider && init.capabilities.completionProvider && init.capabilities.codeActionProvider);
    notify('initialized', {});
    const dropin = FILES[DROPIN];
    notify('textDocument/didOpen', { textDocument: { uri: DROPIN, languageId: 'kubelet-systemd', version: 1, text: dropin } });

    await t.test('a drop-in is checked with its unit, which the worker read through the client (never opened)', async () => {
      const d = await diagnostics(DROPIN, (l) => l.some((x) => x.code === 'flag-removed'));
      const removed = d.find((x) => x.code === 'flag-removed');
      assert.ok(removed, JSON.stringify(d));
      assert.equal(removed.range.start.line, 1);
      const asked = (await page.evaluate(() => (globalThis as unknown as { lsp: { asked: { method: string; params: { folder?: string; uri?: string } }[] } }).lsp.asked)) as {
        method: string;
        params: { folder?: string; uri?: string };
      }[];
      assert.ok(asked.some((a) => a.method === 'kubelet/findFiles' && a.params.folder === ROOT), JSON.stringify(asked.slice(0, 5)));
      assert.ok(asked.some((a) => a.method === 'kubelet/readFile' && a.params.uri === UNIT), 'the unit was read through the client');
      assert.ok(!asked.some((a) => a.params.uri?.includes('/node_modules/')), 'skipped folders are not read');
      // Every URI the server sends back is the editor's (vscode-test-web:), not a file: URI of a disk it does not have.
      for (const x of d) for (const r of x.relatedInformation ?? []) assert.ok(r.location.uri.startsWith(`${ROOT}/`), r.location.uri);
    });

    await t.test('hover, completion, quick fixes and allocatable answer in the worker', async () => {
      const at = dropin.indexOf('allow-privileged');
      const line = dropin.slice(0, at).split('\n').length - 1;
      const character = at - dropin.lastIndexOf('\n', at) - 1;
      const hover = await request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: DROPIN }, position: { line, character: character + 2 } });
      assert.match(String(hover?.contents.value), /allow-privileged/);

      const config = FILES[CONFIG] + 'max';
      notify('textDocument/didOpen', { textDocument: { uri: CONFIG, languageId: 'yaml', version: 1, text: config } });
      const lines = config.split('\n');
      const completion = await request<{ items: { label: string }[] } | { label: string }[]>('textDocument/completion', {
        textDocument: { uri: CONFIG },
        position: { line: lines.length - 1, character: lines.at(-1)!.length },
      });
      const labels = (Array.isArray(completion) ? completion : completion.items).map((i) => i.label);
      assert.ok(labels.includes('maxOpenFiles'), labels.slice(0, 20).join(' '));

      const d = await diagnostics(DROPIN, (l) => l.some((x) => x.code === 'flag-removed'));
      const removed = d.find((x) => x.code === 'flag-removed')!;
      const actions = await request<{ title: string; kind?: string }[]>('textDocument/codeAction', {
        textDocument: { uri: DROPIN },
        range: removed.range,
        context: { diagnostics: [removed] },
      });
      assert.ok(actions.some((a) => a.kind === 'quickfix'), JSON.stringify(actions.map((a) => a.title)));

      const alloc = await request<{ nodes: { files: string[] }[] } | null>('kubelet/allocatable', { uri: UNIT });
      assert.ok(alloc && alloc.nodes.length === 1, JSON.stringify(alloc));
    });

    await t.test('a changed file the client reports (didChangeWatchedFiles) is read again through the client', async () => {
      await page.evaluate(([u]) => {
        (globalThis as unknown as { lsp: { files: Map<string, string> } }).lsp.files.set(u as string, '[Unit]\nDescription=kubelet\n\n[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n');
      }, [UNIT] as const);
      notify('workspace/didChangeWatchedFiles', { changes: [{ uri: UNIT, type: 2 }] });
      // The unit no longer uses the drop-in's variable: the assignment is unused, and the removed flag no longer an error.
      const d = await diagnostics(DROPIN, (l) => l.some((x) => x.code === 'unit-variable-unused'));
      assert.ok(d.some((x) => x.code === 'unit-variable-unused'), JSON.stringify(d));
      assert.ok(!d.some((x) => x.code === 'flag-removed' && x.severity === 1), JSON.stringify(d));
    });

    const errors = (await page.evaluate(() => (globalThis as unknown as { lsp: { errors: string[] } }).lsp.errors)) as string[];
    assert.deepEqual(errors, [], 'the worker raised no error');
    assert.deepEqual(outside, [], 'nothing was fetched from outside the page');
  } finally {
    await browser?.close();
    await new Promise((r) => http.close(r));
  }
});
