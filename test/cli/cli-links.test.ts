/**
 * Issue #18: the CLI reads a tree the way the language server reads a workspace. Symbolic links found inside are not
 * followed (a self-link gave 41 copies of the node, two hung; a link in a pull request made a CI run read and quote
 * a file outside the repository); FIFOs are not opened; unreadable folders are reported like unreadable files; a
 * file name with a newline cannot forge report lines. Runs dist/cli.js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const cli = join(resolve(__dirname, '..', '..'), 'dist', 'cli.js');
const UNIT = '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n';

function tree(files: Record<string, string>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-lint-links-'));
  chmodSync(dir, 0o755);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function lint(args: string[], opts: { cwd?: string; uid?: number } = {}) {
  assert.ok(existsSync(cli), 'run "npm run build" first');
  const r = spawnSync(process.execPath, [cli, '--format', 'json', ...args], {
    cwd: opts.cwd,
    encoding: 'utf8',
    timeout: 30_000,
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
  });
  assert.equal(r.error, undefined, `timed out or failed: ${r.error?.message}`);
  return { status: r.status, stderr: r.stderr, out: r.stdout ? JSON.parse(r.stdout) : undefined };
}

test('a folder linking to itself (twice) is read once, and the links are named as skipped', () => {
  const t = tree({ 'n/etc/systemd/system/kubelet.service': UNIT, 'n/etc/default/kubelet': 'KUBELET_EXTRA_ARGS=--v=2\n' });
  try {
    symlinkSync('..', join(t.dir, 'n/etc/loop'));
    symlinkSync('.', join(t.dir, 'n/etc/default/self'));
    const r = lint(['n'], { cwd: t.dir });
    assert.equal(r.out.nodes.length, 1);
    assert.match(r.stderr, /skipped n\/etc\/loop: a symbolic link \(not followed\)/);
    assert.match(r.stderr, /skipped n\/etc\/default\/self: a symbolic link/);
  } finally {
    t.cleanup();
  }
});

test('a link leaving the given root is not read: nothing of its target appears in the findings', () => {
  const outside = tree({ 'secret.env': 'KUBELET_EXTRA_ARGS=--top-secret-value=hunter2\n' });
  const t = tree({ 'repo/etc/systemd/system/kubelet.service': UNIT });
  try {
    symlinkSync(join(outside.dir, 'secret.env'), join(t.dir, 'repo/etc/default-kubelet'));
    mkdirSync(join(t.dir, 'repo/etc/default'));
    symlinkSync(join(outside.dir, 'secret.env'), join(t.dir, 'repo/etc/default/kubelet'));
    const r = lint(['repo'], { cwd: t.dir });
    assert.ok(!JSON.stringify(r.out).includes('hunter2'), 'the linked file was read');
    assert.match(r.stderr, /skipped repo\/etc\/default\/kubelet: a symbolic link \(not followed\)/);
  } finally {
    t.cleanup();
    outside.cleanup();
  }
});

test('a FIFO in the tree is skipped and said, not opened (the run does not wait for a writer)', () => {
  const t = tree({ 'n/etc/systemd/system/kubelet.service': UNIT });
  try {
    execFileSync('mkfifo', [join(t.dir, 'n/kubelet.env')]);
    const r = lint(['n'], { cwd: t.dir });
    assert.match(r.stderr, /skipped n\/kubelet\.env: not a regular file/);
  } finally {
    t.cleanup();
  }
});

test('an unreadable folder is reported like an unreadable file', { skip: process.getuid?.() === 0 ? false : 'needs root to run the CLI as nobody' }, () => {
  const t = tree({ 'n/etc/systemd/system/kubelet.service': UNIT, 'n/secret/kubelet.env': 'A=1\n', 'n/closed.env': 'A=1\n' });
  try {
    chmodSync(join(t.dir, 'n/secret'), 0o700);
    chmodSync(join(t.dir, 'n/closed.env'), 0o600);
    const r = lint(['n'], { cwd: t.dir, uid: 65534 });
    assert.match(r.stderr, /skipped n\/secret: unreadable folder \(EACCES\)/);
    assert.match(r.stderr, /skipped n\/closed\.env: unreadable \(permission denied\)/);
  } finally {
    t.cleanup();
  }
});

test('a file name with a newline is escaped in the text output and on stderr', () => {
  const forged = 'a\n  1:1     error       forged [flag-unknown]\nkubelet.service';
  const t = tree({ [`n/etc/systemd/system/${forged}`]: '[Service]\nExecStart=/usr/bin/kubelet --allow-privileged=true\n# kubelet-lint: kubernetes-version 1.37\n' });
  try {
    const r = spawnSync(process.execPath, [cli, 'n'], { cwd: t.dir, encoding: 'utf8', timeout: 30_000 });
    assert.ok(!r.stdout.split('\n').some((l) => l.startsWith('  1:1     error       forged')), r.stdout);
    assert.match(r.stdout, /system\/a\\n {2}1:1 +error +forged \[flag-unknown\]\\nkubelet\.service/);
  } finally {
    t.cleanup();
  }
});
