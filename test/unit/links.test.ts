/** Document links and Go to Definition between a node's files (features/links.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { definition, documentLinks } from '../../server/src/features/links.ts';

const DROPIN = 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
const ENV = 'n/etc/default/kubelet';
const CONFIG = 'n/var/lib/kubelet/config.yaml';
const CONTAINERD = 'n/etc/containerd/config.toml';
const files = [
  { path: DROPIN, text: '[Service]\nEnvironment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"\nEnvironmentFile=-/etc/default/kubelet\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS $KUBELET_EXTRA_ARGS\n' },
  { path: ENV, text: 'KUBELET_EXTRA_ARGS=--v=2\n' },
  { path: CONFIG, text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n' },
  { path: CONTAINERD, text: 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = true\n' },
];
const id = (p: string) => `file:///${p}`;
const lineOf = (path: string, needle: string) => {
  const text = files.find((f) => f.path === path)!.text;
  const i = text.indexOf(needle);
  const before = text.slice(0, i).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length };
};

test('document links: EnvironmentFile= (without its "-") and --config= lead to the files they name', () => {
  const links = documentLinks(analyze(files), DROPIN, id);
  const env = lineOf(DROPIN, '/etc/default/kubelet');
  const cfg = lineOf(DROPIN, '/var/lib/kubelet/config.yaml');
  const got = links.map((l) => ({ at: l.range.start, target: l.target })).sort((a, b) => a.at.line - b.at.line);
  assert.deepEqual(got.map((l) => [l.at, l.target]), [
    [cfg, id(CONFIG)],
    [env, id(ENV)],
  ]);
});

test('Go to Definition: a path to its file, $VAR to its assignment, cgroupDriver to the runtime setting', () => {
  const a = analyze(files);
  const at = (needle: string, path = DROPIN) => {
    const p = lineOf(path, needle);
    return definition(a, path, { line: p.line, character: p.character + 2 }, id);
  };
  assert.deepEqual(at('/etc/default/kubelet').map((l) => l.uri), [id(ENV)]);
  assert.deepEqual(at('$KUBELET_EXTRA_ARGS').map((l) => [l.uri, l.range.start]), [[id(ENV), { line: 0, character: 0 }]]);
  assert.deepEqual(at('$KUBELET_CONFIG_ARGS').map((l) => [l.uri, l.range.start.line]), [[id(DROPIN), 1]]);
  assert.deepEqual(at('cgroupDriver', CONFIG).map((l) => [l.uri, l.range.start.line]), [[id(CONTAINERD), 2]]);
  assert.deepEqual(at('ExecStart='), []);
});
