/**
 * The target Kubernetes version of a node (node/version.ts): a modeline, then --kubernetes-version or the setting,
 * then kubeadm's ClusterConfiguration.kubernetesVersion (own files, else the one the workspace agrees on), and the
 * newest catalog version only when nothing names one. Completion, hover and the effective configuration follow it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { analyze } from '../../server/src/engine.ts';
import { completion } from '../../server/src/features/completion.ts';
import { nodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { allocatableMarkdown } from '../../server/src/features/allocatable-view.ts';
import { minorOf } from '../../server/src/node/version.ts';
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

test('a node of units takes the version of the workspace kubeadm file when all agree, and the newest when they differ', () => {
  const unit = { path: 'n/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n' };
  const config = { path: 'n/var/lib/kubelet/config.yaml', text: CONFIG_HEAD };
  const one = analyze([unit, config, { path: 'kubeadm/cluster.yaml', text: KUBEADM('v1.29.4') }]);
  assert.equal(one.nodes.find((r) => r.node.id === unit.path)?.node.kubernetesVersion, '1.29');
  const two = analyze([unit, config, { path: 'a/cluster.yaml', text: KUBEADM('v1.29.4') }, { path: 'b/cluster.yaml', text: KUBEADM('v1.31.0') }]);
  const n = two.nodes.find((r) => r.node.id === unit.path)!.node;
  assert.equal(n.kubernetesVersion, NEWEST_VERSION);
  assert.match(n.kubernetesVersionSource!, /newest version this tool knows/);
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
