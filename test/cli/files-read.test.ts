/**
 * Issue #23 "say what was read": the CLI lists every file with the format it was read as, or why it was not; the
 * effective-configuration view lists the files of its node.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { effectiveConfiguration } from '../../server/src/features/effective-config.ts';
import { filesRead, filesReadText } from '../../server/src/features/files-read.ts';

const cli = join(__dirname, '../../dist/cli.js');

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kl-files-'));
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  return dir;
}

const FILES = {
  'talos/worker.yaml': 'version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n      maxPods: 50\n',
  'notes/README.md': '# notes\n',
  'cloud/user-data': '#cloud-config\nwrite_files:\n  - path: /etc/kubernetes/kubelet/config.json\n    content: |\n      {"kind": "KubeletConfiguration", "apiVersion": "kubelet.config.k8s.io/v1beta1", "maxPods": 20}\n',
};

test('--format json lists every file: its format, the carrier of a payload, and why a file was not read', () => {
  const dir = tree(FILES);
  try {
    const r = spawnSync(process.execPath, [cli, '--format', 'json', '.'], { cwd: dir, encoding: 'utf8' });
    const files = JSON.parse(r.stdout).files as { path: string; format?: string; carrier?: string; skipped?: string }[];
    const at = (p: string) => files.find((f) => f.path === p);
    assert.equal(at('talos/worker.yaml')?.format, 'talos');
    assert.equal(at('cloud/user-data')?.format, 'cloud-init');
    assert.equal(at('cloud/user-data//etc/kubernetes/kubelet/config.json')?.carrier, 'cloud/user-data');
    assert.match(at('notes/README.md')?.skipped ?? '', /no format/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--list-files starts the text output with the same list', () => {
  const dir = tree(FILES);
  try {
    const r = spawnSync(process.execPath, [cli, '--list-files', '.'], { cwd: dir, encoding: 'utf8' });
    assert.match(r.stdout, /^Files\n/);
    assert.match(r.stdout, /talos\/worker\.yaml {2}read as Talos machine configuration/);
    assert.match(r.stdout, /notes\/README\.md {2}not read: no format this tool reads recognises it/);
    const plain = spawnSync(process.execPath, [cli, '.'], { cwd: dir, encoding: 'utf8' });
    assert.doesNotMatch(plain.stdout, /^Files\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the effective-configuration view ends with the files its node read', () => {
  const files = Object.entries(FILES).map(([path, text]) => ({ path, text }));
  const a = analyze(files);
  const text = effectiveConfiguration(a, 'talos/worker.yaml')!;
  assert.match(text, /# Files this node read, and as what:\n# {3}talos\/worker\.yaml {2}read as Talos machine configuration/);
  assert.equal(filesRead(a, files.map((f) => f.path)).filter((f) => f.skipped).length, 1);
});

// Talos files with no kubelet setting (siderolabs/talos hack/test/patches/longhorn.yaml, hef/house-cluster
// patches/sysctls.yaml, a cluster-only patch): read as Talos, on no node, never "not read".
test('Talos files without kubelet settings are listed as read as Talos, with no node', () => {
  const files = [
    { path: 'talos/patches/longhorn.yaml', text: 'apiVersion: v1alpha1\nkind: KernelModuleConfig\nname: nvme_tcp\n---\napiVersion: v1alpha1\nkind: KernelModuleConfig\nname: vfio_pci\n' },
    { path: 'talos/patches/sysctls.yaml', text: 'machine:\n  sysctls:\n    fs.inotify.max_user_watches: "1048576"\n' },
    { path: 'talos/patches/cluster.yaml', text: 'cluster:\n  allowSchedulingOnControlPlanes: true\n  apiServer:\n    extraArgs:\n      enable-aggregator-routing: "true"\n' },
    { path: 'ansible/vars.yaml', text: 'cluster:\n  name: demo\nmachine:\n  size: large\n' },
    { path: 'chart/values.yaml', text: 'cluster:\n  apiServer:\n    port: 6443\nimage:\n  tag: v1\n' },
  ];
  const a = analyze(files);
  assert.deepEqual(a.nodes, []);
  const text = filesReadText(filesRead(a, files.map((f) => f.path)));
  assert.deepEqual(text, [
    'ansible/vars.yaml  not read: no format this tool reads recognises it',
    'chart/values.yaml  not read: no format this tool reads recognises it',
    'talos/patches/cluster.yaml  read as Talos machine configuration',
    'talos/patches/longhorn.yaml  read as Talos machine configuration',
    'talos/patches/sysctls.yaml  read as Talos machine configuration',
  ]);
});
