/**
 * Issue #37, which files make a node, by the consumer's own rules. A file a node reads because another names it is linked by identity (the same absolute path under a
 * folder holding the naming file, or in the same carrier), never by a name alike. A link by name alone is still made,
 * shown as a guess, and no error or warning rests on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filesRead, filesReadText } from '../../server/src/features/files-read.ts';
import { resolveReference } from '../../server/src/model/paths.ts';
import { CONFIG_HEAD, kubeadmNode, KUBELET_SERVICE, nodeWith, run, scalarOf } from '../helpers/nodes.ts';

const UNIT_WITH_CONFIG = `[Service]
ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --max-pods=90
`;

test('resolveReference: the same path under a folder holding the referrer is identity; a suffix alike is a name', () => {
  const files = ['n1/var/lib/kubelet/config.yaml', 'other/kubernetes/kubelet/config.yaml', 'ci.yaml//etc/kubernetes/kubelet.conf'];
  assert.deepEqual(resolveReference('/var/lib/kubelet/config.yaml', files, 'n1/etc/systemd/system/kubelet.service'), { path: 'n1/var/lib/kubelet/config.yaml', by: 'identity' });
  // A name alike is a guess, and only inside the referrer's node root: another folder's file is another machine's.
  assert.equal(resolveReference('/var/lib/kubelet/config.yaml', files.slice(1), 'n1/etc/systemd/system/kubelet.service'), undefined);
  assert.deepEqual(resolveReference('/var/lib/kubelet/config.yaml', ['role/files/kubelet/config.yaml', 'charts/kubelet/config.yaml'], 'role/kubelet.service'), { path: 'role/files/kubelet/config.yaml', by: 'name' });
  // A carrier is the root of its payloads' file system.
  assert.deepEqual(resolveReference('/etc/kubernetes/kubelet.conf', files, 'ci.yaml//etc/systemd/system/kubelet.service'), { path: 'ci.yaml//etc/kubernetes/kubelet.conf', by: 'identity' });
  // A relative reference has no place of its own.
  assert.equal(resolveReference('config.yaml', ['n1/config.yaml'], 'n1/kubelet.service')?.by, 'name');
});

test("two nodes laid out like / each read their own config by identity, with their reasons in --list-files", () => {
  const a = run({ ...kubeadmNode('n1', { config: 'maxPods: 60\n' }), ...kubeadmNode('n2', { config: 'maxPods: 70\n' }) });
  for (const [root, pods] of [['n1', 60], ['n2', 70]] as const) {
    const { node } = nodeWith(a, `${root}/usr/lib/systemd/system/kubelet.service`);
    assert.deepEqual(node.links?.map((l) => [l.what, l.to, l.by]), [['--config', `${root}/var/lib/kubelet/config.yaml`, 'identity']]);
    assert.equal(scalarOf(node.settings.get('maxPods')), pods);
  }
  const text = filesReadText(filesRead(a, Object.keys(kubeadmNode('n1'))));
  const line = text.find((l) => l.startsWith('n1/var/lib/kubelet/config.yaml'))!;
  assert.match(line, /read as --config=\/var\/lib\/kubelet\/config\.yaml in n1\/etc\/systemd\/system\/kubelet\.service\.d\/10-kubeadm\.conf:\d+, the same path/);
});

test("a config found by name alone under the unit's folder is shown as a guess; what rests on it is a condition, the file's own error stays; another folder's file is not linked", () => {
  const files = {
    'ansible/roles/kubelet/kubelet.service': UNIT_WITH_CONFIG,
    'ansible/roles/kubelet/files/kubelet/config.yaml': CONFIG_HEAD + 'maxPods: 220\nkubeReserved:\n  memory: 1Gx\n',
    // A Helm chart's file that happens to end like the unit's --config path: another machine's.
    'charts/node/kubelet/config.yaml': CONFIG_HEAD + 'maxPods: 330\n',
  };
  const a = run(files);
  const { node } = nodeWith(a, 'ansible/roles/kubelet/kubelet.service');
  assert.deepEqual(node.links?.map((l) => [l.to, l.by]), [['ansible/roles/kubelet/files/kubelet/config.yaml', 'name']]);
  assert.equal(scalarOf(node.settings.get('maxPods')), '90');
  for (const f of a.findings) {
    if (f.severity !== 'error' && f.severity !== 'warning') continue;
    // Only what the config says of itself, as it would alone.
    assert.equal(f.file, 'ansible/roles/kubelet/files/kubelet/config.yaml', `${f.code}: ${f.message}`);
  }
  const bad = a.findings.find((f) => f.code === 'quantity-invalid');
  assert.equal(bad?.severity, 'error', 'a value no kubelet can decode is an error whichever kubelet reads the file');
  const text = filesReadText(filesRead(a, Object.keys(files)));
  assert.ok(text.some((l) => l.startsWith('ansible/roles/kubelet/files/kubelet/config.yaml') && l.endsWith('a guess by its name alone')), text.join('\n'));
  assert.equal(scalarOf(nodeWith(a, 'charts/node/kubelet/config.yaml').node.settings.get('maxPods')), 330);
});

test('a unit beside its env file, named by an absolute path: an unused variable rests on the guess and says so', () => {
  const a = run({
    'nodes/archive/kubelet.service': '[Service]\nEnvironmentFile=/etc/kubernetes/kubelet.env\nExecStart=/usr/bin/kubelet $KUBE_ARGS\n',
    'nodes/archive/kubelet.env': 'KUBE_ARGS=--v=2\nKUBE_LOGGING=--logtostderr=true\n',
  });
  const f = a.findings.find((x) => x.code === 'unit-variable-unused')!;
  assert.equal(f.severity, 'information');
  assert.match(f.message, /^Only if nodes\/archive\/kubelet\.env is EnvironmentFile=\/etc\/kubernetes\/kubelet\.env, which it matches by name alone\. KUBE_LOGGING/);
});

test('the same unit and env file laid out like / give the warning: the link is by identity', () => {
  const a = run({
    'node/etc/systemd/system/kubelet.service': '[Service]\nEnvironmentFile=/etc/kubernetes/kubelet.env\nExecStart=/usr/bin/kubelet $KUBE_ARGS\n',
    'node/etc/kubernetes/kubelet.env': 'KUBE_ARGS=--v=2\nKUBE_LOGGING=--logtostderr=true\n',
  });
  const f = a.findings.find((x) => x.code === 'unit-variable-unused')!;
  assert.equal(f.severity, 'warning');
});

test('a config at the same path under another node root is not this node\'s by identity', () => {
  const a = run({
    'a/etc/systemd/system/kubelet.service': KUBELET_SERVICE.replace('ExecStart=/usr/bin/kubelet', 'ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml'),
    'b/var/lib/kubelet/config.yaml': CONFIG_HEAD + 'maxPods: 220\n',
  });
  const { node } = nodeWith(a, 'a/etc/systemd/system/kubelet.service');
  assert.equal(node.links, undefined);
  assert.equal(scalarOf(nodeWith(a, 'b/var/lib/kubelet/config.yaml').node.settings.get('maxPods')), 220);
});

test('a KubeletConfiguration in a kubeadm join file reaches no kubelet (joinconfiguration.go decodes only the JoinConfiguration): reported once, and left out of the node', () => {
  const join = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    max-pods: "50"\n---\n' + CONFIG_HEAD + 'maxPods: 250\ncgroupDriver: cgroupfss\n';
  const a = run({ 'join.yaml': join }, { kubernetesVersion: '1.30' });
  assert.deepEqual(a.findings.filter((f) => f.severity !== 'information').map((f) => `${f.code} ${f.range.start.line + 1}`), ['kubeadm-join-ignores-config 7']);
  assert.equal(scalarOf(a.nodes[0].node.settings.get('maxPods')), '50');
  // kubeadm init reads a KubeletConfiguration beside its own documents.
  const init = join.replace('kind: JoinConfiguration', 'kind: InitConfiguration');
  const b = run({ 'init.yaml': init }, { kubernetesVersion: '1.30' });
  assert.equal(b.findings.some((f) => f.code === 'kubeadm-join-ignores-config'), false);
  assert.ok(b.findings.some((f) => f.code === 'cgroup-driver-invalid'));
});

test('a config value the kubelet cannot decode stops it even when a flag sets the same field: it decodes every config file before flags apply', () => {
  const a = run(kubeadmNode('n', { config: 'maxPods: "250"\n', defaults: 'KUBELET_EXTRA_ARGS=--max-pods=50\n' }), { kubernetesVersion: '1.30' });
  const f = a.findings.find((x) => x.code === 'config-field-type');
  assert.equal(f?.severity, 'error');
  assert.equal(f?.file, 'n/var/lib/kubelet/config.yaml');
  assert.equal(scalarOf(nodeWith(a, 'n/var/lib/kubelet/config.yaml').node.settings.get('maxPods')), '50');
});

const script = (dropin: string, config: string) => `#!/bin/bash
cat <<'EOF' > /etc/systemd/system/kubelet.service
[Service]
ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS
EOF
cat <<${dropin} > /etc/systemd/system/kubelet.service.d/20-extra.conf
[Service]
Environment="KUBELET_EXTRA_ARGS=--node-ip=\${NODE_IP} --kube-reserved-cgroup=/kube.slice"
EOF
cat <<'EOF' > /var/lib/kubelet/config.yaml
${config}EOF
`;

test('a drop-in written by an unquoted here-document makes its node incomplete: said in the node, and nothing rests on what it may set', () => {
  const config = CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\nenforceNodeAllocatable: [pods, kube-reserved]\n';
  const a = run({ 'bootstrap.sh': script('EOF', config) }, { kubernetesVersion: '1.30' });
  const { node } = a.nodes[0];
  assert.deepEqual(node.unread?.map((u) => [u.shown, /expanded by the shell/.test(u.why)]), [['bootstrap.sh → /etc/systemd/system/kubelet.service.d/20-extra.conf', true]]);
  const cgroup = a.findings.find((f) => f.code === 'reserved-cgroup-missing')!;
  assert.equal(cgroup.severity, 'information');
  assert.match(cgroup.message, /^Only if 20-extra\.conf, not read here, sets nothing this depends on\./);
  const undefinedVar = a.findings.find((f) => f.code === 'unit-variable-undefined')!;
  assert.match(undefinedVar.message, /^\$KUBELET_EXTRA_ARGS is set in no file read here; bootstrap\.sh → \/etc\/systemd\/system\/kubelet\.service\.d\/20-extra\.conf may set it but was not read/);
  // Without the drop-in the node is complete as far as the tool sees, and the missing cgroup is an error.
  const c = run({ 'bootstrap.sh': script('EOF', config).replace(/cat <<EOF > \/etc\/systemd\/system\/kubelet\.service\.d[\s\S]*?\nEOF\n/, '') }, { kubernetesVersion: '1.30' });
  assert.equal(c.nodes[0].node.unread, undefined);
  assert.equal(c.findings.find((f) => f.code === 'reserved-cgroup-missing')?.severity, 'error');
});

test('a kubeadm config in the node\'s etc/kubernetes does not hide a cgroup-driver mismatch: the runtime joins the kubelet its unit runs', () => {
  const a = run({
    'n/usr/lib/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n',
    'n/var/lib/kubelet/config.yaml': CONFIG_HEAD + 'cgroupDriver: cgroupfs\n',
    'n/etc/containerd/config.toml': 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = true\n',
    'n/etc/kubernetes/kubeadm.yaml': 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.30.1\n',
  });
  assert.ok(nodeWith(a, 'n/usr/lib/systemd/system/kubelet.service').node.files.includes('n/etc/containerd/config.toml'));
  assert.deepEqual([...new Set(a.findings.filter((f) => f.code === 'cgroup-driver-mismatch').map((f) => f.severity))], ['error']);
});
