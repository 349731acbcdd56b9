/**
 * Neovim's built-in LSP client (Debian's 0.7.2: push diagnostics, no pull)
 * against the built server, headless: the seed node's unit gets the same
 * diagnostics, hover and completion as VS Code. Needs `nvim` (installed by
 * scripts/e2e-setup.sh); skipped without it unless KUBELET_E2E=required.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HANG_MS } from '../helpers/hang.ts';

const ROOT = resolve(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const UNIT = 'seed-node/usr/lib/systemd/system/kubelet.service';
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const missing = process.env.KUBELET_E2E === 'skip' ? 'KUBELET_E2E=skip' : nvim.status === 0 ? undefined : 'nvim is not installed (scripts/e2e-setup.sh installs it)';

interface NvimResult {
  attached: boolean;
  gotDiagnostics: boolean;
  diagnostics: { lnum: number; col: number; severity: number; message: string; code: string | null }[];
  hover?: string;
  completion: string[];
  errors: string[];
}

function runNeovim(ws: string, hoverLine: number, hoverCol: number): Promise<NvimResult> {
  const out = join(ws, 'nvim-result.json');
  const env = {
    ...process.env, KUBELET_SERVER: SERVER, KUBELET_ROOT: ws, KUBELET_FILE: join(ws, UNIT), KUBELET_NVIM_OUT: out,
    KUBELET_HOVER_LINE: String(hoverLine), KUBELET_HOVER_COL: String(hoverCol),
  };
  return new Promise((resolvePromise, reject) => {
    const p = spawn('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${join(__dirname, 'neovim.lua')}`], { env, stdio: 'ignore' });
    const timer = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`nvim did not finish within ${HANG_MS} ms`)); }, HANG_MS * 6);
    p.on('exit', () => {
      clearTimeout(timer);
      try { resolvePromise(JSON.parse(readFileSync(out, 'utf8')) as NvimResult); } catch (e) { reject(e); }
    });
  });
}

test("Neovim 0.7's built-in client gets the seed node's diagnostics, the allocatable hover and flag completion", {
  skip: process.env.KUBELET_E2E === 'required' ? false : missing,
}, async () => {
  assert.ok(!missing, `KUBELET_E2E=required but ${missing}`);
  const ws = mkdtempSync(join(tmpdir(), 'kubelet-nvim-'));
  try {
    cpSync(join(ROOT, 'examples', 'seed-node'), join(ws, 'seed-node'), { recursive: true });
    const lines = readFileSync(join(ws, UNIT), 'utf8').split('\n');
    const execLine = lines.findIndex((l) => l.startsWith('ExecStart='));
    const r = await runNeovim(ws, execLine, 2);
    assert.deepEqual(r.errors, []);
    assert.equal(r.attached, true, 'the client initialised');
    assert.equal(r.gotDiagnostics, true, 'diagnostics were pushed');
    const restart = lines.findIndex((l) => l.trim() === 'Restart=always');
    const swallowed = r.diagnostics.find((d) => d.code === 'unit-continuation-swallows-directive');
    assert.ok(swallowed, `the swallowed directive among ${r.diagnostics.map((d) => d.code).join(', ')}`);
    assert.equal(swallowed.lnum, restart);
    assert.equal(swallowed.severity, 1, 'an error');
    assert.match(r.hover ?? '', /Node Allocatable/);
    assert.ok(r.completion.includes('--kube-reserved'), `--kube-reserved among ${r.completion.slice(0, 20).join(', ')}`);
    assert.ok(r.completion.includes('--kube-reserved-cgroup'));
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
