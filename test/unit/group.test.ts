import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { resolveReference, nodeRoot } from '../../server/src/model/paths.ts';
import { CONFIG_HEAD, KUBELET_SERVICE, kubeadmNode, nodeWith, onlyNode, run, scalarOf } from '../helpers/nodes.ts';

/** The effective maxPods as written (a scalar setting). */
function maxPodsOf(node: { settings: ReadonlyMap<string, { kind: string }> }): string | undefined {
  const s = node.settings.get('maxPods') as { kind: string; text?: string } | undefined;
  return s?.kind === 'scalar' ? s.text : undefined;
}


const CONTAINERD_SYSTEMD = `version = 2
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
  SystemdCgroup = true
`;
const CONTAINERD_CGROUPFS = `version = 2
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
  SystemdCgroup = false
`;

test('root-fs layout: --config=/var/lib/kubelet/config.yaml and EnvironmentFile=-/etc/default/kubelet resolve by longest path suffix', () => {
  const a = run(kubeadmNode('node1', { config: 'maxPods: 5\n', defaults: 'KUBELET_EXTRA_ARGS=--v=2\n', kubeadmFlags: 'KUBELET_KUBEADM_ARGS=\n' }));
  const { node } = onlyNode(a);
  assert.deepEqual(node.configRefs.map((r) => r.resolved), [['node1/var/lib/kubelet/config.yaml']]);
  assert.deepEqual(
    node.service!.envFileRefs.map((r) => [r.path, r.optional, r.resolved]),
    [
      ['/var/lib/kubelet/kubeadm-flags.env', true, 'node1/var/lib/kubelet/kubeadm-flags.env'],
      ['/etc/default/kubelet', true, 'node1/etc/default/kubelet'],
    ],
  );
  assert.deepEqual([...node.files].sort(), [
    'node1/etc/default/kubelet',
    'node1/etc/systemd/system/kubelet.service.d/10-kubeadm.conf',
    'node1/usr/lib/systemd/system/kubelet.service',
    'node1/var/lib/kubelet/config.yaml',
    'node1/var/lib/kubelet/kubeadm-flags.env',
  ]);
  assert.equal(a.findings.filter((f) => f.code === 'reference-unresolved').length, 0);
});

test('the longest suffix wins: /var/lib/kubelet/config.yaml prefers var/lib/kubelet/config.yaml over another config.yaml', () => {
  const files = ['n/var/lib/kubelet/config.yaml', 'n/etc/kubernetes/config.yaml'];
  assert.deepEqual(resolveReference('/var/lib/kubelet/config.yaml', files), { path: 'n/var/lib/kubelet/config.yaml', by: 'name' });
  assert.equal(nodeRoot('n/var/lib/kubelet/config.yaml'), 'n');
  assert.equal(nodeRoot('flat/kubelet.service'), 'flat');
});

test('a flat folder resolves references by unique file name', () => {
  const a = run({
    'flat/kubelet.service': '[Service]\nEnvironmentFile=-/etc/default/kubelet\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS\n',
    'flat/config.yaml': CONFIG_HEAD + 'maxPods: 12\n',
    'flat/kubelet': 'KUBELET_EXTRA_ARGS=--v=4\n',
  });
  const { node } = onlyNode(a);
  assert.deepEqual(node.configRefs[0].resolved, ['flat/config.yaml']);
  assert.equal(node.service!.envFileRefs[0].resolved, 'flat/kubelet');
  assert.equal(node.settings.get('maxPods')?.kind === 'scalar' && node.settings.get('maxPods')!.from.how, 'config');
  assert.equal(node.flags.find((f) => f.name === 'v')?.value, '4');
});

test('an ambiguous file name resolves to nothing: information finding reference-unresolved at the --config value', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n';
  const a = run({
    'c/kubelet.service': unit,
    'a/config.yaml': CONFIG_HEAD + 'maxPods: 1\n',
    'b/config.yaml': CONFIG_HEAD + 'maxPods: 2\n',
  });
  const { node } = nodeWith(a, 'c/kubelet.service');
  assert.equal(node.configRefs[0].resolved, undefined);
  const f = a.findings.filter((x) => x.code === 'reference-unresolved');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'information');
  assert.equal(f[0].file, 'c/kubelet.service');
  assert.deepEqual(f[0].range, { start: { line: 1, character: 36 }, end: { line: 1, character: 64 } });
  assert.match(f[0].message, /\/var\/lib\/kubelet\/config\.yaml/);
  // the two configs are nodes of their own
  assert.equal(a.nodes.length, 3);
});

test('a missing EnvironmentFile=- is reported as unresolved information, not an error (systemd: "-" makes a missing file fine)', () => {
  const a = run({ 'n/etc/systemd/system/kubelet.service': '[Service]\nEnvironmentFile=-/etc/sysconfig/kubelet\nExecStart=/usr/bin/kubelet\n' });
  const f = a.findings.filter((x) => x.code === 'reference-unresolved');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'information');
  assert.equal(f[0].range.start.line, 1);
});

test('two nodes in node-a/ and node-b/ stay separate and each gets its own containerd config', () => {
  const a = run({
    ...kubeadmNode('node-a', { config: 'cgroupDriver: systemd\n' }),
    'node-a/etc/containerd/config.toml': CONTAINERD_SYSTEMD,
    ...kubeadmNode('node-b', { config: 'cgroupDriver: systemd\n' }),
    'node-b/etc/containerd/config.toml': CONTAINERD_CGROUPFS,
  });
  assert.equal(a.nodes.length, 2);
  const na = nodeWith(a, 'node-a/usr/lib/systemd/system/kubelet.service').node;
  const nb = nodeWith(a, 'node-b/usr/lib/systemd/system/kubelet.service').node;
  assert.ok(na.files.every((f) => f.startsWith('node-a/')));
  assert.ok(nb.files.every((f) => f.startsWith('node-b/')));
  assert.deepEqual(na.runtimes.map((r) => [r.path, r.driver]), [['node-a/etc/containerd/config.toml', 'systemd']]);
  assert.deepEqual(nb.runtimes.map((r) => [r.path, r.driver]), [['node-b/etc/containerd/config.toml', 'cgroupfs']]);
  const mismatch = a.findings.filter((f) => f.code === 'cgroup-driver-mismatch');
  assert.ok(mismatch.length > 0 && mismatch.every((f) => f.file.startsWith('node-b/')));
});

test('a KubeletConfiguration with no unit is its own node', () => {
  const a = run({ 'configs/worker.yaml': CONFIG_HEAD + 'maxPods: 30\n' });
  const { node } = onlyNode(a);
  assert.equal(node.id, 'configs/worker.yaml');
  assert.deepEqual(node.files, ['configs/worker.yaml']);
  assert.equal(node.service, undefined);
  assert.equal(scalarOf(node.settings.get('maxPods')), 30);
});

test('a runtime config equidistant from two nodes attaches to neither', () => {
  const a = run({
    'x/node-a/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --cgroup-driver=cgroupfs\n',
    'x/node-b/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --cgroup-driver=cgroupfs\n',
    'x/config.toml': CONTAINERD_SYSTEMD,
  });
  assert.equal(a.nodes.length, 2);
  for (const n of a.nodes) {
    assert.deepEqual(n.node.runtimes, []);
    assert.ok(!n.node.files.includes('x/config.toml'));
  }
  assert.equal(a.findings.filter((f) => f.code === 'cgroup-driver-mismatch').length, 0);
});

test('a runtime config in a flat folder beside one unit joins that node', () => {
  const a = run({
    'flat/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --cgroup-driver=systemd\n',
    'flat/config.toml': CONTAINERD_SYSTEMD,
  });
  assert.deepEqual(onlyNode(a).node.runtimes.map((r) => r.path), ['flat/config.toml']);
});

test('k3s.service with --kubelet-arg is a node (k3s server runs a kubelet); rke2-server.service passing it nothing is none', () => {
  const a = run({
    'k3s/etc/systemd/system/k3s.service':
      '[Unit]\nDescription=Lightweight Kubernetes\n[Service]\nType=notify\nEnvironmentFile=-/etc/default/%N\nEnvironmentFile=-/etc/sysconfig/%N\nEnvironmentFile=-/etc/systemd/system/k3s.service.env\nExecStart=/usr/local/bin/k3s server --kubelet-arg=max-pods=200\n',
    'k3s/etc/systemd/system/k3s.service.env': 'K3S_TOKEN=abc123\nK3S_URL=https://10.0.0.1:6443\n',
    'rke2/usr/local/lib/systemd/system/rke2-server.service':
      '[Unit]\nDescription=Rancher Kubernetes Engine v2 (server)\n[Service]\nType=notify\nEnvironmentFile=-/usr/local/lib/systemd/system/rke2-server.env\nExecStart=/usr/local/bin/rke2 server\n',
    'rke2/usr/local/lib/systemd/system/rke2-server.env': 'HOME=/root\n',
  });
  assert.deepEqual(a.nodes.map((n) => [n.node.id, maxPodsOf(n.node)]), [['k3s/etc/systemd/system/k3s.service', '200']]);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error'), []);
});

test('a unit not named kubelet.service still anchors a node when its ExecStart runs a kubelet', () => {
  const a = run({ 'n/etc/systemd/system/my-kubelet.service': '[Service]\nExecStart=/opt/bin/kubelet --max-pods=9\n' });
  assert.equal(onlyNode(a).node.id, 'n/etc/systemd/system/my-kubelet.service');
});

test('a /etc unit masks a same-named /usr/lib unit of the same root (systemd.unit(5) search path)', () => {
  const a = run({
    'n/usr/lib/systemd/system/kubelet.service': KUBELET_SERVICE,
    'n/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --max-pods=3\n',
  });
  const { node } = onlyNode(a);
  assert.equal(node.id, 'n/etc/systemd/system/kubelet.service');
  assert.deepEqual(node.service!.masked, [{ path: 'n/usr/lib/systemd/system/kubelet.service', by: 'n/etc/systemd/system/kubelet.service' }]);
});

// Found by npm run fuzz (seed 20261129): the config sorted before the env file and was also read as a node of
// its own, without the env file's --eviction-soft-grace-period that overrides it, so its fix went to the wrong place.
test('a standalone env file naming --config claims the config: the config is not also a node of its own', () => {
  const a = analyze([
    { path: 'n/var/lib/kubelet/kubeadm-flags.env', text: 'KUBELET_KUBEADM_ARGS=--config=/var/lib/kubelet/config.yaml --eviction-soft-grace-period=\n' },
    { path: 'n/var/lib/kubelet/config.yaml', text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionSoft:\n  memory.available: 1Gi\n' },
  ]);
  assert.deepEqual(a.nodes.map((n) => n.node.files), [['n/var/lib/kubelet/kubeadm-flags.env', 'n/var/lib/kubelet/config.yaml']]);
  const f = a.findings.filter((x) => x.code === 'eviction-soft-without-grace');
  assert.equal(f.length, 1);
  assert.equal(f[0].fixes, undefined, 'the flag replaces the file\'s grace periods: a fix in the file would change nothing');
});

test('nodes and findings come out in code-unit order of their paths ("B-node" before "a-node"), whatever the locale: the order of Array.prototype.sort, not ICU collation', () => {
  const a = run({ ...kubeadmNode('a-node', { config: 'maxPods: -1\n' }), ...kubeadmNode('B-node', { config: 'maxPods: -1\n' }) });
  assert.deepEqual(
    a.nodes.map((n) => n.node.id.split('/')[0]),
    ['B-node', 'a-node'],
  );
  const files = a.findings.map((f) => f.file.split('/')[0]);
  assert.ok(files.includes('a-node') && files.includes('B-node'));
  assert.deepEqual(files, [...files].sort());
});

test('a reference that ties across nodes resolves to the referrer\'s own node, for each referrer in turn; another root\'s file is never this node\'s (issue #37)', () => {
  const files = ['a/var/lib/kubelet/config.yaml', 'b/var/lib/kubelet/config.yaml', 'b/etc/kubernetes/kubelet.conf', 'c/x/config.yaml'];
  const at = (ref: string, near?: string) => resolveReference(ref, files, near);
  assert.deepEqual(at('/var/lib/kubelet/config.yaml', 'a/usr/lib/systemd/system/kubelet.service'), { path: 'a/var/lib/kubelet/config.yaml', by: 'identity' });
  assert.deepEqual(at('/var/lib/kubelet/config.yaml', 'b/etc/systemd/system/kubelet.service.d/10-kubeadm.conf'), { path: 'b/var/lib/kubelet/config.yaml', by: 'identity' });
  assert.equal(at('/var/lib/kubelet/config.yaml'), undefined);
  assert.deepEqual(at('/var/lib/kubelet/config.yaml', 'c/kubelet.service'), { path: 'c/x/config.yaml', by: 'name' });
  assert.equal(at('/etc/kubernetes/kubelet.conf', 'a/kubelet.service'), undefined);
});

test('a hundred kubeadm nodes in one workspace each read their own config', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 100; i++) Object.assign(files, kubeadmNode(`node-${i}`, { config: `maxPods: ${100 + i}\n` }));
  const a = run(files);
  assert.equal(a.nodes.length, 100);
  for (const n of a.nodes) {
    const i = Number(/node-(\d+)/.exec(n.node.id)![1]);
    assert.equal(scalarOf(n.node.settings.get('maxPods')), 100 + i);
  }
});
