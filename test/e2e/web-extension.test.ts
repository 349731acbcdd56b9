// VS Code for the Web in a real editor: code-server 4.100.3 (VS Code 1.100.3; installed by scripts/e2e-setup.sh, as
// for test/e2e/editor.test.ts) runs the packaged extension's `browser` entry in its web worker extension host
// (user setting remote.extensionKind: ["web"]), whose language server is a web worker reading the workspace through
// vscode.workspace.fs. No file is opened: the errors the status bar counts come from the workspace the worker read.
// One code-server, one page, one check; every wait is for a condition, with room for a loaded machine.
// KUBELET_E2E=skip skips it (test/run.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const ROOT = path.resolve(__dirname, '..', '..');
const ENTRY = path.join(ROOT, '.e2e', 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = '/usr/bin/chromium';
const VSCE = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
const WEB_BUNDLES = [path.join(ROOT, 'dist', 'web', 'client.js'), path.join(ROOT, 'dist', 'web', 'server.js')];
const WAIT_MS = 240_000;

const missing = [ENTRY, CHROMIUM, VSCE, ...WEB_BUNDLES].filter((f) => !fs.existsSync(f)).map((f) => path.relative(ROOT, f) || f);
const skip =
  process.env.KUBELET_E2E === 'skip'
    ? 'KUBELET_E2E=skip'
    : missing.length && process.env.KUBELET_E2E !== 'required'
      ? `not set up: missing ${missing.join(', ')}; run scripts/e2e-setup.sh and npm run build`
      : false;

const FILES: Record<string, string> = {
  // The unit takes its flags from the drop-in's environment: --allow-privileged (removed in 1.15) is an error.
  'etc/systemd/system/kubelet.service': '[Unit]\nDescription=kubelet\n\n[Service]\nExecStart=/usr/bin/kubelet $EXTRA\nRestart=always\n',
  'etc/systemd/system/kubelet.service.d/20-extra.conf': '[Service]\nEnvironment="EXTRA=--allow-privileged=true"\n# kubelet-lint: kubernetes-version 1.37\n',
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

test('VS Code for the Web: code-server runs the browser entry in its web worker extension host and reports the workspace\'s error', { skip, timeout: 3 * WAIT_MS }, async () => {
  assert.deepEqual(missing, [], 'KUBELET_E2E=required but the setup is missing');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kubelet-web-extension-'));
  const userData = path.join(tmp, 'user-data');
  const extensions = path.join(tmp, 'extensions');
  const ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(extensions);
  fs.writeFileSync(path.join(tmp, 'config.yaml'), 'auth: none\n');
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'security.workspace.trust.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      // Run the extension where vscode.dev runs it: the web worker extension host, from its `browser` entry.
      'remote.extensionKind': { 'kubelet-config.kubelet-config': ['web'] },
    }),
  );
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  const args = [ENTRY, '--config', path.join(tmp, 'config.yaml'), '--user-data-dir', userData, '--extensions-dir', extensions];
  const env = { ...process.env, NODE_OPTIONS: '' };
  const vsix = path.join(tmp, 'kubelet-config.vsix');
  const pack = spawnSync(process.execPath, [VSCE, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  const install = spawnSync(process.execPath, [...args, '--install-extension', vsix], { encoding: 'utf8', env });
  assert.equal(install.status, 0, install.stdout + install.stderr);

  const port = await freePort();
  // Its own process group, so that the extension hosts end with it.
  const cs: ChildProcess = spawn(process.execPath, [...args, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened', ws], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let log = '';
  cs.stdout!.on('data', (d) => (log += d));
  cs.stderr!.on('data', (d) => (log += d));
  const stop = () => {
    try {
      process.kill(-cs.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', stop);
  let browser: Browser | undefined;
  const consoleLines: string[] = [];
  let ok = false;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not start:\n${log.slice(-2000)}`)), WAIT_MS);
      const check = () => (log.includes('HTTP server listening') ? (clearTimeout(timer), resolve()) : setTimeout(check, 200));
      check();
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      timeout: WAIT_MS,
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text().slice(0, 300)}`));
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    await page.waitForSelector('.monaco-workbench');
    // The status bar's problem counts: "errors warnings infos", the first must become 1 or more.
    await page.waitForFunction(() => {
      const el = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('#status\\.problems');
      return /^\s*[1-9]/.test(el?.textContent ?? '');
    });
    // The Problems panel says which: the drop-in's removed flag.
    await page.keyboard.press('Control+Shift+M');
    await page.waitForFunction(() => {
      const el = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('.markers-panel');
      return /20-extra\.conf/.test(el?.textContent ?? '') && /allow-privileged/.test(el?.textContent ?? '');
    });
    // The web worker did it: the extension started no Node language server (dist/server.js).
    const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout.split('\n');
    assert.deepEqual(ps.filter((l) => l.includes(extensions) && l.includes(path.join('dist', 'server.js'))), []);
    assert.ok(!consoleLines.some((l) => /Activating extension 'kubelet-config.kubelet-config' failed/.test(l)), consoleLines.join('\n'));
    ok = true;
  } finally {
    await browser?.close().catch(() => undefined);
    stop();
    if (ok) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log(`# web-extension failed; kept ${tmp}\n# browser console:\n${consoleLines.slice(-30).join('\n')}\n# code-server:\n${log.slice(-2000)}`);
  }
});
