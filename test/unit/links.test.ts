/** Document links and Go to Definition between a node's files (features/links.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { definition, documentLinks } from '../../server/src/features/links.ts';
import { definitionIn, documentLinksIn } from '../../server/src/features/embedded.ts';

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

// Inside carriers (features/embedded.ts): the same links and definitions, at the carrier's lines.
const CLOUD_INIT = `#cloud-config
write_files:
  - path: /etc/systemd/system/kubelet.service.d/10-x.conf
    content: |
      [Service]
      EnvironmentFile=-/etc/default/kubelet
      ExecStart=
      ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS
  - path: /etc/default/kubelet
    content: |
      KUBELET_EXTRA_ARGS=--max-pods=50
  - path: /var/lib/kubelet/config.yaml
    content: |
      apiVersion: kubelet.config.k8s.io/v1beta1
      kind: KubeletConfiguration
      cgroupDriver: systemd
`;
const SHELL = `#!/bin/bash
set -e
cat <<'EOF' > /etc/systemd/system/kubelet.service.d/20-x.conf
[Service]
Environment="KUBELET_CONFIG_ARGS=--config=/etc/kubernetes/kubelet.yaml"
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS
EOF
cat <<'EOF' > /etc/kubernetes/kubelet.yaml
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
maxPods: 60
EOF
`;
const inText = (text: string, needle: string, plus = 2) => {
  const before = text.slice(0, text.indexOf(needle)).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length + plus };
};

test('document links inside a cloud-config: EnvironmentFile= and --config= open the entry with that path, at its line', () => {
  const a = analyze([{ path: 'user-data.yaml', text: CLOUD_INIT }]);
  const links = documentLinksIn(a, 'user-data.yaml', id).map((l) => [l.range.start, l.target, l.tooltip]);
  assert.deepEqual(links, [
    [inText(CLOUD_INIT, '/etc/default/kubelet\n', 0), `${id('user-data.yaml')}#L11`, 'Open user-data.yaml → /etc/default/kubelet'],
    [inText(CLOUD_INIT, '/var/lib/kubelet/config.yaml $', 0), `${id('user-data.yaml')}#L14`, 'Open user-data.yaml → /var/lib/kubelet/config.yaml'],
  ]);
});

test('Go to Definition inside a cloud-config: a path to its entry, $VAR to its assignment, both in the carrier', () => {
  const a = analyze([{ path: 'user-data.yaml', text: CLOUD_INIT }]);
  const at = (needle: string) => definitionIn(a, 'user-data.yaml', inText(CLOUD_INIT, needle), id).map((l) => [l.uri, l.range.start]);
  assert.deepEqual(at('/var/lib/kubelet/config.yaml $'), [[id('user-data.yaml'), { line: 13, character: 6 }]]);
  assert.deepEqual(at('$KUBELET_EXTRA_ARGS'), [[id('user-data.yaml'), { line: 10, character: 6 }]]);
  assert.deepEqual(at('-/etc/default/kubelet'), [[id('user-data.yaml'), { line: 10, character: 6 }]]);
  assert.deepEqual(at('ExecStart=\n'), []);
  // the bare file's answers are unchanged
  assert.deepEqual(definitionIn(analyze(files), DROPIN, inText(files[0].text, '/etc/default/kubelet'), id).map((l) => l.uri), [id(ENV)]);
});

test('links and definitions in a shell here-document: --config= through a variable to the other here-document', () => {
  const a = analyze([{ path: 'boot.sh', text: SHELL }]);
  const link = documentLinksIn(a, 'boot.sh', id);
  assert.deepEqual(link.map((l) => [l.range.start, l.target]), [[inText(SHELL, '/etc/kubernetes/kubelet.yaml"', 0), `${id('boot.sh')}#L10`]]);
  const def = definitionIn(a, 'boot.sh', inText(SHELL, '$KUBELET_CONFIG_ARGS'), id);
  assert.deepEqual(def.map((l) => [l.uri, l.range.start.line]), [[id('boot.sh'), 4]]);
});

test('a here-document unit whose --config= names a file on disk links to that file, as the bare unit does', () => {
  const sh = "#!/bin/bash\ncat <<'EOF' > /etc/systemd/system/kubelet.service.d/20-x.conf\n[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\nEOF\n";
  const disk = 'n/var/lib/kubelet/config.yaml';
  const a = analyze([{ path: 'n/boot.sh', text: sh }, { path: disk, text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 3\n' }]);
  assert.deepEqual(documentLinksIn(a, 'n/boot.sh', id).map((l) => [l.range.start, l.target, l.tooltip]), [[inText(sh, '/var/lib/kubelet/config.yaml', 0), id(disk), `Open ${disk}`]]);
  assert.deepEqual(definitionIn(a, 'n/boot.sh', inText(sh, '/var/lib/kubelet/config.yaml'), id).map((l) => [l.uri, l.range.start.line]), [[id(disk), 0]]);
});
