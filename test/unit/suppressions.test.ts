import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';

const CONFIG = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
enforceNodeAllocatable: [pods, system-reserved]
kubeReserved:
  gpu: "1"
`;

const WATCHED = new Set(['reserved-cgroup-missing', 'reserved-resource-unknown']);
const codes = (text: string, options = {}) =>
  analyze([{ path: 'config.yaml', text }], options).findings.map((f) => f.code).filter((c) => WATCHED.has(c)).sort();

test('without suppressions both problems are reported', () => {
  assert.deepEqual(codes(CONFIG), ['reserved-cgroup-missing', 'reserved-resource-unknown']);
});

test('kubelet-lint-disable-next-line silences the named rule on the next line only', () => {
  const text = CONFIG.replace('enforceNodeAllocatable', '# kubelet-lint-disable-next-line reserved-cgroup-missing\nenforceNodeAllocatable');
  assert.deepEqual(codes(text), ['reserved-resource-unknown']);
});

test('kubelet-lint-disable-next-line with another id silences nothing', () => {
  const text = CONFIG.replace('enforceNodeAllocatable', '# kubelet-lint-disable-next-line flag-deprecated\nenforceNodeAllocatable');
  assert.deepEqual(codes(text), ['reserved-cgroup-missing', 'reserved-resource-unknown']);
});

test('a trailing YAML comment kubelet-lint-disable-line silences its own line', () => {
  const text = CONFIG.replace('gpu: "1"', 'gpu: "1" # kubelet-lint-disable-line');
  assert.deepEqual(codes(text), ['reserved-cgroup-missing']);
});

test('in a systemd unit a trailing # is part of the value, so disable-line there does nothing (conf-parser.c)', () => {
  const unit = `[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=gpu=1 # kubelet-lint-disable-line\n`;
  const found = analyze([{ path: 'kubelet.service', text: unit }]).findings.map((f) => f.code);
  assert.ok(found.includes('reserved-resource-unknown'));
});

test('--rule severity overrides change or drop a rule', () => {
  const over = analyze([{ path: 'config.yaml', text: CONFIG.replace('system-reserved', 'kube-reserved') }], {
    ruleSeverity: new Map([
      ['reserved-cgroup-missing', 'warning'],
      ['reserved-resource-unknown', 'off'],
    ] as const),
  }).findings;
  assert.deepEqual(over.filter((f) => WATCHED.has(f.code)).map((f) => [f.code, f.severity]), [['reserved-cgroup-missing', 'warning']]);
});
