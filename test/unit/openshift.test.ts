/**
 * OpenShift / OKD KubeletConfig (server/src/formats/openshift.ts): spec.kubeletConfig merged over the Machine Config
 * Operator's template (openshift/machine-config-operator pkg/controller/kubelet-config/helpers.go generateKubeletIgnFiles,
 * templates/*\/01-*-kubelet/_base/files/kubelet.yaml), findings at the user's lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { describe } from '../../server/src/node/provenance.ts';
import { nodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { hover } from '../../server/src/features/hover.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { assertShortPoints } from '../helpers/messages.ts';

const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`).sort();
const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;
const capacity = { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() };
const dir = corpusDir('corpus-embedded');
const HEAD = 'apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: x\nspec:\n';

test('corpus-embedded 029: recognised as openshift; the one-signal evictionHard drops the kubelet defaults at line 7', { skip: !dir && 'no corpus' }, () => {
  const name = '029-openshift-kubeletconfig.yaml';
  const text = readFileSync(join(dir!, 'files', name), 'utf8');
  assert.equal(detectKind(name, text), 'openshift');
  const a = analyze([{ path: name, text }], { capacity });
  assert.equal(a.nodes.length, 1);
  assert.deepEqual(show(a.findings), ['7 information eviction-defaults-dropped']);
  assertShortPoints(a.findings);
  const node = a.nodes[0].node;
  // The user's systemReserved keys replace /etc/node-sizing.env's; ephemeral-storage 1Gi stays the MCO's.
  const sr = node.settings.get('systemReserved');
  assert.ok(sr?.kind === 'map');
  assert.deepEqual(sr.items.map((i) => `${i.key}=${i.text}`).sort(), ['cpu=250m', 'ephemeral-storage=1Gi', 'memory=1Gi']);
  assert.equal(describe(sr.items.find((i) => i.key === 'ephemeral-storage')!.from), 'OpenShift default (/etc/node-sizing.env)');
  assert.equal(describe(sr.items.find((i) => i.key === 'cpu')!.from), `systemReserved in spec.kubeletConfig in ${name} line 12`);
  const maxPods = node.settings.get('maxPods');
  assert.ok(maxPods?.kind === 'scalar');
  assert.equal(maxPods.text, '250');
  assert.equal(describe(maxPods.from), 'OpenShift MCO default');
  // 16 GiB - 1Gi kube - 1Gi system - 500Mi eviction; cpu 4000m - 250m - 250m.
  const al = a.nodes[0].allocatable;
  assert.equal(al.lines.memory.allocatable, 14n * GiB - 500n * MiB);
  assert.equal(al.lines.cpu.allocatable, 3500n);
  assert.equal(al.pods, 250n);
});

test('OpenShift without systemReserved: the MCO defaults cpu 500m, memory 1Gi, ephemeral-storage 1Gi are counted', () => {
  const a = analyze([{ path: 'kc.yaml', text: HEAD + '  kubeletConfig:\n    maxPods: 300\n' }], { capacity });
  assert.deepEqual(a.findings, []);
  const al = a.nodes[0].allocatable;
  assert.equal(al.lines.memory.systemReserved, GiB);
  assert.equal(al.lines.cpu.systemReserved, 500n);
  assert.equal(al.lines['ephemeral-storage'].systemReserved, GiB);
  assert.equal(al.pods, 300n);
});

test('OpenShift maps merge key by key over the template (mergo): kubeReserved of the user, systemReserved partly', () => {
  const a = analyze([{ path: 'kc.yaml', text: HEAD + '  kubeletConfig:\n    systemReserved:\n      memory: 3Gi\n' }], { capacity });
  const sr = a.nodes[0].node.settings.get('systemReserved');
  assert.ok(sr?.kind === 'map');
  assert.deepEqual(sr.items.map((i) => `${i.key}=${i.text}`).sort(), ['cpu=500m', 'ephemeral-storage=1Gi', 'memory=3Gi']);
});

test('autoSizingReserved: no number is invented for cpu and memory, allocatable says the node computes them', () => {
  const a = analyze([{ path: 'kc.yaml', text: HEAD + '  autoSizingReserved: true\n' }], { capacity });
  assert.equal(a.nodes.length, 1);
  assert.deepEqual(a.findings, []);
  const al = a.nodes[0].allocatable;
  assert.equal(al.lines.memory.systemReserved, 0n);
  assert.equal(al.lines['ephemeral-storage'].systemReserved, GiB);
  const notes = nodeAllocatable(a.nodes[0]).notes;
  assert.ok(notes.some((n) => /autoSizingReserved: the node computes system-reserved cpu and memory/.test(n)), notes.join('\n'));
});

test('OpenShift refuses featureGates, clusterDNS, failSwapOn, memorySwap.swapBehavior (helpers.go validateUserKubeletConfig)', () => {
  const text = HEAD + '  kubeletConfig:\n    featureGates:\n      X: true\n    clusterDNS: [1.1.1.1]\n    failSwapOn: false\n    memorySwap:\n      swapBehavior: LimitedSwap\n    cgroupDriver: systemd\n';
  const a = analyze([{ path: 'kc.yaml', text }]);
  assert.deepEqual(show(a.findings.filter((f) => f.code === 'platform-setting-refused')), ['10 error platform-setting-refused', '12 error platform-setting-refused', '13 error platform-setting-refused', '7 error platform-setting-refused', '9 error platform-setting-refused']);
  assertShortPoints(a.findings);
});

test('recognition: apiVersion and kind at column 0 only; a KubeletConfig without kubelet settings has no node', () => {
  assert.equal(detectKind('kc.yaml', HEAD + '  logLevel: 4\n'), 'openshift');
  assert.equal(analyze([{ path: 'kc.yaml', text: HEAD + '  logLevel: 4\n' }]).nodes.length, 0);
  assert.deepEqual(analyze([{ path: 'kc.yaml', text: HEAD + '  logLevel: 4\n' }]).findings, []);
  const nested = 'items:\n  - apiVersion: machineconfiguration.openshift.io/v1\n    kind: KubeletConfig\n    spec:\n      kubeletConfig:\n        maxPods: 1\n';
  assert.notEqual(detectKind('list.yaml', nested), 'openshift');
  // A MachineConfig is another kind of the same group.
  assert.notEqual(detectKind('mc.yaml', 'apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nspec: {}\n'), 'openshift');
});

test('hover over a field of spec.kubeletConfig names the field and the effective value', () => {
  const text = HEAD + '  kubeletConfig:\n    kubeReserved:\n      memory: 1Gi\n';
  const a = analyze([{ path: 'kc.yaml', text }], { capacity });
  assert.match(JSON.stringify(hover(a, 'kc.yaml', { line: 6, character: 6 })), /kubeReserved/);
});

test('docs/formats/openshift.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/openshift.md'), 'utf8');
  const example = page.split('```yaml\n')[1].split('```')[0];
  const a = analyze([{ path: 'kubeletconfig.yaml', text: example }]);
  assert.deepEqual(show(a.findings), ['10 information eviction-defaults-dropped', '12 error platform-config-invalid', '8 error platform-setting-refused']);
  assertShortPoints(a.findings);
});
