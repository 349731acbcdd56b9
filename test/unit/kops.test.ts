/**
 * kops Cluster / InstanceGroup and nodeup configs (server/src/formats/kops.ts): one node per InstanceGroup, the
 * Cluster's kubelet then the group's merged as kops's JSONMergeStruct does, flag-string fields read as their flags,
 * kops's defaults with provenance, findings at the user's lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { describe } from '../../server/src/node/provenance.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { applyEdits } from '../helpers/edits.ts';
import { assertShortPoints } from '../helpers/messages.ts';

const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`).sort();
const GiB = 1024n ** 3n;
const capacity = { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() };
const dir = corpusDir('corpus-embedded');
const CLUSTER = 'apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: c\nspec:\n  kubelet:\n';
const IG = (name: string, role: string, kubelet: string) => `---\napiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: ${name}\nspec:\n  role: ${role}\n${kubelet}`;

test('corpus-embedded 025: four groups, four nodes; memory 1G is reported at the group lines 126 and 129', { skip: !dir && 'no corpus' }, () => {
  const name = '025-kops-instancegroup-karpenter.yaml';
  const text = readFileSync(join(dir!, 'files', name), 'utf8');
  assert.equal(detectKind(name, text), 'kops');
  const a = analyze([{ path: name, text }], { capacity });
  assert.equal(a.nodes.length, 4);
  assert.deepEqual(show(a.findings), ['126 hint quantity-decimal-suffix', '129 hint quantity-decimal-suffix']);
  assertShortPoints(a.findings);
  const node = a.nodes.find((n) => n.node.settings.get('maxPods'))!.node;
  const eh = node.settings.get('evictionHard');
  assert.ok(eh?.kind === 'map');
  assert.deepEqual(eh.items.map((i) => `${i.key}<${i.text}`), ['memory.available<100Mi', 'nodefs.available<10%', 'nodefs.inodesFree<5%', 'imagefs.available<10%', 'imagefs.inodesFree<5%']);
  assert.equal(describe(eh.items[0].from), 'kops default');
  // kubeReserved memory 1G + systemReserved 1G + 100Mi eviction from 16 GiB.
  assert.equal(a.nodes.find((n) => n.node === node)!.allocatable.lines.memory.allocatable, 16n * GiB - 2_000_000_000n - 100n * 1024n ** 2n);
});

test('corpus-embedded 027: the nodeup config is kops\'s rendered result, read without kops defaults added', { skip: !dir && 'no corpus' }, () => {
  const name = '027-kops-nodeupconfig-generated.yaml';
  const text = readFileSync(join(dir!, 'files', name), 'utf8');
  assert.equal(detectKind(name, text), 'kops');
  const a = analyze([{ path: name, text }], { capacity });
  assert.equal(a.nodes.length, 1);
  assert.deepEqual(show(a.findings), ['40 hint quantity-decimal-suffix', '53 hint quantity-decimal-suffix']);
  const eh = a.nodes[0].node.settings.get('evictionHard');
  assert.ok(eh?.kind === 'map');
  assert.equal(eh.items.length, 5);
  assert.match(describe(eh.items[0].from), /^kops kubelet eviction-hard in /);
  // the flag string's items keep their own positions: imagefs.inodesFree is where the string names it
  const line = text.split('\n')[36];
  assert.equal(eh.items[4].keySpan?.range.start.character, line.indexOf('imagefs.inodesFree'));
});

test('the group\'s kubeReserved merges into the Cluster\'s by key; its evictionHard string replaces the Cluster\'s', () => {
  const text = CLUSTER + '    evictionHard: memory.available<300Mi,nodefs.available<5%\n    kubeReserved:\n      cpu: 200m\n      memory: 1Gi\n'
    + IG('nodes', 'Node', '  kubelet:\n    evictionHard: memory.available<500Mi\n    kubeReserved:\n      memory: 2Gi\n');
  const a = analyze([{ path: 'cluster.yaml', text }]);
  assert.equal(a.nodes.length, 1);
  const s = a.nodes[0].node.settings;
  const kr = s.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`).sort(), ['cpu=200m', 'memory=2Gi']);
  const eh = s.get('evictionHard');
  assert.ok(eh?.kind === 'map');
  assert.deepEqual(eh.items.map((i) => `${i.key}<${i.text}`), ['memory.available<500Mi']);
  // The Cluster's string is not passed; kops's defaults are gone too: the group's string names memory only.
  assert.deepEqual(show(a.findings), ['19 information eviction-defaults-dropped']);
});

test('enforceNodeAllocatable as a comma string is --enforce-node-allocatable; a bastion is no node; a control-plane group reads masterKubelet', () => {
  const text = CLUSTER.replace('  kubelet:\n', '  kubelet:\n    enforceNodeAllocatable: pods,system-reserved\n  masterKubelet:\n    maxPods: 30\n')
    + IG('bastions', 'Bastion', '') + IG('master-a', 'Master', '');
  const a = analyze([{ path: 'cluster.yaml', text }]);
  assert.equal(a.nodes.length, 1);
  const s = a.nodes[0].node.settings;
  const en = s.get('enforceNodeAllocatable');
  assert.ok(en?.kind === 'list');
  assert.deepEqual(en.items.map((i) => i.text), ['pods', 'system-reserved']);
  assert.equal(s.get('maxPods')?.kind === 'scalar' && s.get('maxPods')!.kind === 'scalar' ? (s.get('maxPods') as { text: string }).text : undefined, '30');
  // system-reserved enforced without systemReservedCgroup: the existing rule fires at the string in the Cluster.
  assert.ok(a.findings.some((f) => f.range.start.line === 6), show(a.findings).join());
});

test('recognition: apiVersion and kind at column 0; a kops file without kubelet settings has no node', () => {
  assert.equal(detectKind('ig.yaml', IG('nodes', 'Node', '').slice(4)), 'kops');
  assert.notEqual(detectKind('x.yaml', 'items:\n  - apiVersion: kops.k8s.io/v1alpha2\n    kind: Cluster\n'), 'kops');
  const a = analyze([{ path: 'ig.yaml', text: IG('nodes', 'Node', '  machineType: t3.large\n').slice(4) }]);
  assert.equal(a.nodes.length, 0);
  assert.deepEqual(a.findings, []);
});

test('a quick fix inside an InstanceGroup edits the kops file; re-analysed, the finding is gone', () => {
  const text = IG('nodes', 'Node', '  kubelet:\n    kubeReserved:\n      memroy: 2Gi\n').slice(4);
  const a = analyze([{ path: 'ig.yaml', text }]);
  const f = a.findings.find((x) => x.code === 'reserved-resource-unknown');
  assert.ok(f, show(a.findings).join());
  const fixed = applyEdits(text, f.fixes![0].edits);
  assert.match(fixed, /\n {6}memory: 2Gi\n/);
  assert.deepEqual(analyze([{ path: 'ig.yaml', text: fixed }]).findings, []);
});

test('docs/formats/kops.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/kops.md'), 'utf8');
  const example = page.split('```yaml\n')[1].split('```')[0];
  const a = analyze([{ path: 'cluster.yaml', text: example }]);
  assert.deepEqual(show(a.findings), ['18 information eviction-defaults-dropped', '20 error reserved-resource-unknown', '9 hint quantity-decimal-suffix']);
  assertShortPoints(a.findings);
});

test('an InstanceGroup\'s machineType gives its node\'s capacity (t2.medium in corpus 025)', { skip: !dir && 'no corpus' }, () => {
  const name = '025-kops-instancegroup-karpenter.yaml';
  const a = analyze([{ path: name, text: readFileSync(join(dir!, 'files', name), 'utf8') }]);
  const sources = a.nodes.map((n) => n.node.capacitySource ?? '').sort();
  assert.equal(sources.length, 4);
  assert.match(sources[1], new RegExp(`^m3\\.medium: .*machineType in ${name} line 79$`));
  assert.match(sources[3], new RegExp(`^t2\\.medium: .*machineType in ${name} line 98$`));
  assert.equal(sources[0], '');
});

test('a YAML error on the line right after a kubelet block is the file\'s, not the block\'s: kops cannot read it, and says so', () => {
  // The block's range ends where the next line starts; an error there was taken as inside the block and dropped.
  const text = 'apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: nodes\nspec:\n  role: Node\n  kubelet:\n    maxPods: 50\nbroken\n';
  const a = analyze([{ path: 'ig.yaml', text }]);
  assert.equal(a.nodes.length, 0);
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`), ['9 config-syntax']);
});

test('findings about a field kops passes as a flag say its kops name: evictionHard, not --eviction-hard', () => {
  const text = CLUSTER + '    evictionHard: memory.available<0Mi,nodefs.available<10%\n' + IG('nodes', 'Node', '');
  const a = analyze([{ path: 'kops/cluster.yaml', text }], { capacity });
  const f = a.findings.find((x) => x.code === 'eviction-syntax');
  assert.ok(f, show(a.findings).join('\n'));
  assert.match(f.message, /^evictionHard memory\.available: eviction threshold memory\.available must be positive/);
  assert.doesNotMatch(f.message, /--eviction-hard/);
});

test('kops sets its graceful-shutdown periods only for Kubernetes 1.21 or newer (pkg/model/components/kubelet.go at v1.24.0): a 1.20 cluster gets none, and no refusal for a gate that is off (seventh first-sight batch)', () => {
  const cluster = (v: string) => `apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: demo.k8s.local\nspec:\n  kubelet:\n    anonymousAuth: false\n  kubernetesVersion: ${v}\n  networking:\n    calico: {}\n`;
  const old = analyze([{ path: 'kops/cluster.yaml', text: cluster('1.20.7') }]);
  assert.deepEqual(old.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code), []);
  const node = old.nodes[0].node;
  assert.equal(node.settings.get('shutdownGracePeriod'), undefined);
  assert.equal(node.settings.get('cgroupDriver')?.kind, 'scalar', 'systemd from 1.20');
  assert.equal(node.settings.get('protectKernelDefaults'), undefined, 'from 1.22');
  const recent = analyze([{ path: 'kops/cluster.yaml', text: cluster('1.30.2') }]).nodes[0].node;
  assert.equal(recent.settings.get('shutdownGracePeriod')?.from.label, 'kops default');
});
