/** Fixes checked together keep exactly the fixes checked one by one (test/fuzz/fix-groups.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fixGroupProperty, fleet } from './fix-groups.ts';
import { streamText, cloudInitText } from '../../bench/cli-inputs.mjs';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 30;
const SEED = 20261202;

test('generated fleets, streams and cloud-configs: fixes checked in groups are the fixes checked alone', () => {
  fc.assert(fc.property(fleet, (files) => void fixGroupProperty(files)), { numRuns: RUNS, seed: SEED });
});

test('the bench inputs at a small size: every document\'s fix is checked in one group and kept as checked alone', () => {
  assert.equal(fixGroupProperty([{ path: 'gitops/stream.yaml', text: streamText(12) }]), 12);
  assert.equal(fixGroupProperty([{ path: 'user-data', text: cloudInitText(8) }]), 8);
});

test('an unsafe fix among safe ones is left out, and only it (the group is halved until it is alone)', () => {
  // --kube-reservd=cpu=lots: renaming makes the bad quantity count (a new error); the --max-pod fixes are safe
  const docs = Array.from({ length: 9 }, (_, i) => `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: c${i}\n  kubelet:\n    flags:\n      - ${i === 5 ? '--kube-reservd=cpu=lots' : '--max-pod=110'}\n`);
  const text = `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 10\n---\n${docs.join('---\n')}`;
  assert.ok(fixGroupProperty([{ path: 'gitops/stream.yaml', text }]) >= 9);
});

test('a fix that joins two nodes (a drop-in\'s EnvironmentFile= then reaches the other node\'s env file) sends its group back to fix-by-fix checks: the other node\'s fix, unsafe alone, is not kept (npm run fuzz, seed 20261205)', () => {
  const files = [
    { path: "n0/var/lib/kubelet/kubeadm-flags.env", text: "KUBELET_EXTRA_ARGS='--kube-reservd'" },
    { path: "n1/etc/systemd/system/kubelet.service.d/20-extra.conf", text: "[Service]\nEnvironmentFile=/var/lib/kubelet/kubeadm-flags.env \\ " },
    { path: "n1/kubeadm.yaml", text: "# apiVersion\napiVersion: kubelet.config.k8s.io/v1beta1\n# kind\nkind: KubeletConfiguration\n" },
    { path: "user-data/cloud.yaml", text: "#cloud-config\nwrite_files:\n  - path: /etc/kubernetes/kubelet-0.yaml\n    content: |\n      # apiVersion\n      apiVersion: kubeadm.k8s.io/v1beta3\n      # kind\n      kind: KubeletConfiguration\n\n  - path: /etc/kubernetes/kubelet-1.yaml\n    content: |\n      # apiVersion\n      apiVersion: kubeadm.k8s.io/v1beta3\n      # kind\n      kind: KubeletConfiguration\n\n" },
  ];
  assert.ok(fixGroupProperty(files) >= 2);
});
