// Completion inside a platform's block of kubelet settings offers what that platform accepts (features/embedded.ts
// completionAt on the carrier, as the editor asks): Karpenter's typed fields and eviction signals, kops's own names
// and value shapes, not the keys eksctl forbids or Talos protects. `|` marks the cursor in each fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem } from 'vscode-languageserver-types';
import { analyze } from '../../server/src/engine.ts';
import { completionAt } from '../../server/src/features/embedded.ts';
import { KUBELET_FIELDS, SIGNALS } from '../../server/src/platforms/karpenter/karpenter.ts';
import { CONFIG_FIELDS, FLAG_FIELDS } from '../../server/src/platforms/kops/parse-kops.ts';
import { platformOf } from '../../server/src/registry.ts';

/** The top-level fields a platform declares it refuses (platforms/<id>/index.ts). */
const refusedBy = (id: string): string[] => (platformOf(id)?.refused?.({ tool: id, span: { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, gates: [] }) ?? []).map((r) => r.field).filter((f) => !f.includes('.'));
const EKSCTL_FORBIDDEN = refusedBy('eksctl');
const TALOS_PROTECTED = refusedBy('talos');
const OPENSHIFT_REFUSED = refusedBy('openshift');

function at(path: string, fixture: string, snippets = true): CompletionItem[] {
  const lines = fixture.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line].indexOf('|');
  lines[line] = lines[line].replace('|', '');
  return completionAt(analyze([{ path, text: lines.join('\n') }]), path, { line, character }, undefined, { snippets });
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label).sort();
const newText = (i: CompletionItem | undefined) => (i?.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : i?.insertText);
const sorted = (xs: Iterable<string>) => [...xs].sort();

const EC2 = (kubelet: string) => `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2023
  kubelet:
${kubelet}`;

test('Karpenter EC2NodeClass spec.kubelet offers the twelve fields Karpenter accepts, less those present, and no other', () => {
  const items = at('ec2nodeclass.yaml', EC2('    maxPods: 110\n    |\n'));
  assert.deepEqual(labels(items), sorted(KUBELET_FIELDS.filter((f) => f !== 'maxPods')));
  for (const other of ['enableServer', 'staticPodPath', 'cgroupDriver', 'featureGates', 'maxPods']) assert.ok(!labels(items).includes(other), other);
  // A key being typed (no colon yet) gets the same list.
  assert.deepEqual(labels(at('ec2nodeclass.yaml', EC2('    maxPods: 110\n    enableS|\n'))), sorted(KUBELET_FIELDS.filter((f) => f !== 'maxPods')));
});

test("Karpenter eviction maps offer only Karpenter's six signals, as keys and in a new field's snippet", () => {
  const inside = at('ec2nodeclass.yaml', EC2('    evictionHard:\n      memory.available: 5%\n      |\n'));
  assert.deepEqual(labels(inside), sorted(SIGNALS.filter((s) => s !== 'memory.available')));
  const first = at('ec2nodeclass.yaml', EC2('    maxPods: 10\n    evictionSoft:\n      |\n'));
  assert.deepEqual(labels(first), sorted(SIGNALS));
  const snippet = newText(at('ec2nodeclass.yaml', EC2('    maxPods: 10\n    |\n')).find((i) => i.label === 'evictionSoft'));
  assert.equal(snippet, `evictionSoft:\n      \${1|${SIGNALS.join(',')}|}: $2`);
  assert.doesNotMatch(snippet!, /allocatableMemory|containerfs/);
});

test('Karpenter v1beta1 NodePool offers the same fields; a v1alpha5 Provisioner also its containerRuntime', () => {
  const pool = at('nodepool.yaml', `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      kubelet:
        podsPerCore: 2
        |
`);
  assert.deepEqual(labels(pool), sorted(KUBELET_FIELDS.filter((f) => f !== 'podsPerCore')));
  const provisioner = at('provisioner.yaml', `apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata:
  name: default
spec:
  kubeletConfiguration:
    podsPerCore: 2
    |
`);
  assert.deepEqual(labels(provisioner), sorted([...KUBELET_FIELDS.filter((f) => f !== 'podsPerCore'), 'containerRuntime']));
});

const KOPS = `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: c.example.com
spec:
  kubelet:
    maxPods: 100
`;
const KOPS_NAMES = sorted(new Set([...CONFIG_FIELDS, ...Object.keys(FLAG_FIELDS)]));

test("kops spec.kubelet offers the names kops reads, less those present, and none of the kubelet's others", () => {
  const items = at('cluster.yaml', KOPS + '    |\n');
  assert.deepEqual(labels(items), KOPS_NAMES.filter((k) => k !== 'maxPods'));
  for (const kopsOnly of ['logLevel', 'anonymousAuth', 'podManifestPath', 'nodeLabels', 'taints']) assert.ok(labels(items).includes(kopsOnly), kopsOnly);
  for (const other of ['staticPodPath', 'enableServer', 'authentication', 'maxPods']) assert.ok(!labels(items).includes(other), other);
  // The documentation of a kops name says which flag kops passes.
  const doc = items.find((i) => i.label === 'logLevel')?.documentation;
  assert.match(typeof doc === 'object' ? doc.value : String(doc), /`--v`/);
  // While a key is typed, before its colon (an error in the block until then), the names are still offered.
  assert.deepEqual(labels(at('cluster.yaml', KOPS + '    evic|\n')), KOPS_NAMES.filter((k) => k !== 'maxPods'));
});

test("kops evictionHard is a flag string: its completion inserts no map, and no signal keys are offered under it", () => {
  const items = at('cluster.yaml', KOPS + '    |\n');
  assert.equal(newText(items.find((i) => i.label === 'evictionHard')), 'evictionHard: ');
  assert.equal(newText(items.find((i) => i.label === 'enforceNodeAllocatable')), 'enforceNodeAllocatable: ');
  // A field kops shares with the KubeletConfiguration keeps the kubelet's shape.
  assert.equal(newText(items.find((i) => i.label === 'kubeReserved')), 'kubeReserved:\n  ${1|cpu,memory,ephemeral-storage,pid|}: $2');
  assert.deepEqual(at('cluster.yaml', KOPS + '    evictionHard:\n      |\n'), []);
  assert.deepEqual(labels(at('cluster.yaml', KOPS + '    kubeReserved:\n      cpu: 100m\n      |\n')), ['ephemeral-storage', 'memory', 'pid']);
});

test('kops masterKubelet and InstanceGroup spec.kubelet offer the kops names too, each block its own present keys', () => {
  const master = at('cluster.yaml', KOPS + '  masterKubelet:\n    logLevel: 2\n    |\n');
  assert.deepEqual(labels(master), KOPS_NAMES.filter((k) => k !== 'logLevel'));
  const group = at('cluster.yaml', KOPS + `---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
spec:
  role: Node
  kubelet:
    anonymousAuth: false
    |
`);
  // maxPods is the Cluster's; the group may set it again over it.
  assert.deepEqual(labels(group), KOPS_NAMES.filter((k) => k !== 'anonymousAuth'));
});

test('eksctl kubeletExtraConfig does not offer the keys eksctl forbids; Talos extraConfig not the fields Talos protects', () => {
  const eksctl = labels(at('cluster.yaml', `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: c
  region: us-east-1
nodeGroups:
  - name: ng1
    kubeletExtraConfig:
      maxPods: 20
      |
`));
  for (const k of EKSCTL_FORBIDDEN) assert.ok(!eksctl.includes(k), k);
  for (const k of ['kubeReserved', 'evictionHard', 'staticPodPath']) assert.ok(eksctl.includes(k), k);
  assert.ok(!eksctl.includes('maxPods'));
  const talos = labels(at('worker.yaml', `version: v1alpha1
machine:
  type: worker
  kubelet:
    extraConfig:
      maxPods: 20
      |
`));
  for (const k of TALOS_PROTECTED) assert.ok(!talos.includes(k), k);
  for (const k of ['kubeReserved', 'podsPerCore', 'address']) assert.ok(talos.includes(k), k);
  // nodeadm refuses no field of kubelet.config: it still offers them (but never apiVersion or kind, which it writes).
  const nodeadm = labels(at('nodeconfig.yaml', `apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  kubelet:
    config:
      maxPods: 20
      |
`));
  for (const k of ['staticPodPath', 'authentication', 'clusterDomain', 'kubeReserved']) assert.ok(nodeadm.includes(k), k);
  for (const k of ['apiVersion', 'kind', 'maxPods']) assert.ok(!nodeadm.includes(k), k);
});

test('OpenShift spec.kubeletConfig does not offer the fields the MCO refuses (validateUserKubeletConfig)', () => {
  const openshift = labels(at('kubeletconfig.yaml', `apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata:
  name: set-max-pods
spec:
  machineConfigPoolSelector:
    matchLabels:
      pools.operator.machineconfiguration.openshift.io/worker: ""
  kubeletConfig:
    maxPods: 250
    |
`));
  for (const k of OPENSHIFT_REFUSED) assert.ok(!openshift.includes(k), k);
  for (const k of ['kubeReserved', 'systemReserved', 'evictionHard']) assert.ok(openshift.includes(k), k);
});
