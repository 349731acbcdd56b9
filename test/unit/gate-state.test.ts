/**
 * node/gates.ts: the gate set validation.go checks against, per target version:
 * the default of kube_features.go at that version, then featureGates and --feature-gates
 * (cmd/kubelet/app/server.go merges the flag's map over the file's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gateState } from '../../server/src/node/gates.ts';
import { kubeadmNode, onlyNode, run } from '../helpers/nodes.ts';

function stateAt(version: string, config: string, flags?: string) {
  const a = run(kubeadmNode('n', { config, kubeadmFlags: flags ? `KUBELET_KUBEADM_ARGS="${flags}"\n` : undefined }), { kubernetesVersion: version });
  return (name: string) => gateState(onlyNode(a).node, name);
}

test('kube_features.go: NodeSwap is beta and off by default in 1.29, on from 1.30 (beta on), so its default follows the version', () => {
  assert.equal(stateAt('1.29', '')('NodeSwap').enabled, false);
  assert.equal(stateAt('1.30', '')('NodeSwap').enabled, true);
  assert.equal(stateAt('1.30', '')('NodeSwap').item, undefined);
});

test('featureGates in the file turns a gate on; the entry that decided it is returned', () => {
  const g = stateAt('1.29', 'featureGates:\n  NodeSwap: true\n')('NodeSwap');
  assert.equal(g.enabled, true);
  assert.equal(g.item?.key, 'NodeSwap');
});

test('server.go: --feature-gates is applied over featureGates, so the flag decides', () => {
  const g = stateAt('1.33', 'featureGates:\n  GracefulNodeShutdown: true\n', '--feature-gates=GracefulNodeShutdown=false')('GracefulNodeShutdown');
  assert.equal(g.enabled, false);
  assert.equal(g.item?.from.how, 'flag');
});

test('a gate the target version does not have yet reads as off and is marked unknown (KubeletCrashLoopBackOffMax arrived in 1.32)', () => {
  const g = stateAt('1.31', '')('KubeletCrashLoopBackOffMax');
  assert.equal(g.enabled, false);
  assert.equal(g.unknown, true);
  assert.equal(stateAt('1.32', '')('KubeletCrashLoopBackOffMax').unknown, undefined);
});

test('feature_gate.go: AllAlpha=true turns on an alpha gate that is not named (MemoryQoS is alpha), and a named gate wins over it', () => {
  const at = stateAt('1.33', 'featureGates:\n  AllAlpha: true\n  CustomCPUCFSQuotaPeriod: false\n');
  assert.equal(at('MemoryQoS').enabled, true);
  assert.equal(at('MemoryQoS').item?.key, 'AllAlpha');
  assert.equal(at('CustomCPUCFSQuotaPeriod').enabled, false);
  assert.equal(at('NodeSwap').enabled, true, 'a beta gate keeps its default under AllAlpha');
});
