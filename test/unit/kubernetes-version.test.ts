/**
 * The target Kubernetes version of a node (node/version.ts): a modeline, then --kubernetes-version or the setting,
 * then a kubelet image tag or platform cluster version the node's files state, kubeadm's
 * ClusterConfiguration.kubernetesVersion (own files, else the one the workspace agrees on), and the
 * newest catalog version only when nothing names one. Completion, hover and the effective configuration follow it.
 */
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { analyze } from '../../server/src/engine.ts';
import { completion } from '../../server/src/features/completion.ts';
import { nodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { allocatableMarkdown } from '../../server/src/features/allocatable-view.ts';
import { minorOf } from '../../server/src/node/version.ts';
import { imageVersion } from '../../server/src/model/version-mention.ts';
import { hover } from '../../server/src/features/hover.ts';
import { renderAllocatable, statusText, statusTooltip } from '../../client/src/allocatable-render.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

const KUBEADM = (v: string) =>
  `apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: ${v}\n---\n${CONFIG_HEAD}maxPods: 110\n`;

test('minorOf reads kubeadm version strings and labels (v1.30.2, stable-1.30, ci/latest-1.31); a bare label has none', () => {
  assert.equal(minorOf('v1.30.2'), '1.30');
  assert.equal(minorOf('1.29'), '1.29');
  assert.equal(minorOf('stable-1.30'), '1.30');
  assert.equal(minorOf('ci/latest-1.31'), '1.31');
  assert.equal(minorOf('v1.31.0-rc.1'), '1.31');
  assert.equal(minorOf('stable'), undefined);
  assert.equal(minorOf('latest'), undefined);
});

test('kubeadm kubernetesVersion sets the node version, with where it came from', () => {
  const a = analyze([{ path: 'n/kubeadm.yaml', text: KUBEADM('v1.30.2') }]);
  const { node } = a.nodes[0];
  assert.equal(node.kubernetesVersion, '1.30');
  assert.equal(node.kubernetesVersionSource, 'kubernetesVersion v1.30.2 in n/kubeadm.yaml line 3');
  assert.equal(nodeAllocatable(a.nodes[0]).kubernetesVersionSource, node.kubernetesVersionSource);
  assert.match(allocatableMarkdown(a.nodes[0]), /kubelet 1\.30 \(from kubernetesVersion v1\.30\.2 in n\/kubeadm\.yaml line 3\)|No node capacity/);
});

test('a kubernetesVersion older than its own kubeadm API allows states nothing: v1beta4 (kubeadm 1.31) with v1.23.0 is a rewritten placeholder, not the version (minikube golden file, sixth first-sight batch)', () => {
  const doc = (api: string, v: string) => KUBEADM(v).replace('kubeadm.k8s.io/v1beta3', `kubeadm.k8s.io/${api}`);
  const stale = analyze([{ path: 'n/kubeadm.yaml', text: doc('v1beta4', 'v1.23.0') }]).nodes[0].node;
  assert.equal(stale.kubernetesVersionAssumed, true);
  assert.equal(stale.kubernetesVersion, NEWEST_VERSION);
  // kubeadm 1.31 installs a 1.30 control plane (MinimumControlPlaneVersion: one minor back).
  assert.equal(analyze([{ path: 'n/kubeadm.yaml', text: doc('v1beta4', 'v1.30.1') }]).nodes[0].node.kubernetesVersion, '1.30');
  assert.equal(analyze([{ path: 'n/kubeadm.yaml', text: doc('v1beta3', 'v1.21.0') }]).nodes[0].node.kubernetesVersion, '1.21');
});

test('a node of units takes the version the kubeadm files of its root agree on, the newest when they differ, and none from another root (issue #37)', () => {
  const unit = { path: 'n/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n' };
  const config = { path: 'n/var/lib/kubelet/config.yaml', text: CONFIG_HEAD };
  const one = analyze([unit, config, { path: 'n/cluster.yaml', text: KUBEADM('v1.29.4') }]);
  assert.equal(one.nodes.find((r) => r.node.id === unit.path)?.node.kubernetesVersion, '1.29');
  const two = analyze([unit, config, { path: 'n/a.yaml', text: KUBEADM('v1.29.4') }, { path: 'n/b.yaml', text: KUBEADM('v1.31.0') }]);
  const n = two.nodes.find((r) => r.node.id === unit.path)!.node;
  assert.equal(n.kubernetesVersion, NEWEST_VERSION);
  assert.match(n.kubernetesVersionSource!, /newest version this tool knows/);
  // A plain worker in another folder is not the kubeadm cluster's: its version is not stated.
  const apart = analyze([unit, config, { path: 'kubeadm/cluster.yaml', text: KUBEADM('v1.29.4') }]).nodes.find((r) => r.node.id === unit.path)!.node;
  assert.equal(apart.kubernetesVersionAssumed, true);
});

test('the setting (or --kubernetes-version) wins over the files, and a modeline wins over both', () => {
  const files = [{ path: 'n/kubeadm.yaml', text: KUBEADM('v1.30.2') }];
  const set = analyze(files, { kubernetesVersion: '1.32', kubernetesVersionSource: 'the kubeletConfig.kubernetesVersion setting' }).nodes[0].node;
  assert.equal(set.kubernetesVersion, '1.32');
  assert.equal(set.kubernetesVersionSource, 'the kubeletConfig.kubernetesVersion setting');
  const mode = analyze([{ path: 'n/kubeadm.yaml', text: '# kubelet-lint: kubernetes-version 1.28\n' + KUBEADM('v1.30.2') }], { kubernetesVersion: '1.32' }).nodes[0].node;
  assert.equal(mode.kubernetesVersion, '1.28');
  assert.equal(mode.kubernetesVersionSource, 'modeline in n/kubeadm.yaml line 1');
});

test('completion follows the node version: no mergeDefaultEvictionSettings (1.33+) for a kubeadm 1.30 node', () => {
  const text = KUBEADM('v1.30.2') + 'merge';
  const files = [{ path: 'n/kubeadm.yaml', text }];
  const lines = text.split('\n');
  const pos = { line: lines.length - 1, character: 'merge'.length };
  const old = completion(analyze(files), 'n/kubeadm.yaml', pos).map((c) => c.label);
  assert.ok(!old.includes('mergeDefaultEvictionSettings'), 'offered to a 1.30 node');
  const newer = [{ path: 'n/kubeadm.yaml', text: text.replace('v1.30.2', 'v1.34.0') }];
  const labels = completion(analyze(newer), 'n/kubeadm.yaml', pos).map((c) => c.label);
  assert.ok(labels.includes('mergeDefaultEvictionSettings'), 'not offered to a 1.34 node');
});

test('the effective configuration follows the node version: no mergeDefaultEvictionSettings default before 1.33', async () => {
  const { effectiveConfigYaml } = await import('../../server/src/features/effective-config.ts');
  const old = analyze([{ path: 'n/kubeadm.yaml', text: KUBEADM('v1.30.2') }]).nodes[0];
  assert.doesNotMatch(effectiveConfigYaml(old), /mergeDefaultEvictionSettings/);
  assert.match(effectiveConfigYaml(old), /kubelet 1\.30, from kubernetesVersion v1\.30\.2/);
  const newer = analyze([{ path: 'n/kubeadm.yaml', text: KUBEADM('v1.34.0') }]).nodes[0];
  assert.match(effectiveConfigYaml(newer), /mergeDefaultEvictionSettings: false/);
});

// ---------------------------------------------------------------------------------------------------------------
// Versions the platform files state: kubelet image tags and cluster versions (model/version-mention.ts).

const TALOS = (image: string) =>
  `version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    image: ${image}\n    extraConfig:\n      maxPods: 100\n      merge`;

test('imageVersion reads the tag of a kubelet image reference; no tag, a word tag or a template expression states none', () => {
  assert.equal(imageVersion('ghcr.io/siderolabs/kubelet:v1.33.1'), '1.33');
  assert.equal(imageVersion('kindest/node:v1.31.0@sha256:047357ac0cfea04663786a612ba1eaba9702bef25227a794b52890dd8bcd692e'), '1.31');
  assert.equal(imageVersion('localhost:5000/kubelet:v1.29.0-rc.1'), '1.29');
  assert.equal(imageVersion('localhost:5000/kubelet'), undefined, 'the port is no tag');
  assert.equal(imageVersion('ghcr.io/siderolabs/kubelet'), undefined);
  assert.equal(imageVersion('ghcr.io/siderolabs/kubelet:latest'), undefined);
  assert.equal(imageVersion('ghcr.io/siderolabs/kubelet:{{ .Values.k8sVersion }}'), undefined);
  assert.equal(imageVersion('ghcr.io/siderolabs/kubelet:v1.{{ .minor }}.0'), undefined, 'a partly templated tag is not guessed from');
  assert.equal(imageVersion('ghcr.io/siderolabs/kubelet:${version}'), undefined);
  assert.equal(imageVersion('ghcr.io/siderolabs/kubelet:v1.3%{ if x }3%{ endif }'), undefined);
});

test('Talos machine.kubelet.image sets the node version, with where; the status bar and the allocatable view show it', () => {
  const r = analyze([{ path: 'talos/worker.yaml', text: TALOS('ghcr.io/siderolabs/kubelet:v1.30.1').replace(/\n      merge$/, '\n') }]).nodes[0];
  assert.equal(r.node.kubernetesVersion, '1.30');
  const source = 'machine.kubelet.image ghcr.io/siderolabs/kubelet:v1.30.1 in talos/worker.yaml line 5';
  assert.equal(r.node.kubernetesVersionSource, source);
  const data = nodeAllocatable(r);
  assert.equal(statusText(data).endsWith('kubelet 1.30'), true);
  assert.ok(statusTooltip(data).includes(`Kubernetes 1.30, from ${source}.`), statusTooltip(data));
  const view = renderAllocatable({ nodes: [data] }, { nonce: 'n' });
  assert.ok(view.includes(`kubelet 1.30 (from ${source})`), view);
});

test('Talos: a templated kubelet image states no version, so the fallback holds (never a guess from the template)', () => {
  for (const image of ['ghcr.io/siderolabs/kubelet:${version}', 'ghcr.io/siderolabs/kubelet:{{ .Values.k8sVersion }}', '"ghcr.io/siderolabs/kubelet:{{ .Values.k8sVersion }}"']) {
    const alone = analyze([{ path: 'talos/worker.yaml', text: TALOS(image) }]).nodes[0].node;
    assert.equal(alone.kubernetesVersion, NEWEST_VERSION, image);
    assert.match(alone.kubernetesVersionSource!, /newest version this tool knows/);
    const ws = analyze([{ path: 'talos/worker.yaml', text: TALOS(image) }, { path: 'kubeadm/cluster.yaml', text: KUBEADM('v1.29.4') }]);
    // A kubeadm ClusterConfiguration elsewhere in the workspace is not this Talos node's: Talos runs no kubeadm (issue #23).
    assert.equal(ws.nodes.find((n) => n.node.id === 'talos/worker.yaml')!.node.kubernetesVersion, NEWEST_VERSION, `${image}: not the workspace's kubeadm version`);
  }
});

test('Talos v1.14 KubeletConfig document: its image states the version; a modeline and the setting still win', () => {
  const text = 'apiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.32.3\nconfig:\n  maxPods: 90\n';
  assert.equal(analyze([{ path: 'kubelet.yaml', text }]).nodes[0].node.kubernetesVersionSource, 'KubeletConfig image ghcr.io/siderolabs/kubelet:v1.32.3 in kubelet.yaml line 3');
  assert.equal(analyze([{ path: 'kubelet.yaml', text }], { kubernetesVersion: '1.34' }).nodes[0].node.kubernetesVersion, '1.34');
  assert.equal(analyze([{ path: 'kubelet.yaml', text: `# kubelet-lint: kubernetes-version 1.31\n${text}` }]).nodes[0].node.kubernetesVersion, '1.31');
});

test('completion, hover and the effective configuration follow the image tag: no mergeDefaultEvictionSettings for a v1.30 Talos node', async () => {
  const { effectiveConfigYaml } = await import('../../server/src/features/effective-config.ts');
  const pos = { line: 7, character: '      merge'.length };
  const labels = (image: string) => completion(analyze([{ path: 't.yaml', text: TALOS(image) }]), 't.yaml', pos).map((c) => c.label);
  assert.ok(!labels('ghcr.io/siderolabs/kubelet:v1.30.1').includes('mergeDefaultEvictionSettings'), 'offered to a 1.30 node');
  assert.ok(labels('ghcr.io/siderolabs/kubelet:v1.34.0').includes('mergeDefaultEvictionSettings'), 'not offered to a 1.34 node');
  const done = (image: string) => analyze([{ path: 't.yaml', text: TALOS(image).replace(/\n      merge$/, '\n') }]).nodes[0];
  assert.doesNotMatch(effectiveConfigYaml(done('ghcr.io/siderolabs/kubelet:v1.30.1')), /mergeDefaultEvictionSettings/);
  assert.match(effectiveConfigYaml(done('ghcr.io/siderolabs/kubelet:v1.30.1')), /kubelet 1\.30, from machine\.kubelet\.image/);
  assert.match(effectiveConfigYaml(done('ghcr.io/siderolabs/kubelet:v1.34.0')), /mergeDefaultEvictionSettings: false/);
  // The gate hover speaks of the node's version: a gate's state line names it.
  const gates = (image: string) => TALOS(image).replace(/\n      merge$/, '\n      featureGates:\n        InPlacePodVerticalScaling: true\n');
  const hoverAt = (image: string) => hover(analyze([{ path: 't.yaml', text: gates(image) }]), 't.yaml', { line: 8, character: 12 });
  assert.match(JSON.stringify(hoverAt('ghcr.io/siderolabs/kubelet:v1.30.1')), /kubelet 1\.30: \*\*alpha\*\*, default `false`/);
  assert.match(JSON.stringify(hoverAt('ghcr.io/siderolabs/kubelet:v1.34.0')), /kubelet 1\.34: \*\*beta\*\*, default `true`/);
});

test('kind nodes[].image: each kind node (cluster patches and its own) takes its own node image', () => {
  const kind = (second: string) => `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
kubeadmConfigPatches:
- |
  kind: KubeletConfiguration
  maxPods: 50
nodes:
- role: control-plane
  image: kindest/node:v1.30.0@sha256:047357ac0cfea04663786a612ba1eaba9702bef25227a794b52890dd8bcd692e
- role: worker
  image: "${second}"
  kubeadmConfigPatches:
  - |
    kind: JoinConfiguration
    nodeRegistration:
      kubeletExtraArgs:
        max-pods: "20"
`;
  const byTarget = (text: string) => new Map(analyze([{ path: 'kind.yaml', text }]).nodes.map((n) => [n.node.id.split('//')[1], n.node]));
  // One node per nodes[] entry (kind writes one kubeadm config per node), each of its own image's version: the
  // cluster-wide patch is in both, so it no longer needs the images to agree.
  const same = byTarget(kind('kindest/node:v1.30.2'));
  assert.equal(same.get('worker-1.yaml')?.kubernetesVersionSource, 'nodes[1].image kindest/node:v1.30.2 in kind.yaml line 11');
  assert.equal(same.get('control-plane-1.yaml')?.kubernetesVersionSource, 'nodes[0].image kindest/node:v1.30.0 in kind.yaml line 9', 'the digest is left out');
  const mixed = byTarget(kind('kindest/node:v1.32.0'));
  assert.equal(mixed.get('worker-1.yaml')?.kubernetesVersion, '1.32');
  assert.equal(mixed.get('control-plane-1.yaml')?.kubernetesVersion, '1.30', 'nodes of two versions: each node its own');
  const templated = byTarget(kind('kindest/node:{{ .Values.k8sVersion }}'));
  assert.equal(templated.get('worker-1.yaml')?.kubernetesVersion, NEWEST_VERSION);
});

test('talhelper kubernetesVersion holds for every node; a node whose patch sets machine.kubelet.image takes that', () => {
  const text = `clusterName: home
talosVersion: v1.9.0
kubernetesVersion: v1.31.4
patches:
  - |-
    machine:
      kubelet:
        extraConfig:
          maxPods: 150
nodes:
  - hostname: small
  - hostname: big
    patches:
      - |-
        machine:
          kubelet:
            image: ghcr.io/siderolabs/kubelet:v1.32.0
            extraConfig:
              maxPods: 250
`;
  const byTarget = new Map(analyze([{ path: 'talconfig.yaml', text }]).nodes.map((n) => [n.node.id.split('//')[1], n.node]));
  assert.equal(byTarget.get('small.yaml')?.kubernetesVersion, '1.31');
  assert.equal(byTarget.get('small.yaml')?.kubernetesVersionSource, 'kubernetesVersion v1.31.4 in talconfig.yaml line 3');
  assert.equal(byTarget.get('big.yaml')?.kubernetesVersion, '1.32');
  assert.match(byTarget.get('big.yaml')!.kubernetesVersionSource!, /^machine\.kubelet\.image ghcr\.io\/siderolabs\/kubelet:v1\.32\.0 in talconfig\.yaml line 17$/);
});

test('eksctl metadata.version, kops spec.kubernetesVersion and a nodeup config\'s KubernetesVersion state the version of their node groups', () => {
  const eksctl = `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: c
  version: 1.30
nodeGroups:
  - name: ng
    kubeletExtraConfig:
      maxPods: 30
`;
  assert.equal(analyze([{ path: 'eks.yaml', text: eksctl }]).nodes[0].node.kubernetesVersionSource, 'metadata.version 1.30 in eks.yaml line 5', 'unquoted 1.30 is read as written, not as the number 1.3');
  const kops = `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: c.example.com
spec:
  kubernetesVersion: v1.29.3
  kubelet:
    maxPods: 60
`;
  const k = analyze([{ path: 'kops.yaml', text: kops }]).nodes[0].node;
  assert.equal(k.kubernetesVersion, '1.29');
  assert.equal(k.kubernetesVersionSource, 'spec.kubernetesVersion v1.29.3 in kops.yaml line 6');
  // the nodeup config kops renders names it too
  const nodeup = 'ClusterName: c.example.com\nKubeletConfig:\n  maxPods: 50\nKubernetesVersion: 1.32.0\n';
  assert.equal(analyze([{ path: 'nodeupconfig', text: nodeup }]).nodes[0]?.node.kubernetesVersionSource, 'KubernetesVersion 1.32.0 in nodeupconfig line 4');
});

test('a kubelet run from a container image: the tag states the version, at the Environment= line that sets the image', () => {
  const unit = '[Service]\nEnvironment=KUBELET_IMAGE=quay.io/poseidon/kubelet:v1.31.4\nExecStart=/usr/bin/podman run --name kubelet --privileged ${KUBELET_IMAGE} \\\n  --config=/etc/kubernetes/kubelet.yaml\n';
  const n = analyze([{ path: 'n/etc/systemd/system/kubelet.service', text: unit }]).nodes[0].node;
  assert.equal(n.kubernetesVersionSource, 'KUBELET_IMAGE quay.io/poseidon/kubelet:v1.31.4 in n/etc/systemd/system/kubelet.service line 2');
  const direct = '[Service]\nExecStart=/usr/bin/podman run --privileged quay.io/poseidon/kubelet:v1.29.4 kubelet --max-pods=30\n';
  assert.equal(analyze([{ path: 'n/etc/systemd/system/kubelet.service', text: direct }]).nodes[0].node.kubernetesVersion, '1.29');
});

test('docs/formats/talos.md says what the code does: the version is taken from machine.kubelet.image (issue 26, point 19)', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/talos.md'), 'utf8');
  assert.doesNotMatch(page, /not taken from `image`/);
  assert.match(page.replace(/\s+/g, ' '), /version is taken from `machine\.kubelet\.image`/);
});

// --- versions newer than the catalog's data (catalog/facts/versions.tsv, node/version.ts withinCatalog) ------------

const gateCodes = (a: ReturnType<typeof analyze>) => a.findings.filter((f) => f.code.startsWith('feature-gate-') || f.code === 'kubernetes-version-newer');

test('a kubeadm kubernetesVersion newer than the data (v1.38.0) is checked as the newest complete version, said once at that line', () => {
  assert.equal(NEWEST_VERSION, '1.37');
  const a = analyze([{ path: 'n/kubeadm.yaml', text: KUBEADM('v1.38.0') }]);
  const { node } = a.nodes[0]!;
  assert.equal(node.kubernetesVersion, '1.37');
  assert.equal(node.kubernetesVersionStated, '1.38');
  assert.match(node.kubernetesVersionSource!, /^kubernetesVersion v1\.38\.0 in n\/kubeadm\.yaml line 3, checked as 1\.37/);
  const notes = a.findings.filter((f) => f.code === 'kubernetes-version-newer');
  assert.equal(notes.length, 1);
  assert.equal(notes[0]!.severity, 'information');
  assert.equal(notes[0]!.range.start.line, 2);
  assert.match(notes[0]!.message, /^Kubernetes 1\.38 is newer than this tool's data, which is complete through 1\.37: checked as 1\.37\./);
});

test('a modeline naming 1.38: a gate the catalog has from the 1.38 branch is not unknown, another unknown name is only a warning', () => {
  const text = `# kubelet-lint: kubernetes-version 1.38\n${CONFIG_HEAD}featureGates:\n  PodCertificateMLDSA: true\n  SomeBrandNewGateXyz: true\n`;
  const a = analyze([{ path: 'n/kubelet-config.yaml', text }]);
  assert.equal(a.nodes[0]!.node.kubernetesVersion, '1.37');
  const fs = gateCodes(a);
  assert.deepEqual(fs.map((f) => `${f.range.start.line} ${f.severity} ${f.code}`).sort(), ['0 information kubernetes-version-newer', '5 warning feature-gate-unknown']);
  assert.match(fs.find((f) => f.code === 'feature-gate-unknown')!.message, /complete through 1\.37, and the node states 1\.38/);
  // The same file stating 1.37: the 1.38 gate is unknown there, and an unknown name is an error.
  const at137 = gateCodes(analyze([{ path: 'n/kubelet-config.yaml', text: text.replace('1.38', '1.37') }]));
  assert.deepEqual(at137.map((f) => `${f.range.start.line} ${f.severity} ${f.code}`).sort(), ['4 error feature-gate-unknown', '5 error feature-gate-unknown']);
});

test('a version newer than the data given as an option is checked as the newest too, with no finding (no file states it)', () => {
  const a = analyze([{ path: 'n/kubelet-config.yaml', text: `${CONFIG_HEAD}maxPods: 110\n` }], { kubernetesVersion: '1.39' });
  assert.equal(a.nodes[0]!.node.kubernetesVersion, '1.37');
  assert.equal(a.findings.filter((f) => f.code === 'kubernetes-version-newer').length, 0);
  // The newest complete version itself, and no version at all, are used as they are.
  assert.equal(analyze([{ path: 'n/kubeadm.yaml', text: KUBEADM('v1.37.2') }]).findings.filter((f) => f.code === 'kubernetes-version-newer').length, 0);
});
