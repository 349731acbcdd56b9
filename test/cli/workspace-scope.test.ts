// --workspace DIR [PATH...]: the workspace is DIR, read whole (nodes keep all their files), and only what concerns
// the PATHs is reported (cli/scope.ts). The pre-commit hook runs it this way (test/integrations/pre-commit.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const cli = join(resolve(__dirname, '..', '..'), 'dist', 'cli.js');

interface Report {
  diagnostics: { file: string; code: string; severity: string }[];
  nodes: { id: string; files: string[] }[];
}

const FILES: Record<string, string> = {
  // Kubelet says cgroupfs, containerd says systemd: reported at both, each with the other as its related place.
  'a/etc/systemd/system/kubelet.service':
    '[Service]\nExecStart=/usr/bin/kubelet --cgroup-driver=cgroupfs --container-runtime-endpoint=unix:///run/containerd/containerd.sock\n',
  'a/etc/containerd/config.toml': 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = true\n',
  // Its ExecStart takes the flags from the drop-in: alone, the drop-in runs no kubelet.
  'b/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet $EXTRA\n',
  'b/etc/systemd/system/kubelet.service.d/10-extra.conf': '[Service]\nEnvironment="EXTRA=--allow-privileged=true"\n# kubelet-lint: kubernetes-version 1.37\n',
};

function lint(args: string[], cwd: string): { status: number | null; report: Report } {
  const r = spawnSync(process.execPath, [cli, '--format', 'json', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.error, undefined);
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

function withWorkspace(fn: (dir: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-lint-scope-'));
  try {
    for (const [p, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), text);
    }
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const DROPIN = 'b/etc/systemd/system/kubelet.service.d/10-extra.conf';

test('--workspace: a drop-in is read with its unit (the finding alone is not there) and only its findings are reported', () => {
  withWorkspace((dir) => {
    const alone = lint([DROPIN], dir);
    assert.ok(!alone.report.diagnostics.some((d) => d.code === 'flag-removed'), 'alone, the drop-in starts no kubelet');
    const scoped = lint(['--workspace', '.', DROPIN], dir);
    assert.equal(scoped.status, 1, 'an error in scope: exit status 1');
    assert.deepEqual([...new Set(scoped.report.diagnostics.map((d) => d.file))], [DROPIN]);
    assert.ok(scoped.report.diagnostics.some((d) => d.code === 'flag-removed' && d.severity === 'error'));
    assert.deepEqual(scoped.report.nodes.map((n) => n.id), ['b/etc/systemd/system/kubelet.service'], 'the node of the drop-in');
  });
});

test('--workspace: a finding elsewhere whose related place is in scope is reported; errors out of scope do not fail', () => {
  withWorkspace((dir) => {
    const toml = 'a/etc/containerd/config.toml';
    const scoped = lint(['--workspace', '.', toml], dir);
    const mismatch = scoped.report.diagnostics.filter((d) => d.code === 'cgroup-driver-mismatch').map((d) => d.file).sort();
    assert.deepEqual(mismatch, [toml, 'a/etc/systemd/system/kubelet.service']);
    assert.ok(!scoped.report.diagnostics.some((d) => d.file.startsWith('b/')));

    // A file of no node: nothing to report, exit status 0 although b/ has an error.
    writeFileSync(join(dir, 'README.md'), '# nodes\n');
    const readme = lint(['--workspace', '.', 'README.md'], dir);
    assert.equal(readme.status, 0);
    assert.deepEqual({ ...readme.report, files: undefined }, { diagnostics: [], nodes: [], files: undefined });
  });
});

test('--workspace: a folder in scope, several PATHs, absolute paths, and no PATH (all of the workspace)', () => {
  withWorkspace((dir) => {
    const all = lint(['.'], dir).report;
    assert.deepEqual(lint(['--workspace', '.'], dir).report, all);
    assert.deepEqual(lint(['--workspace', dir], dir).report.diagnostics.length, all.diagnostics.length);
    const b = lint(['--workspace', '.', 'b'], dir).report;
    assert.deepEqual({ ...b, files: undefined }, { diagnostics: all.diagnostics.filter((d) => d.file.startsWith('b/')), nodes: all.nodes.filter((n) => n.id.startsWith('b/')), files: undefined });
    const both = lint(['--workspace', '.', join(dir, DROPIN), 'a/etc/containerd/config.toml'], dir).report;
    assert.ok(both.diagnostics.some((d) => d.file === DROPIN) && both.diagnostics.some((d) => d.file === 'a/etc/containerd/config.toml'));
  });
});
