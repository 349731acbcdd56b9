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
