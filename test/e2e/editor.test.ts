/**
 * Real-editor end-to-end test: the packaged extension in VS Code 1.100.3
 * (code-server 4.100.3) driven in Debian's headless Chromium by playwright-core.
 *
 * Needs what `scripts/e2e-setup.sh` installs (test/run.mjs runs it first:
 * code-server in a cache folder, linked from .e2e/code-server). Without it the
 * test is skipped, unless KUBELET_E2E=required, when it fails instead.
 *
 * Checks, in one code-server with two temporary copies of examples/:
 *  - Restricted Mode: the extension activates and the Problems panel lists the
 *    seed unit's `unit-continuation-swallows-directive` error;
 *  - hovering `kubeReserved` shows the Node Allocatable table (14.5 CPU);
 *  - the quick fix removes the `\` at the end of line 19 and the error goes;
 *  - the status bar shows the seed node's allocatable (and hides for a file of
 *    no node); "Kubelet: Show Node Allocatable" opens the view with the seed
 *    node's figures, which follows the active editor and an unsaved edit;
 *  - a trusted workspace shows the same error and status bar item, and the
 *    protocol trace (kubeletConfig.trace.server) in its output channel;
 *  - a third workspace (issues-node, flags-node): Problems rows lead with their
 *    point, a key a flag silently drops is a warning; the quick fixes delete a
 *    removed gate and keep the eviction defaults, and "Disable ..." actions are
 *    offered; no capacity is said once and the "allocatable" lens opens the view;
 *    an invalid nodeCapacity gives a notification and "invalid setting"; a rule
 *    link opens the rendered page; the refactor creates the config file of a node
 *    without --config; the walkthrough's first step completes;
 *  - a fourth workspace (kubeadm-node, Kubernetes 1.30 from its ClusterConfiguration): the version and its
 *    source in the status bar and the view; an unused KUBELET_AUTHZ_ARGS greyed out, reported, its flag's hover
 *    "not in effect"; hovers of a gate, a $VAR and the allocatable table (on kubeReserved only); Go to
 *    Definition from EnvironmentFile= and --config=; completion after = and of the first featureGates entry,
 *    keys not offered twice, no mergeDefaultEvictionSettings for 1.30; reserved-resource-unknown's Remove fix.
 * Screenshots go to .e2e/screenshots/. Every wait waits for a condition.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '..', '..');
const E2E = path.join(ROOT, '.e2e');
const ENTRY = path.join(E2E, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = '/usr/bin/chromium';
const VSCE = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
const SCREENSHOTS = path.join(E2E, 'screenshots');
const REQUIRED = process.env.KUBELET_E2E === 'required';

const SEED = 'seed-node/usr/lib/systemd/system/kubelet.service';
const DOCS = 'docs-example/kubelet-config.yaml';
const NOTES = 'notes.md';
/** The seed node's allocatable cpu and memory (32 CPU, 128Gi minus kube 2/8Gi, system 6/24Gi and the default 100Mi threshold). */
const SEED_STATUS = '24 CPU · 95.9 GiB';
const DOCS_STATUS = '14.5 CPU · 28.51 GiB';
const RULE = 'unit-continuation-swallows-directive';

/** A third workspace (written by the test) for the messages, fixes and settings a user meets. */
const ISSUES_CONFIG = 'issues-node/var/lib/kubelet/config.yaml';
const ISSUES_UNIT = 'issues-node/usr/lib/systemd/system/kubelet.service';
const FLAGS_UNIT = 'flags-node/etc/systemd/system/kubelet.service';
const ISSUES_FILES: Record<string, string> = {
  [ISSUES_CONFIG]:
    'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  DevicePlugins: true\n  NodeSwap: true\n' +
    'systemReserved:\n  memory: 1Gi\nevictionHard:\n  memory.available: 200Mi\n',
  [ISSUES_UNIT]: '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --system-reserved=cpu=500m\n',
  [FLAGS_UNIT]: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=50 --kube-reserved=cpu=500m,memory=1Gi\n',
};

/** A fourth workspace: a kubeadm node of Kubernetes 1.30 (the version from its ClusterConfiguration), for completion, hovers and navigation. */
const KUBEADM_DROPIN = 'kubeadm-node/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
const KUBEADM_ENV = 'kubeadm-node/etc/default/kubelet';
const KUBEADM_CONFIG = 'kubeadm-node/var/lib/kubelet/config.yaml';
const KUBEADM_ENV_TEXT = 'KUBELET_EXTRA_ARGS=--feature-gates=NodeSwap=true --eviction-hard=memory.available<100Mi\n';
const KUBEADM_CONFIG_TEXT =
  '# kubelet-lint: capacity cpu=8,memory=32Gi,ephemeral-storage=100Gi\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' +
  'cgroupDriver: systemd\nkubeReserved:\n  cpu: 500m\n  gpu: "1"\nfeatureGates:\n';
const KUBEADM_FILES: Record<string, string> = {
  'kubeadm-node/etc/kubernetes/kubeadm-config.yaml': 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.30.2\n',
  'kubeadm-node/usr/lib/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet\nRestart=always\n',
  [KUBEADM_DROPIN]:
    '[Service]\nEnvironment="KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf"\n' +
    'Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"\n' +
    'Environment="KUBELET_AUTHZ_ARGS=--authorization-mode=Webhook --client-ca-file=/etc/kubernetes/pki/ca.crt"\n' +
    'EnvironmentFile=-/etc/default/kubelet\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_EXTRA_ARGS\n',
  [KUBEADM_ENV]: KUBEADM_ENV_TEXT,
  [KUBEADM_CONFIG]: KUBEADM_CONFIG_TEXT,
};
/** The kubeadm node's status: 8 CPU minus 500m kube-reserved; 32Gi minus the 100Mi threshold; its version. */
const KUBEADM_STATUS = '7.5 CPU · 31.9 GiB · kubelet 1.30';

const WORKBENCH_TIMEOUT = 60_000;
const EXPECT_TIMEOUT = 30_000;

function missingSetup(): string | undefined {
  const missing: string[] = [];
  if (!fs.existsSync(ENTRY)) missing.push(`code-server (${path.relative(ROOT, ENTRY)})`);
  if (!fs.existsSync(CHROMIUM)) missing.push(CHROMIUM);
  if (!fs.existsSync(VSCE)) missing.push('@vscode/vsce (npm ci)');
  if (!fs.existsSync(path.join(ROOT, 'dist', 'client.js')) || !fs.existsSync(path.join(ROOT, 'dist', 'server.js'))) {
    missing.push('dist/ (npm run build)');
  }
  return missing.length ? `real-editor e2e not set up: missing ${missing.join(', ')}; run scripts/e2e-setup.sh (or npm run test:e2e)` : undefined;
}

const notReady = process.env.KUBELET_E2E === 'skip' ? 'KUBELET_E2E=skip' : missingSetup();

// ---------------------------------------------------------------------------
// code-server

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) {
    throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
}

class CodeServer {
  proc?: ChildProcess;
  log = '';
  port = 0;

  constructor(
    readonly userDataDir: string,
    readonly extensionsDir: string,
    readonly configFile: string,
    readonly logFile: string,
  ) {}

  private args(): string[] {
    return [ENTRY, '--config', this.configFile, '--user-data-dir', this.userDataDir, '--extensions-dir', this.extensionsDir];
  }

  installExtension(vsix: string): void {
    run(process.execPath, [...this.args(), '--install-extension', vsix]);
  }

  /** Starts on a free port; retries with another port if that one was taken meanwhile. */
  async start(): Promise<void> {
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      this.port = await freePort();
      try {
        await this.startOn(this.port);
        return;
      } catch (e) {
        lastError = e;
        await this.stop();
      }
    }
    throw lastError;
  }

  private startOn(port: number): Promise<void> {
    const proc: ChildProcess = spawn(
      process.execPath,
      [...this.args(), '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
        '--disable-getting-started-override', '--ignore-last-opened'],
      // Own process group, so that stop() also ends the extension hosts and language servers.
      { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
    );
    this.proc = proc;
    // If this test process ends without after() (a crash, a signal), do not leave code-server behind.
    const pid = proc.pid!;
    const killOnExit = () => {
      try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
    };
    process.once('exit', killOnExit);
    proc.once('exit', () => process.removeListener('exit', killOnExit));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not listen within ${WORKBENCH_TIMEOUT} ms:\n${this.tail()}`)), WORKBENCH_TIMEOUT);
      const onData = (chunk: Buffer) => {
        const s = chunk.toString();
        this.log += s;
        fs.appendFileSync(this.logFile, s);
        if (this.log.includes(`HTTP server listening on http://127.0.0.1:${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', onData);
      proc.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${code ?? signal}) before listening:\n${this.tail()}`));
      });
    });
  }

  tail(n = 40): string {
    return this.log.split('\n').slice(-n).join('\n');
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc?.pid || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        process.kill(-proc.pid!, sig);
      } catch {
        try { proc.kill(sig); } catch { /* gone */ }
      }
    };
    killGroup('SIGTERM');
    const t = setTimeout(() => killGroup('SIGKILL'), 5_000);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    clearTimeout(t);
    // Children that outlived the parent (same process group).
    killGroup('SIGKILL');
  }
}

// ---------------------------------------------------------------------------
// Workbench helpers (all waits are for conditions)

async function clickCenter(page: Page, locator: Locator): Promise<void> {
  // locator.click() can wait forever for workbench rows to be "stable": click at the centre instead.
  await locator.waitFor({ state: 'visible', timeout: EXPECT_TIMEOUT });
  // A list row can be drawn again (new diagnostics arrive) between the wait and the measure: measure until it holds.
  const box = await until('the element to have a bounding box', async () => (await locator.boundingBox()) ?? undefined);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Clicks a row of the Ctrl+. menu until the menu closes: a click that lands while the list is drawn again (code
 * actions re-asked as diagnostics arrive) chooses nothing and leaves the menu open.
 */
async function chooseAction(page: Page, row: Locator): Promise<void> {
  const widget = page.locator('.action-widget');
  await until('the chosen action to close its menu', async () => {
    if (!(await widget.isVisible())) return true;
    await clickCenter(page, row);
    return widget.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false);
  }, EXPECT_TIMEOUT, 0);
}

/**
 * Saves the active editor until the file on disk satisfies `done`; returns that text. A quick fix's edit can reach
 * the editor after its menu has closed, so a single Ctrl+S right after the click may save the text before the edit.
 * `done` must describe the whole expected text, never only what went away: the editor writes a file by truncating
 * it first, and a read in between sees an empty file (a check for "DevicePlugins gone" passed on one, then the
 * assertion after it read '' again).
 */
async function saveUntil(page: Page, what: string, file: string, done: (text: string) => boolean): Promise<string> {
  let last = '';
  try {
    return await until(what, async () => {
      last = fs.readFileSync(file, 'utf8');
      if (done(last)) return last;
      await page.keyboard.press('Control+S');
      return undefined;
    }, EXPECT_TIMEOUT, 500);
  } catch (e) {
    throw new Error(`${(e as Error).message}; the file last read:\n${last}`);
  }
}

/** Polls fn until it returns a truthy value. */
async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeout = EXPECT_TIMEOUT, every = 250): Promise<T> {
  const end = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Does `act` until `target` shows (each try gives it 5 s): a hover, a tooltip or a widget that a first try can miss. */
async function actUntilVisible(what: string, target: Locator, act: () => Promise<void>): Promise<void> {
  await until(what, async () => {
    await act();
    try {
      await target.waitFor({ state: 'visible', timeout: 5_000 });
      return true;
    } catch {
      return false;
    }
  }, EXPECT_TIMEOUT, 0);
}

async function openWorkbench(page: Page, port: number, folder: string, trust: boolean): Promise<void> {
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`, { timeout: WORKBENCH_TIMEOUT });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: WORKBENCH_TIMEOUT });
  // A fresh folder opens behind the workspace trust dialog (startupPrompt: always).
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: WORKBENCH_TIMEOUT });
  const label = trust ? /Yes, I trust/ : /No, I don.t trust/;
  await clickCenter(page, dialog.locator('.monaco-button', { hasText: label }).first());
  await dialog.waitFor({ state: 'hidden', timeout: EXPECT_TIMEOUT });
  const restricted = page.locator('.statusbar', { hasText: 'Restricted Mode' });
  if (trust) await restricted.waitFor({ state: 'detached', timeout: EXPECT_TIMEOUT });
  else await restricted.waitFor({ state: 'visible', timeout: EXPECT_TIMEOUT });
}

/**
 * Reloads the window through VS Code's own command, which saves the layout first (a browser reload
 * can outrun that save); the trust prompt (startupPrompt: always) comes back and gets the same answer.
 */
async function reloadWorkbench(page: Page, trust: boolean): Promise<void> {
  const navigated = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: WORKBENCH_TIMEOUT });
  await runCommand(page, 'Developer: Reload Window');
  await navigated;
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: WORKBENCH_TIMEOUT });
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: WORKBENCH_TIMEOUT });
  await clickCenter(page, dialog.locator('.monaco-button', { hasText: trust ? /Yes, I trust/ : /No, I don.t trust/ }).first());
  await dialog.waitFor({ state: 'hidden', timeout: EXPECT_TIMEOUT });
}

const activeEditorLines = (page: Page) => page.locator('.editor-group-container.active .monaco-editor .view-lines').first();

/** Opens a workspace file through Quick Open (Ctrl+P) and waits until its text shows. */
async function openFile(page: Page, rel: string, expectText: string): Promise<void> {
  const dir = path.posix.dirname(rel);
  const base = path.posix.basename(rel);
  const input = page.locator('.quick-input-widget input.input');
  const tab = page.locator('.tabs-container .tab.active', { hasText: base });
  // Each attempt: Quick Open, type the path, wait for this file to be the focused result, Enter, wait for its tab.
  await until(`Quick Open to open ${rel}`, async () => {
    if (!(await input.isVisible())) {
      await page.keyboard.press('Control+P');
      await input.waitFor({ state: 'visible', timeout: 5_000 });
    }
    await input.fill(rel);
    // The focused row must be this file (another node has a file of the same name).
    const focused = page.locator('.quick-input-list .monaco-list-row.focused');
    await until('the Quick Open result', async () => {
      const label = (await focused.getAttribute('aria-label', { timeout: 1_000 })) ?? '';
      return label.includes(base) && label.includes(dir);
    }, 10_000);
    await page.keyboard.press('Enter');
    await tab.waitFor({ state: 'visible', timeout: 10_000 });
    return true;
  }, 2 * EXPECT_TIMEOUT);
  await activeEditorLines(page).filter({ hasText: expectText }).waitFor({ state: 'visible', timeout: EXPECT_TIMEOUT });
}

/** Opens the Problems panel (Ctrl+Shift+M toggles it: press only when it is not shown) and filters it. */
async function showProblems(page: Page, filter: string): Promise<Locator> {
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible())) {
    await page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ state: 'visible', timeout: EXPECT_TIMEOUT });
  }
  // Long lists are virtualised: filter so the row we look for is rendered.
  problemsFilter = filter;
  await applyProblemsFilter(page);
  return panel;
}

/** The Problems filter the current step wants; re-applied while waiting, since the panel can be re-created (and emptied) as the window settles. */
let problemsFilter = '';

async function applyProblemsFilter(page: Page, again = false): Promise<void> {
  const input = page.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
  await input.waitFor({ state: 'visible', timeout: EXPECT_TIMEOUT });
  // Typing the filter again makes the panel filter and draw its tree anew (its count and its rows can disagree for a while).
  if (again) await input.fill('');
  if (again || (await input.inputValue()) !== problemsFilter) await input.fill(problemsFilter);
}

/** The Problems rows; each poll after the first re-applies the filter, so a stale drawing cannot hold a wait up. */
async function problemRows(page: Page, poll = 0): Promise<string[]> {
  if (problemsFilter) await applyProblemsFilter(page, poll > 0);
  return page.locator('.markers-panel .monaco-list-row').allInnerTexts();
}

async function waitForProblem(page: Page, ...parts: string[]): Promise<string> {
  let poll = 0;
  return until(`a Problems row with ${parts.join(' + ')}`, async () => {
    const rows = await problemRows(page, poll++);
    return rows.find((r) => parts.every((p) => r.includes(p)));
  });
}

/** Runs a command through the command palette by its title; `pick` then chooses from the list the command shows. */
async function runCommand(page: Page, title: string, pick?: string): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  const row = page.locator('.quick-input-list .monaco-list-row.focused');
  const choose = async (text: string) => {
    await input.fill(text);
    const want = text.replace(/^>/, '');
    await until(`"${want}" in the list`, async () => ((await row.getAttribute('aria-label', { timeout: 1_000 })) ?? '').includes(want), 10_000);
    await page.keyboard.press('Enter');
  };
  await until(`the command palette to run "${title}"`, async () => {
    if (!(await input.isVisible())) {
      await page.keyboard.press('Control+Shift+P');
      await input.waitFor({ state: 'visible', timeout: 5_000 });
    }
    await choose(`>${title}`);
    if (pick) {
      // The same input now holds the command's own list (no ">" prefix).
      await until('the command\'s list', async () => (await input.isVisible()) && !(await input.inputValue()).startsWith('>'), 10_000);
      await choose(pick);
    }
    await input.waitFor({ state: 'hidden', timeout: 5_000 });
    return true;
  }, 2 * EXPECT_TIMEOUT);
}

/** Moves the cursor to `:line:col` through Quick Open. */
async function goTo(page: Page, at: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill(at);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
  // The cursor is there (the status bar counts a tab as 4 columns, so only the line is checked).
  await page.locator('.statusbar', { hasText: new RegExp(`Ln ${at.split(':')[1]}, Col \\d+`) }).waitFor({ state: 'visible' });
  await page.locator('.editor-group-container.active .monaco-editor.focused').waitFor({ state: 'visible' });
}

/** Puts the cursor at `:line:col` (Quick Open) and opens the Ctrl+. menu until it lists `title`; returns that row. */
async function actionMenu(page: Page, at: string, title: string | RegExp, key = 'Control+.'): Promise<Locator> {
  await goTo(page, at);
  const action = page.locator('.action-widget .monaco-list-row', { hasText: title });
  await until(`"${title}" in the ${key} menu`, async () => {
    if (!(await page.locator('.action-widget').isVisible())) await page.keyboard.press(key);
    try {
      await action.first().waitFor({ state: 'visible', timeout: 5_000 });
      return true;
    } catch {
      await page.keyboard.press('Escape');
      return false;
    }
  }, EXPECT_TIMEOUT, 0);
  return action.first();
}

/** A frame (webview content) whose body holds every one of `texts`. */
async function frameWith(page: Page, what: string, ...texts: string[]): Promise<Frame> {
  return until(what, () => frameNow(page, texts));
}

/** The first frame (a webview's document) whose text holds every one of `texts`, as it is now. */
async function frameNow(page: Page, texts: readonly string[]): Promise<Frame | undefined> {
  for (const f of page.frames()) {
    if (f === page.mainFrame()) continue;
    const body = await f.locator('body').innerText({ timeout: 1_000 }).catch(() => '');
    if (texts.every((t) => body.includes(t))) return f;
  }
  return undefined;
}

/** The status bar item of the extension showing `text`. */
const statusItem = (page: Page, text: string) => page.locator('.statusbar-item', { hasText: text }).first();

/**
 * The allocatable view's document. VS Code nests each webview in two iframes
 * (the host page, then the content frame it writes our HTML into); look for the
 * frame that holds our page rather than rely on their ids.
 */
async function allocatableFrame(page: Page, expectText: string): Promise<Frame> {
  return until(`the allocatable view showing ${expectText}`, async () => {
    for (const f of page.frames()) {
      if (f === page.mainFrame()) continue;
      const text = await f.locator('body').innerText({ timeout: 1_000 }).catch(() => '');
      if (text.includes('Node Allocatable') && text.includes(expectText)) return f;
    }
    return undefined;
  });
}

/** The screen box of the character `at` characters into the first occurrence of `needle` in the active editor's visible lines. */
async function textBox(page: Page, needle: string, at = 1): Promise<{ x: number; y: number; width: number; height: number }> {
  const line = activeEditorLines(page).locator('.view-line', { hasText: needle }).first();
  return until(`"${needle}" on screen`, () =>
    // Runs in the page (no DOM types here): walk the line's text nodes (one per token span) to the wanted character.
    line.evaluate((el: any, [n, k]: readonly [string, number]) => {
      const i = (el.textContent ?? '').indexOf(n);
      if (i < 0) return undefined;
      const doc = el.ownerDocument;
      const walker = doc.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
      let offset = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const len = node.textContent?.length ?? 0;
        if (offset + len > i + k) {
          const r = doc.createRange();
          r.setStart(node, i + k - offset);
          r.setEnd(node, i + k - offset + 1);
          const b = r.getBoundingClientRect();
          return { x: b.x as number, y: b.y as number, width: b.width as number, height: b.height as number };
        }
        offset += len;
      }
      return undefined;
    }, [needle, at] as const, { timeout: 2_000 }),
  );
}

/** Hovers `needle` in the active editor until a hover holding `expect` shows; returns that hover. */
async function hoverOn(page: Page, needle: string, expect: string | RegExp): Promise<Locator> {
  const hover = page.locator('.monaco-hover:visible', { hasText: expect }).first();
  await actUntilVisible(`a hover with ${expect} on "${needle}"`, hover, async () => {
    await page.keyboard.press('Escape');
    const b = await textBox(page, needle, Math.min(2, needle.length - 1));
    // Move off (below: hovers open above the line) and back onto it: each entry (re)starts the hover delay.
    await page.mouse.move(b.x + b.width / 2, b.y + 3 * b.height);
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 3 });
  });
  // Shown in full, not mid fade-in (a screenshot follows): it and its ancestors are opaque.
  await until('the hover faded in', () =>
    hover.evaluate((el: any) => {
      for (let e = el; e; e = e.parentElement) if (e.ownerDocument.defaultView.getComputedStyle(e).opacity !== '1') return false;
      return true;
    }),
  );
  return hover;
}

/**
 * Go to Definition (F12) with the cursor on the path that ends `prefix` on line `line` of the active editor; waits
 * for the target's tab and text.
 */
async function goToDefinition(page: Page, line: number, prefix: string, tab: string | RegExp, expectText: string): Promise<void> {
  await goTo(page, `:${line}:${prefix.length - 2}`);
  await actUntilVisible(`Go to Definition to open ${tab}`, page.locator('.tabs-container .tab.active', { hasText: tab }), () => page.keyboard.press('F12'));
  await activeEditorLines(page).filter({ hasText: expectText }).waitFor({ state: 'visible' });
}

/** The suggest widget's rows once it shows one holding `expect` (Ctrl+Space if it did not open by itself). */
async function suggestions(page: Page, expect: string): Promise<string[]> {
  const widget = page.locator('.editor-group-container.active .suggest-widget.visible');
  const rows = widget.locator('.monaco-list-row');
  await actUntilVisible(`a completion "${expect}"`, rows.filter({ hasText: expect }).first(), async () => {
    if (!(await widget.isVisible())) await page.keyboard.press('Control+Space');
  });
  return (await rows.allInnerTexts()).map((r) => r.split('\n')[0]);
}

async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, name);
  await page.screenshot({ path: file });
  return file;
}

// ---------------------------------------------------------------------------

const SUITE = 'real editor (code-server + Chromium)';

if (notReady) {
  // Not set up: skip with the reason, or fail when the environment requires the test.
  test(SUITE, { skip: REQUIRED ? false : notReady }, () => {
    throw new Error(`KUBELET_E2E=required but ${notReady}`);
  });
} else describe(SUITE, () => {
  let tmp = '';
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let restrictedWs = '';
  let trustedWs = '';
  let issuesWs = '';
  let kubeadmWs = '';
  let failed = false;
  const shots: string[] = [];

  const consoleErrors: string[] = [];

  before(async () => {
    try {
      await setUp();
    } catch (e) {
      failed = true;
      throw e;
    }
  });

  async function setUp(): Promise<void> {
    // Ctrl+C or a kill of the test process: exit through process.exit so that the 'exit' hooks end code-server.
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => process.exit(128 + os.constants.signals[sig]));
    // Screenshots of an earlier failed run would mislead.
    if (fs.existsSync(SCREENSHOTS)) {
      for (const f of fs.readdirSync(SCREENSHOTS)) if (f.startsWith('failure-')) fs.rmSync(path.join(SCREENSHOTS, f), { force: true });
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kubelet-e2e-'));
    const userData = path.join(tmp, 'user-data');
    const extensions = path.join(tmp, 'extensions');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.mkdirSync(extensions);
    fs.writeFileSync(path.join(tmp, 'config.yaml'), 'auth: none\n');
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'workbench.tips.enabled': false,
          'workbench.enableExperiments': false,
          'workbench.editor.enablePreview': false,
          'security.workspace.trust.startupPrompt': 'always',
          'security.workspace.trust.emptyWindow': false,
          'telemetry.telemetryLevel': 'off',
          'update.mode': 'none',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          'extensions.ignoreRecommendations': true,
          'files.autoSave': 'off',
          'editor.hover.delay': 150,
          'editor.hover.sticky': true,
          // The client then traces the protocol into its own output channel (checked in the trusted workspace).
          'kubeletConfig.trace.server': 'messages',
        },
        null,
        2,
      ),
    );
    restrictedWs = path.join(tmp, 'ws-restricted');
    trustedWs = path.join(tmp, 'ws-trusted');
    fs.cpSync(path.join(ROOT, 'examples'), restrictedWs, { recursive: true });
    fs.cpSync(path.join(ROOT, 'examples'), trustedWs, { recursive: true });
    fs.writeFileSync(path.join(restrictedWs, NOTES), '# Notes\n\nNot a kubelet file.\n');
    issuesWs = path.join(tmp, 'ws-issues');
    kubeadmWs = path.join(tmp, 'ws-kubeadm');
    for (const [ws, files] of [[issuesWs, ISSUES_FILES], [kubeadmWs, KUBEADM_FILES]] as const) {
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
        fs.writeFileSync(path.join(ws, rel), text);
      }
    }

    // Package the current build (dependencies are bundled by esbuild) and install it into the fresh extensions dir.
    const vsix = path.join(tmp, 'kubelet-config.vsix');
    run(process.execPath, [VSCE, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix]);
    server = new CodeServer(userData, extensions, path.join(tmp, 'config.yaml'), path.join(tmp, 'code-server.log'));
    server.installExtension(vsix);
    assert.ok(
      fs.readdirSync(extensions).some((d) => d.startsWith('kubelet-config.kubelet-config-')),
      `extension not installed: ${fs.readdirSync(extensions).join(', ')}`,
    );
    await server.start();

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      timeout: WORKBENCH_TIMEOUT,
    });
    page = await newPage(browser);
  }

  async function newPage(b: Browser): Promise<Page> {
    const p = await b.newPage({ viewport: { width: 1600, height: 1000 } });
    p.setDefaultTimeout(EXPECT_TIMEOUT);
    p.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text().slice(0, 300));
      if (consoleErrors.length > 30) consoleErrors.shift();
    });
    p.on('pageerror', (e) => consoleErrors.push(`pageerror: ${String(e).slice(0, 300)}`));
    return p;
  }

  after(async () => {
    try {
      await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 10_000))]);
    } catch { /* best effort */ }
    await server?.stop();
    if (failed) {
      console.log(`# e2e failed; code-server log and workspaces kept in ${tmp}\n# last code-server output:\n${server?.tail()}`);
      if (consoleErrors.length) console.log(`# last browser console errors:\n${consoleErrors.join('\n')}`);
    } else if (tmp) {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    if (shots.length) console.log(`# screenshots:\n${shots.map((s) => `#   ${s}`).join('\n')}`);
  });

  /** Wraps a step so that a failure keeps the logs and takes a screenshot. */
  const step = (name: string, fn: (page: Page) => Promise<void>) =>
    test(name, { timeout: 90_000 }, async () => {
      assert.ok(page, 'browser not started');
      try {
        await fn(page);
      } catch (e) {
        failed = true;
        const p = page;
        if (p) {
          try {
            shots.push(await screenshot(p, `failure-${name.replace(/\W+/g, '-').slice(0, 40)}.png`));
          } catch { /* best effort */ }
        }
        throw e;
      }
    });

  step('Restricted Mode: the extension activates and the Problems panel lists the swallowed directive', async (page) => {
    const start = Date.now();
    await openWorkbench(page, server!.port, restrictedWs, false);
    const opened = Date.now();
    await openFile(page, SEED, 'Restart=always');
    await showProblems(page, 'Restart=always');
    const row = await waitForProblem(page, '"Restart=always" is not a directive', RULE);
    // Reported, never asserted: the tests do not time things.
    console.log(`# first diagnostic in Problems: ${Date.now() - start} ms after loading the workbench, ${Date.now() - opened} ms after the trust prompt`);
    assert.match(row, /line 19 ends with/);
    shots.push(await screenshot(page, 'restricted-problems.png'));
  });

  step('the language server runs with the node flags and environment of client/server-node-flags.json', async () => {
    const launch = JSON.parse(fs.readFileSync(path.join(ROOT, 'client', 'server-node-flags.json'), 'utf8'));
    const servers: { cmdline: string[]; environ: string[] }[] = [];
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (!cmdline.some((a) => a.includes(path.join(tmp, 'extensions')) && a.endsWith(path.join('dist', 'server.js')))) continue;
        servers.push({ cmdline, environ: fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0') });
      } catch { /* the process ended while it was read */ }
    }
    assert.equal(servers.length, 1, 'one language server process of the installed extension');
    for (const flag of launch.flags) assert.ok(servers[0].cmdline.includes(flag), `${flag} in ${servers[0].cmdline.join(' ')}`);
    for (const [k, v] of Object.entries(launch.env)) assert.ok(servers[0].environ.includes(`${k}=${v}`), `${k}=${v} in the server's environment`);
    // The client adds to the extension host's environment, never replaces it.
    assert.ok(servers[0].environ.some((e) => e.startsWith('PATH=')), 'PATH still in the environment');
  });

  step('hover on kubeReserved shows the Node Allocatable table', async (page) => {
    await openFile(page, DOCS, 'kubeReserved');
    const token = activeEditorLines(page).locator('span', { hasText: /^kubeReserved$/ }).last();
    await token.waitFor({ state: 'visible' });
    const hover = page.locator('.monaco-hover:visible', { hasText: '14.5' });
    await actUntilVisible('the hover with the allocatable table', hover.first(), async () => {
      const box = (await token.boundingBox())!;
      // Move off and back onto the token: each entry (re)starts the hover delay.
      await page.mouse.move(box.x + box.width / 2, box.y - 40);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    });
    const text = await hover.first().innerText();
    assert.match(text, /14\.5/);
    // The threshold as written, in plain text (a code span in parentheses rendered as "( 500Mi )").
    assert.match(text, /500 MiB \(memory\.available<500Mi\)/);
    assert.match(text, /28\.51/);
    assert.match(text, /88/);
    // The table opens the hover, above the documentation; should it not be in view, scroll the (sticky) hover to its 14.5 cell for the screenshot.
    const cell = hover.first().locator('td', { hasText: '14.5' }).first();
    await until('the allocatable table scrolled into the hover', async () => {
      const [h, c] = [await hover.first().boundingBox(), await cell.boundingBox()];
      if (!h || !c) return false;
      if (c.y >= h.y && c.y + c.height <= h.y + h.height) return true;
      await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
      await page.mouse.wheel(0, 120);
      return false;
    });
    shots.push(await screenshot(page, 'hover-and-problems.png'));
    // Leave the hover before the next step.
    await page.keyboard.press('Escape');
  });

  step('quick fix removes the "\\" at the end of line 19', async (page) => {
    const file = path.join(restrictedWs, SEED);
    assert.match(fs.readFileSync(file, 'utf8').split('\n')[18], /\\$/, 'line 19 should end with "\\" before the fix');
    await openFile(page, SEED, 'Restart=always');
    // Cursor into the error's range (it starts after the tab): Quick Open ":20:3" goes to line 20, character 3.
    const action = await actionMenu(page, ':20:3', 'at the end of line 19');
    await chooseAction(page, action);
    await saveUntil(page, 'line 19 without its "\\" and Restart=always on line 20, on disk', file, (text) => {
      const lines = text.split('\n');
      return lines.length > 20 && !/\\\s*$/.test(lines[18]) && /^\s*Restart=always$/.test(lines[19]);
    });
    await showProblems(page, 'Restart=always');
    // Settled: the filtered list is empty (the panel says so), not just between two renders.
    let poll = 0;
    await until(`the ${RULE} problem to go away`, async () => {
      const rows = await problemRows(page, poll++);
      if (rows.some((r) => r.includes(RULE))) return false;
      return (await page.locator('.markers-panel').innerText()).includes('No results found');
    });
    shots.push(await screenshot(page, 'after-quick-fix.png'));
  });

  step('status bar: the seed node\'s allocatable, gone for a file of no node', async (page) => {
    await openFile(page, SEED, 'Restart=always');
    const item = statusItem(page, SEED_STATUS);
    await item.waitFor({ state: 'visible' });
    assert.equal(await item.locator('.codicon-server').count(), 1, 'the $(server) icon');
    await openFile(page, NOTES, 'Not a kubelet file');
    await page.locator('.statusbar-item', { hasText: /CPU · / }).first().waitFor({ state: 'hidden' });
    await openFile(page, SEED, 'Restart=always');
    await item.waitFor({ state: 'visible' });
  });

  step('Restricted Mode: "Kubelet: Show Node Allocatable" draws the seed node, then follows the editor and an edit', async (page) => {
    await openFile(page, SEED, 'Restart=always');
    await runCommand(page, 'Kubelet: Show Node Allocatable');
    const view = await allocatableFrame(page, '95.9 GiB');
    const table = await view.locator('table').innerText();
    for (const figure of ['32 CPU', '24 CPU', '128 GiB', '95.9 GiB', '102974357504 bytes', '500 GiB', '450 GiB', '110']) {
      assert.ok(table.includes(figure), `the table shows ${figure}:\n${table}`);
    }
    assert.match(await view.locator('.meta').first().innerText(), /seed-node\/usr\/lib\/systemd\/system\/kubelet\.service/);
    const bars = view.locator('.bar[role="img"]');
    assert.equal(await bars.count(), 3, 'cpu, memory and ephemeral-storage bars');
    assert.match((await bars.nth(1).getAttribute('aria-label')) ?? '', /^memory: capacity 128 GiB: kube-reserved 8 GiB, system-reserved 24 GiB, hard eviction 100 MiB, allocatable 95\.9 GiB/);
    // The bars are drawn: the memory bar's allocatable segment is most of its width.
    const [bar, seg] = [await bars.nth(1).boundingBox(), await bars.nth(1).locator('.seg.allocatable').boundingBox()];
    assert.ok(bar && seg && seg.width > 0.7 * bar.width && seg.width < bar.width, `allocatable segment ${seg?.width} of ${bar?.width} px`);
    await statusItem(page, SEED_STATUS).waitFor({ state: 'visible' });
    shots.push(await screenshot(page, 'allocatable-view.png'));

    // The view follows the active editor (it opened beside it, without taking the focus).
    await openFile(page, DOCS, 'kubeReserved');
    await allocatableFrame(page, '28.51 GiB');
    await statusItem(page, DOCS_STATUS).waitFor({ state: 'visible' });
    // An unsaved edit: kubeReserved cpu "1" -> "2" (line 9, the 1 at column 9).
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible' });
    await input.fill(':9:9');
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.type('2');
    await activeEditorLines(page).filter({ hasText: 'cpu: "2"' }).waitFor({ state: 'visible' });
    await allocatableFrame(page, '13.5 CPU');
    await statusItem(page, '13.5 CPU · 28.51 GiB').waitFor({ state: 'visible' });
    shots.push(await screenshot(page, 'allocatable-view-edited.png'));
    await page.keyboard.press('Control+Z');
    await statusItem(page, DOCS_STATUS).waitFor({ state: 'visible' });
  });

  step('Restricted Mode: the allocatable view comes back after a window reload, drawn again', async (page) => {
    await reloadWorkbench(page, false);
    // The docs example was the active editor: the restored view shows its node.
    await allocatableFrame(page, '28.51 GiB');
    await statusItem(page, DOCS_STATUS).waitFor({ state: 'visible' });
  });

  step('trusted workspace: the same diagnostic and status bar item show', async () => {
    // A new window: leaving the old one could be held up by a "save changes?" prompt after an earlier failure.
    await page?.close();
    page = await newPage(browser!);
    await openWorkbench(page, server!.port, trustedWs, true);
    await openFile(page, SEED, 'Restart=always');
    await showProblems(page, 'Restart=always');
    await waitForProblem(page, '"Restart=always" is not a directive', RULE);
    await statusItem(page, SEED_STATUS).waitFor({ state: 'visible' });
    shots.push(await screenshot(page, 'trusted-problems.png'));
    // kubeletConfig.trace.server is "messages": the trace channel holds the protocol messages
    // (\s: the editor renders spaces as no-break spaces).
    await runCommand(page, 'Output: Show Output Channels...', 'Kubelet Configuration Trace');
    await page.locator('.monaco-editor .view-lines', { hasText: /\[Trace\s-\s[^\]]+\]\s(Sending|Received)\s(request|notification|response)\s/ }).first().waitFor({ state: 'visible' });
    // Focus in the Output panel (an editor of another scheme) keeps the node's item.
    await statusItem(page, SEED_STATUS).waitFor({ state: 'visible' });
    shots.push(await screenshot(page, 'trace-output.png'));
  });
  step('messages: each Problems row leads with its point; a key a flag silently drops is a warning', async () => {
    await page?.close();
    page = await newPage(browser!);
    await openWorkbench(page, server!.port, issuesWs, true);
    await openFile(page, ISSUES_CONFIG, 'DevicePlugins');
    await showProblems(page, 'Feature gate');
    const gate = await waitForProblem(page, 'Feature gate DevicePlugins was removed by Kubernetes 1.28: a 1.37 kubelet refuses to start.', 'feature-gate-removed');
    assert.ok(!gate.includes('(approximately)'), gate);
    await showProblems(page, 'silently dropped');
    await waitForProblem(page, 'systemReserved memory=1Gi is silently dropped by --system-reserved.', 'flag-overrides-config');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'silently dropped' }).first();
    // Waited for, not counted once: the row can be drawn anew between finding it and looking into it.
    await row.locator('.codicon-warning').waitFor({ state: 'visible' });
    assert.equal(await row.locator('.codicon-error').count(), 0, 'shown as a warning, not an error');
    await showProblems(page, '');
    shots.push(await screenshot(page, 'messages-problems.png'));
  });

  step('quick fixes: delete a removed feature gate, or disable the rule for the line or the file', async (page) => {
    const file = path.join(issuesWs, ISSUES_CONFIG);
    await openFile(page, ISSUES_CONFIG, 'DevicePlugins');
    const remove = await actionMenu(page, ':4:3', 'Delete the DevicePlugins entry');
    for (const t of ['Disable feature-gate-removed for this line', 'Disable feature-gate-removed for this file']) {
      await page.locator('.action-widget .monaco-list-row', { hasText: t }).first().waitFor({ state: 'visible' });
    }
    shots.push(await screenshot(page, 'quick-fixes.png'));
    await chooseAction(page, remove);
    const fixed = await saveUntil(page, 'the DevicePlugins entry deleted on disk', file, (text) => /featureGates:\n {2}NodeSwap: true\nsystemReserved:/.test(text));
    assert.ok(!fixed.includes('DevicePlugins'), fixed);
  });

  step('eviction-defaults-dropped: the fix keeps the default thresholds with mergeDefaultEvictionSettings: true', async (page) => {
    const file = path.join(issuesWs, ISSUES_CONFIG);
    await openFile(page, ISSUES_CONFIG, 'evictionHard');
    // evictionHard is on line 7 now that the DevicePlugins line is gone.
    const keep = await actionMenu(page, ':7:1', 'Keep the default thresholds: set mergeDefaultEvictionSettings: true');
    await chooseAction(page, keep);
    await saveUntil(page, 'mergeDefaultEvictionSettings on disk', file, (text) => text.includes('mergeDefaultEvictionSettings: true\nevictionHard:'));
  });

  step('no capacity: said once (status bar), the "allocatable" lens opens the view; an invalid nodeCapacity says "invalid setting"', async (page) => {
    await openFile(page, ISSUES_CONFIG, 'kind');
    await statusItem(page, 'no capacity').waitFor({ state: 'visible' });
    const lens = page.locator('.editor-group-container.active .codelens-decoration a:visible', { hasText: /^allocatable$/ }).first();
    await lens.waitFor({ state: 'visible' });
    await page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'effective configuration' }).first().waitFor({ state: 'visible' });
    const text = await activeEditorLines(page).innerText();
    assert.ok(!text.includes('no capacity') && !text.includes('allocatable:'), `no inlay hint repeats it:\n${text}`);
    await clickCenter(page, lens);
    await allocatableFrame(page, 'No capacity is known');
    shots.push(await screenshot(page, 'no-capacity.png'));

    // A workspace setting (the folder's own .vscode/settings.json, which the editor watches).
    const wsSettings = path.join(issuesWs, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(wsSettings), { recursive: true });
    try {
      fs.writeFileSync(wsSettings, JSON.stringify({ 'kubeletConfig.nodeCapacity': 'cpu=lots' }, null, 2));
      await page.locator('.notification-toast', { hasText: 'kubeletConfig.nodeCapacity' }).first().waitFor({ state: 'visible' });
      await statusItem(page, 'invalid setting').waitFor({ state: 'visible' });
      await allocatableFrame(page, 'Invalid setting');
      shots.push(await screenshot(page, 'invalid-capacity.png'));
    } finally {
      fs.rmSync(path.dirname(wsSettings), { recursive: true, force: true });
    }
    await statusItem(page, 'no capacity').waitFor({ state: 'visible' });
  });

  step('a rule link in the Problems panel opens the rendered rule page, not the .md file', async (page) => {
    await openFile(page, ISSUES_UNIT, 'ExecStart');
    await showProblems(page, 'silently dropped');
    await waitForProblem(page, 'silently dropped');
    const link = page.locator('.markers-panel .monaco-list-row', { hasText: 'silently dropped' }).locator('a', { hasText: 'flag-overrides-config' }).first();
    // The Problems rows are drawn anew each time this file's diagnostics arrive (opening it pulls them again, and the
    // previous step's settings change re-pulls every file): a click that lands while its row is replaced opens
    // nothing (failure-a-rule-link-... screenshots: the row drawn, no page). Click until the page opens.
    const texts = ['flag-overrides-config', 'What it catches'];
    let clicks = 0;
    await until('the rendered flag-overrides-config page after a click on the rule link', async () => {
      clicks++;
      await clickCenter(page, link);
      return until('the rule page', () => frameNow(page, texts), 5_000).catch(() => undefined);
    }, EXPECT_TIMEOUT, 0);
    if (clicks > 1) console.log(`# the rule link opened its page at click ${clicks}`);
    await page.locator('.tabs-container .tab.active', { hasText: /Preview/ }).waitFor({ state: 'visible' });
    shots.push(await screenshot(page, 'rule-page.png'));
  });

  step('a node without --config: the refactor creates var/lib/kubelet/config.yaml and points the kubelet at it', async (page) => {
    const unit = path.join(issuesWs, FLAGS_UNIT);
    const created = path.join(issuesWs, 'flags-node/var/lib/kubelet/config.yaml');
    await openFile(page, FLAGS_UNIT, 'ExecStart');
    const refactor = await actionMenu(page, ':2:1', 'Create var/lib/kubelet/config.yaml and move kubelet flags into it', 'Control+Shift+R');
    shots.push(await screenshot(page, 'create-config-refactor.png'));
    await chooseAction(page, refactor);
    await runCommand(page, 'File: Save All');
    // Read once per poll and asserted on that read: a file being written can be read empty.
    const unitText = await until('the new config file and the --config flag on disk', async () => {
      const text = fs.readFileSync(unit, 'utf8');
      return fs.existsSync(created) && /maxPods: 50/.test(fs.readFileSync(created, 'utf8')) && text.includes('--config=/var/lib/kubelet/config.yaml') && text;
    });
    assert.ok(!unitText.includes('--max-pods'), 'the flag moved');
  });
  step('walkthrough: with a folder open the first step offers a file, not "Open Folder", and is complete once a kubelet file is open', async (page) => {
    await openFile(page, ISSUES_CONFIG, 'kind');
    await runCommand(page, 'Welcome: Open Walkthrough...', 'Get started with kubelet node configuration');
    const first = page.locator('.getting-started-step', { hasText: 'Open a kubelet file' }).first();
    await first.waitFor({ state: 'visible' });
    assert.equal(await page.locator('.getting-started-step', { hasText: 'Open the folder of a node' }).count(), 0, 'the Open Folder step is for an empty window');
    const text = await page.locator('.gettingStartedContainer').first().innerText();
    assert.ok(!text.includes('`'), 'no raw backticks in the steps');
    // Its button (Quick Open) completes it; so does a kubelet file becoming active (onContext).
    const input = page.locator('.quick-input-widget input.input');
    // Clicked again until Quick Open shows: the step can still be moving (it completes, and the page lays out anew, as it opens).
    await actUntilVisible('Quick Open from the step\'s button', input, () => clickCenter(page, first.locator('.monaco-button', { hasText: 'Open a File' }).first()));
    await page.keyboard.press('Escape');
    await until('the first step marked complete', async () => (await first.locator('.codicon-pass-filled, .codicon-getting-started-step-checked').count()) > 0 || /\bcomplete\b/.test((await first.getAttribute('class')) ?? ''));
    shots.push(await screenshot(page, 'walkthrough.png'));
  });

  step('kubeadm node: version 1.30 and its source in the status bar and the view; an unused KUBELET_AUTHZ_ARGS is greyed out and reported', async () => {
    await page?.close();
    page = await newPage(browser!);
    await openWorkbench(page, server!.port, kubeadmWs, true);
    await openFile(page, KUBEADM_DROPIN, 'KUBELET_AUTHZ_ARGS');
    // The version in use, read from the node's kubeadm ClusterConfiguration, with where it came from in the tooltip.
    const item = statusItem(page, KUBEADM_STATUS);
    await item.waitFor({ state: 'visible' });
    const source = /Kubernetes 1\.30, from kubernetesVersion v1\.30\.2 in \S*kubeadm-config\.yaml line 3/;
    await actUntilVisible('the status bar tooltip with the version source', page.locator('.monaco-hover:visible, .workbench-hover:visible', { hasText: source }).first(), async () => {
      const box = (await item.boundingBox())!;
      await page!.mouse.move(box.x + box.width / 2, box.y - 60);
      await page!.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    });
    shots.push(await screenshot(page, 'version-status.png'));
    await page.keyboard.press('Escape');

    // unit-variable-unused: a warning on the assignment, its text greyed out (Unnecessary tag).
    await showProblems(page, 'KUBELET_AUTHZ_ARGS');
    const row = await waitForProblem(page, 'KUBELET_AUTHZ_ARGS is not in ExecStart=: --authorization-mode, --client-ca-file never reach the kubelet.', 'unit-variable-unused');
    assert.ok(row.split('never reach the kubelet.')[0].length <= 120, row);
    assert.equal(await page.locator('.markers-panel .monaco-list-row', { hasText: 'unit-variable-unused' }).first().locator('.codicon-warning').count(), 1, 'shown as a warning');
    const greyed = activeEditorLines(page).locator('span.squiggly-inline-unnecessary', { hasText: 'authorization-mode' });
    await greyed.first().waitFor({ state: 'visible' });
    assert.equal(await activeEditorLines(page).locator('span.squiggly-inline-unnecessary', { hasText: 'KUBELET_CONFIG_ARGS' }).count(), 0, 'a referenced variable is not greyed out');
    const hover = await hoverOn(page, 'authorization-mode', 'Not in effect');
    assert.match(await hover.innerText(), /no ExecStart= references \$KUBELET_AUTHZ_ARGS, so this flag never reaches the kubelet/);
    shots.push(await screenshot(page, 'unused-variable.png'));
    await page.keyboard.press('Escape');

    // The allocatable view names the version and its source too.
    await runCommand(page, 'Kubelet: Show Node Allocatable');
    const view = await allocatableFrame(page, '7.5 CPU');
    assert.match(await view.locator('.meta').first().innerText(), /kubelet 1\.30 \(from kubernetesVersion v1\.30\.2 in \S*kubeadm-config\.yaml line 3 \(the kubeadm ClusterConfiguration of this node's root/);
    shots.push(await screenshot(page, 'version-allocatable-view.png'));
    await runCommand(page, 'View: Close All Editor Groups');
  });

  step('hovers: a gate per version, $VAR with its value and origin, the allocatable table on kubeReserved only; Go to Definition opens EnvironmentFile= and --config= targets', async (page) => {
    await openFile(page, KUBEADM_DROPIN, 'KUBELET_AUTHZ_ARGS');
    const variable = await hoverOn(page, '$KUBELET_EXTRA_ARGS', 'Set by EnvironmentFile=');
    const varText = await variable.innerText();
    assert.match(varText, /\$KUBELET_EXTRA_ARGS = --feature-gates=NodeSwap=true --eviction-hard=memory\.available<100Mi/);
    assert.match(varText, /Set by EnvironmentFile= in \S*etc\/default\/kubelet line 1/);
    assert.match(varText, /systemd makes 2 arguments of it|--eviction-hard=memory\.available<100Mi/);
    shots.push(await screenshot(page, 'variable-hover.png'));

    // Go to Definition (F12) on the EnvironmentFile= path opens the env file.
    await page.keyboard.press('Escape');
    await goToDefinition(page, 5, 'EnvironmentFile=-/etc/default/kubelet', /^kubelet/, 'KUBELET_EXTRA_ARGS=');
    // A gate's stage, default and lock for the node's version (1.30) and later.
    const gate = await hoverOn(page, 'NodeSwap', 'feature gate');
    const gateText = await gate.innerText();
    assert.match(gateText, /NodeSwap feature gate · kubelet 1\.30: beta, default true/);
    assert.match(gateText, /Later: 1\.34: GA, default true, locked/);
    shots.push(await screenshot(page, 'gate-hover.png'));
    await page.keyboard.press('Escape');

    // ... and on --config= the KubeletConfiguration.
    await openFile(page, KUBEADM_DROPIN, 'KUBELET_AUTHZ_ARGS');
    await goToDefinition(page, 3, 'Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml', 'config.yaml', 'kubeReserved');
    // The allocatable table shows on the reservation field, not on every line.
    const table = await hoverOn(page, 'kubeReserved', 'Node Allocatable');
    assert.match(await table.innerText(), /7\.5 CPU/);
    const other = await hoverOn(page, 'cgroupDriver', 'How the kubelet manages cgroups');
    assert.ok(!(await other.innerText()).includes('Node Allocatable'), 'no allocatable table on cgroupDriver');
    await page.keyboard.press('Escape');
  });

  step('completion: values after = (signals not already set, gates of 1.30), the first featureGates entry, no mergeDefaultEvictionSettings for 1.30', async (page) => {
    await openFile(page, KUBEADM_ENV, 'KUBELET_EXTRA_ARGS');
    // --eviction-hard=memory.available<100Mi, : the other signals, not memory.available again.
    await goTo(page, `:1:${KUBEADM_ENV_TEXT.trimEnd().length + 1}`);
    await page.keyboard.type(',');
    let rows = await suggestions(page, 'nodefs.available');
    assert.ok(!rows.some((r) => r.startsWith('memory.available')), `memory.available offered again: ${rows.join(', ')}`);
    shots.push(await screenshot(page, 'completion-eviction.png'));
    await page.keyboard.press('Escape');
    // --feature-gates=NodeSwap=true, : the gates of the node's version, NodeSwap not again.
    await goTo(page, `:1:${'KUBELET_EXTRA_ARGS=--feature-gates=NodeSwap=true'.length + 1}`);
    await page.keyboard.type(',');
    rows = await suggestions(page, 'AllAlpha');
    assert.ok(rows.length > 5, rows.join(', '));
    shots.push(await screenshot(page, 'completion-gates.png'));
    await page.keyboard.type('NodeS');
    rows = await suggestions(page, 'Node');
    assert.ok(!rows.some((r) => r.startsWith('NodeSwap')), `NodeSwap offered again: ${rows.join(', ')}`);
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Revert File');
    await activeEditorLines(page).filter({ hasText: 'memory.available<100Mi' }).waitFor({ state: 'visible' });

    await openFile(page, KUBEADM_CONFIG, 'kubeReserved');
    // The first entry under featureGates: (the last line, empty).
    await goTo(page, `:${KUBEADM_CONFIG_TEXT.split('\n').length}:1`);
    await page.keyboard.type('  NodeS');
    rows = await suggestions(page, 'NodeSwap');
    shots.push(await screenshot(page, 'completion-first-gate.png'));
    await page.keyboard.press('Escape');
    // A top-level key for a 1.30 node: mergeDefaultEvictionSettings (1.33+) is not offered.
    await goTo(page, `:4:${'cgroupDriver: systemd'.length + 1}`);
    await page.keyboard.press('Enter');
    await page.keyboard.type('me');
    rows = await suggestions(page, 'memorySwap');
    assert.ok(!rows.some((r) => r.startsWith('mergeDefaultEvictionSettings')), `offered to a 1.30 node: ${rows.join(', ')}`);
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Revert File');
    await until('the config as on disk', async () => !/^me$/m.test(await activeEditorLines(page).innerText()));
  });

  step('reserved-resource-unknown: "Remove" drops gpu next to cpu: 500m; the CPU reservation stays 500m, no duplicate key', async (page) => {
    const file = path.join(kubeadmWs, KUBEADM_CONFIG);
    await openFile(page, KUBEADM_CONFIG, 'kubeReserved');
    const remove = await actionMenu(page, ':7:3', 'Remove "gpu"');
    assert.equal(await page.locator('.action-widget .monaco-list-row', { hasText: 'Change to' }).count(), 0, 'no rename onto a key already there');
    shots.push(await screenshot(page, 'remove-unknown-resource.png'));
    await chooseAction(page, remove);
    const fixed = await saveUntil(page, 'the gpu entry removed on disk', file, (text) => /\nkubeReserved:\n {2}cpu: 500m\nfeatureGates:\n/.test(text));
    assert.ok(!fixed.includes('gpu'), fixed);
    assert.equal(fixed.match(/cpu:/g)?.length, 1, 'one cpu key');
    await statusItem(page, KUBEADM_STATUS).waitFor({ state: 'visible' });
  });
});
