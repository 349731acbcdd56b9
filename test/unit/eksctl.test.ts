/**
 * eksctl ClusterConfig (server/src/formats/eksctl.ts): each nodeGroups[].kubeletExtraConfig is a node of its own,
 * merged over nodeadm's config as eksctl's AL2023 bootstrap does (eksctl pkg/nodebootstrap/al2023.go), findings and
 * fixes at the user's lines in the ClusterConfig.
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
import { completionAt, hoverAt, inlayHintsIn } from '../../server/src/features/embedded.ts';
import { assertShortPoints } from '../helpers/messages.ts';
import { candidateAllocatables } from '../../server/src/features/allocatable-candidates.ts';

const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`).sort();
const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;
const capacity = { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() };
const dir = corpusDir('corpus-embedded');
const HEAD = 'apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: c\nnodeGroups:\n';

test('corpus-embedded 026: two node groups, two nodes; kubeReservedCgroup without enforcement reported at lines 41 and 80', { skip: !dir && 'no corpus' }, () => {
  const name = '026-eksctl-clusterconfig-kubeletextraconfig.yaml';
  const text = readFileSync(join(dir!, 'files', name), 'utf8');
  assert.equal(detectKind(name, text), 'eksctl');
  const a = analyze([{ path: name, text }], { capacity });
  assert.equal(a.nodes.length, 2);
  // Not enforced, so the slice name systemd would read is never looked up (reserved-cgroup-systemd-name stays quiet).
  assert.deepEqual(show(a.findings), ['41 hint reserved-cgroup-unused', '80 hint reserved-cgroup-unused']);
  assert.ok(a.findings.every((f) => f.file === name));
  assertShortPoints(a.findings);
  // evictionHard merges into nodeadm's map (JSON merge patch): nodefs.inodesFree 5% survives, so no default is
  // dropped; the MANIFEST's "drops nodefs.inodesFree" holds only for a base without it.
  const eh = a.nodes[0].node.settings.get('evictionHard');
  assert.ok(eh?.kind === 'map');
  assert.deepEqual(eh.items.map((i) => `${i.key}=${i.text}`).sort(), ['memory.available=200Mi', 'nodefs.available=5%', 'nodefs.inodesFree=5%']);
  assert.equal(describe(eh.items.find((i) => i.key === 'nodefs.inodesFree')!.from), 'nodeadm default');
  assert.match(describe(eh.items.find((i) => i.key === 'memory.available')!.from), /^evictionHard in kubeletExtraConfig/);
  // The group's instanceType t3.medium (4 GiB) wins over the analysis's capacity: 4 GiB - 300Mi kube - 300Mi system
  // - 200Mi eviction.
  assert.equal(a.nodes[0].allocatable.lines.memory.allocatable, 4n * GiB - 800n * MiB);
});

test('eksctl refuses serverTLSBootstrap, address, authentication in kubeletExtraConfig (validation.go)', () => {
  const text = HEAD + '  - name: a\n    kubeletExtraConfig:\n      serverTLSBootstrap: false\n      maxPods: 20\n      address: 0.0.0.0\n  - name: b\n    kubeletExtraConfig: {authentication: {}}\n';
  const a = analyze([{ path: 'cluster.yaml', text }]);
  assert.equal(a.nodes.length, 2);
  assert.deepEqual(show(a.findings), ['10 error platform-setting-refused', '12 error platform-setting-refused', '8 error platform-setting-refused']);
  assert.equal(a.findings.find((f) => f.range.start.line === 11)?.range.start.character, 25);
  assertShortPoints(a.findings);
});

test('a quick fix inside kubeletExtraConfig edits the ClusterConfig with the fragment indentation; re-analysed, the finding is gone', () => {
  const text = HEAD + '  - name: a\n    kubeletExtraConfig:\n      evictionSoft:\n        memory.available: 500Mi\n';
  const a = analyze([{ path: 'cluster.yaml', text }]);
  const f = a.findings.find((x) => x.code === 'eviction-soft-without-grace');
  assert.ok(f, show(a.findings).join());
  assert.equal(f.range.start.line, 8);
  const fixed = applyEdits(text, f.fixes![0].edits);
  assert.match(fixed, /\n {6}evictionSoftGracePeriod:\n {8}memory\.available: /);
  assert.deepEqual(analyze([{ path: 'cluster.yaml', text: fixed }]).findings.filter((x) => x.code === 'eviction-soft-without-grace'), []);
});

test('recognition: apiVersion and kind at column 0; no kubeletExtraConfig, or only on managedNodeGroups, is no node', () => {
  assert.equal(detectKind('cluster.yaml', HEAD + '  - name: a\n'), 'eksctl');
  assert.notEqual(detectKind('x.yaml', 'spec:\n  apiVersion: eksctl.io/v1alpha5\n  kind: ClusterConfig\n'), 'eksctl');
  for (const body of ['  - name: a\n    instanceType: m5.large\n', '  - name: a\n    kubeletExtraConfig: {}\n']) {
    const a = analyze([{ path: 'cluster.yaml', text: HEAD + body }]);
    assert.equal(a.nodes.length, 0);
    assert.deepEqual(a.findings, []);
  }
  const managed = 'apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmanagedNodeGroups:\n  - name: m\n    kubeletExtraConfig:\n      maxPods: 1\n';
  assert.equal(analyze([{ path: 'cluster.yaml', text: managed }]).nodes.length, 0);
});

test('docs/formats/eksctl.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/eksctl.md'), 'utf8');
  const example = page.split('```yaml\n')[1].split('```')[0];
  const a = analyze([{ path: 'cluster.yaml', text: example }]);
  assert.deepEqual(show(a.findings), ['10 error platform-setting-refused', '11 hint reserved-cgroup-unused', '13 error eviction-soft-without-grace']);
  const fix = a.findings.find((f) => f.code === 'eviction-soft-without-grace')!.fixes![0].edits[0];
  assert.match(fix.newText, /^ {6}evictionSoftGracePeriod:\n/);
  assertShortPoints(a.findings);
});

test('editor inside kubeletExtraConfig: hover of a field, completion of root fields on a blank line of the block, allocatable inlay hint', () => {
  const text = HEAD + '  - name: a\n    kubeletExtraConfig:\n      kubeReserved:\n        memory: 1Gi\n      \n';
  const a = analyze([{ path: 'cluster.yaml', text }], { capacity: { cpu: 4000n, memory: 8n * GiB, hugepages: new Map() } });
  assert.match(JSON.stringify(hoverAt(a, 'cluster.yaml', { line: 7, character: 8 })), /kubeReserved/);
  const keys = completionAt(a, 'cluster.yaml', { line: 9, character: 6 }).map((c) => c.label);
  assert.ok(keys.includes('maxPods') && !keys.includes('kind') && !keys.includes('kubeReserved'), keys.slice(0, 5).join());
  const hints = inlayHintsIn(a, 'cluster.yaml', { start: { line: 0, character: 0 }, end: { line: 10, character: 0 } });
  assert.equal(hints.length, 1);
  // 8 GiB - 1Gi kube-reserved - 100Mi nodeadm hard eviction.
  assert.match(String(hints[0].label), /6\.9 GiB/);
});

test('the node group\'s instanceType gives the capacity (t3.medium: 2 vCPU, 4 GiB, 17 pods); nodeadm sizes maxPods and kubeReserved from it', { skip: !dir && 'no corpus' }, () => {
  const name = '026-eksctl-clusterconfig-kubeletextraconfig.yaml';
  const a = analyze([{ path: name, text: readFileSync(join(dir!, 'files', name), 'utf8') }]);
  const n = a.nodes.find((x) => x.node.capacitySource)!;
  assert.match(n.node.capacitySource!, new RegExp(`^t3\\.medium: .*instanceType in ${name} line 25$`));
  assert.equal(n.allocatable.pods, 17n);
  // mixed instances with template placeholders name no type: no capacity, nothing invented
  assert.equal(a.nodes.filter((x) => !x.node.capacitySource).length, 1);
});

test('a mixed node group: each candidate type\'s allocatable has nodeadm\'s kube-reserved and max pods of that type', () => {
  const text = `${HEAD}  - name: ng\n    instancesDistribution:\n      instanceTypes: [m5.large, m5.4xlarge]\n    kubeletExtraConfig:\n      systemReserved:\n        memory: 100Mi\n`;
  const node = analyze([{ path: 'c.yaml', text }]).nodes[0].node;
  // m5.large: 29 pods, 11 × 29 + 255 = 574Mi, 70m; m5.4xlarge: 234 pods, 2829Mi, 110m (nodeadm getCPUMillicoresToReserve)
  assert.deepEqual(candidateAllocatables(node).map((r) => `${r.name} ${r.cpu} ${r.memory} ${r.pods}`), ['m5.large 1.93 CPU 7.24 GiB 29', 'm5.4xlarge 15.89 CPU 61.04 GiB 234']);
});

test('a key being typed in kubeletExtraConfig (no colon yet) keeps the node group and completes; a YAML error elsewhere still stops the file', () => {
  const typing = `${HEAD}  - name: ng1\n    kubeletExtraConfig:\n      maxPods: 20\n      kubeRes\n  - name: ng2\n`;
  const a = analyze([{ path: 'cluster.yaml', text: typing }]);
  // Before, the whole ClusterConfig was unreadable while the key was typed: no node, no completion.
  assert.equal(a.nodes.length, 1);
  const syntax = a.findings.filter((f) => f.code === 'config-syntax');
  assert.deepEqual(syntax.map((f) => `${f.file} ${f.range.start.line + 1}`), ['cluster.yaml 9'], 'reported once, where it is');
  const labels = completionAt(a, 'cluster.yaml', { line: 8, character: 13 }).map((i) => i.label);
  assert.ok(labels.includes('kubeReserved'), labels.slice(0, 5).join(', '));
  const broken = `${HEAD}  - name: ng1\n    kubeletExtraConfig:\n      maxPods: 20\nmetadata2\n`;
  const b = analyze([{ path: 'cluster.yaml', text: broken }]);
  assert.equal(b.nodes.length, 0);
  assert.match(b.findings.find((f) => f.code === 'config-syntax')?.message ?? '', /^eksctl cannot read this ClusterConfig/);
});
