/**
 * Kubelet settings inside Kubernetes objects (formats/cluster-api.ts, kind-cluster.ts, karpenter.ts): each block is
 * analysed as the kubeadm document or KubeletConfiguration it is, and everything lands at the user's lines. Each
 * comparison is with the same settings written as a bare file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { describe } from '../../server/src/node/provenance.ts';
import { assertShortPoints } from '../helpers/messages.ts';
import { analyze } from '../../server/src/engine.ts';
import { ParseCache } from '../../server/src/node/parse-cache.ts';
import { EVICTION_SIGNALS } from '../../server/src/catalog/defaults.ts';
import { karpenterPayloads, KUBELET_ONLY_SIGNALS, SIGNALS } from '../../server/src/platforms/karpenter/karpenter.ts';
import { detectKind } from '../../server/src/registry.ts';
import { hover } from '../../server/src/features/hover.ts';
import { candidateAllocatables } from '../../server/src/features/allocatable-candidates.ts';
import { completionAt, hoverAt } from '../../server/src/features/embedded.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { applyEdits } from '../helpers/edits.ts';
import { textToHost } from '../../server/src/embed/to-host.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { carrierProperty } from '../helpers/carrier-property.ts';

const key = (f: Finding, dl = 0, dc = 0) =>
  `${f.code} ${f.severity} ${f.range.start.line + dl}:${f.range.start.character + dc}-${f.range.end.line + dl}:${f.range.end.character + dc} ${f.message}`;
const indent = (text: string, n: number) => text.replace(/^(?=.)/gm, ' '.repeat(n));
const HOST = 'clusters/prod.yaml';

// ---------- recognition ----------

test('recognised by apiVersion at column 0, anywhere in a stream; an indented apiVersion is not the file\'s', () => {
  assert.equal(detectKind('a.yaml', 'apiVersion: v1\nkind: Namespace\n---\napiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfigTemplate\n'), 'cluster-api');
  assert.equal(detectKind('a.yaml', 'kind: KubeadmControlPlane\napiVersion: controlplane.cluster.x-k8s.io/v1beta1\n'), 'cluster-api');
  assert.equal(detectKind('a.yaml', 'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n'), 'karpenter');
  assert.equal(detectKind('a.yml', 'apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\n'), 'karpenter');
  assert.equal(detectKind('a.yaml', 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n'), 'kind-cluster');
  // indented: a document inside another one (a Helm values file, a ConfigMap)
  assert.equal(detectKind('a.yaml', 'values:\n  apiVersion: karpenter.k8s.aws/v1\n  kind: EC2NodeClass\n'), undefined);
  assert.equal(detectKind('a.yaml', 'data:\n  x: |\n    apiVersion: bootstrap.cluster.x-k8s.io/v1beta2\n'), undefined);
  // a kind config is a Cluster; kind.x-k8s.io alone is not enough
  assert.equal(detectKind('a.yaml', 'kind: Other\napiVersion: kind.x-k8s.io/v1alpha4\n'), undefined);
});

test('a file of these formats with no kubelet settings gets no findings and no node', () => {
  const texts = [
    'apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\n---\napiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfigTemplate\nmetadata:\n  name: w\nspec:\n  template:\n    spec:\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n',
    'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: default\nspec:\n  role: KarpenterNodeRole\n  amiSelectorTerms:\n    - alias: al2023@latest\n',
    'kind: Cluster\napiVersion: kind.sigs.k8s.io/v1alpha3\nnodes:\n- role: control-plane\n',
  ];
  for (const text of texts) {
    const a = analyze([{ path: HOST, text }]);
    assert.deepEqual(a.findings.map((f) => key(f)), [], text);
    assert.equal(a.nodes.length, 0, text);
  }
});

// ---------- Karpenter: a KubeletConfiguration cut out of the user's YAML ----------

const CONFIG = `evictionSoft:
  memory.available: 200Mi
kubeReserved:
  memroy: 1Gi
  cpu: 100m
maxPods: 110
`;
const HEADER = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

function nodeClass(config: string): { text: string; first: number } {
  const head = 'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: default\nspec:\n  amiSelectorTerms:\n    - alias: al2023@latest\n  kubelet:\n';
  return { text: head + indent(config, 4) + '  role: KarpenterNodeRole\n', first: head.split('\n').length - 1 };
}

test('Karpenter spec.kubelet: the bare KubeletConfiguration\'s findings, at the user\'s lines; plus Karpenter\'s own refusals', () => {
  const { text, first } = nodeClass(CONFIG);
  const got = analyze([{ path: HOST, text }]).findings;
  const bare = analyze([{ path: 'kubelet.yaml', text: HEADER + CONFIG }]).findings;
  assert.ok(bare.length >= 2, bare.map((f) => key(f)).join('\n'));
  // Karpenter refuses memroy and the soft threshold without a grace period too, but so does the kubelet: one finding each.
  const want = bare.filter((f) => f.code !== 'reservations-missing').map((f) => key(f, first - 2, 4));
  assert.deepEqual(got.map((f) => key(f)).sort(), want.sort());
  for (const f of got) assert.equal(f.file, HOST);
});

/** What Karpenter reads: spec.kubelet of the first document, as data. */
const kubeletOf = (text: string) => {
  const docs = parseAllDocuments(text);
  assert.ok(Array.isArray(docs));
  for (const d of docs) assert.deepEqual(d.errors, [], text);
  return (docs[0].toJS() as { spec: { kubelet: unknown } }).spec.kubelet;
};

test('every quick fix applied to spec.kubelet gives the settings the same fix gives the bare file (lines inserted at the block\'s indentation)', () => {
  const { text } = nodeClass(CONFIG);
  const fixed = analyze([{ path: HOST, text }]).findings.filter((f) => f.fixes?.length);
  const bareText = HEADER + CONFIG;
  const bare = analyze([{ path: 'kubelet.yaml', text: bareText }]).findings.filter((f) => f.fixes?.length);
  assert.ok(fixed.length >= 2, fixed.map((f) => key(f)).join('\n'));
  assert.equal(fixed.length, bare.length);
  let inserted = 0;
  for (const f of fixed) {
    const b = bare.find((x) => x.code === f.code && x.message === f.message);
    assert.ok(b, key(f));
    for (const [i, fix] of f.fixes!.entries()) {
      if (fix.edits.some((e) => e.newText.includes('\n'))) inserted++;
      const after = applyEdits(text, fix.edits, HOST);
      const bareAfter = parseAllDocuments(applyEdits(bareText, b.fixes![i].edits, 'kubelet.yaml'));
      const want = (Array.isArray(bareAfter) ? bareAfter[0].toJS() : {}) as Record<string, unknown>;
      delete want.apiVersion;
      delete want.kind;
      assert.deepEqual(kubeletOf(after), want, `${fix.title} (${f.code})`);
      // and the rest of the object is untouched
      assert.match(after, /\n {2}role: KarpenterNodeRole\n$/);
    }
  }
  assert.ok(inserted >= 1, 'at least one fix inserts lines');
});

test('hover and completion inside spec.kubelet are the KubeletConfiguration\'s', () => {
  const { text, first } = nodeClass(CONFIG);
  const a = analyze([{ path: HOST, text }]);
  const b = analyze([{ path: 'kubelet.yaml', text: HEADER + CONFIG }]);
  const line = first + 5; // maxPods
  const h = hoverAt(a, HOST, { line, character: 6 });
  const bh = hover(b, 'kubelet.yaml', { line: 7, character: 2 });
  assert.ok(h && bh);
  // the same field text; the place is cited at the user's line, named by its object; the node table (first) is Karpenter's
  const [table, field] = (h.contents as { value: string }).value.replaceAll(`${HOST} → /default/karpenter-kubelet.yaml`, 'kubelet.yaml').split('\n---\n');
  const [, bareField] = (bh.contents as { value: string }).value.split('\n---\n');
  assert.equal(field, bareField.replace('`maxPods in kubelet.yaml line 8`', `\`maxPods in EC2NodeClass spec.kubelet in ${HOST} line ${line + 1}\``));
  // Karpenter's assumed kube-reserved (types.go kubeReservedResources): 11 × 110 + 255 = 1465 MiB, 1Gi of disk; cpu as written
  assert.match(table, /\| memory \| \? \| 1\.43 GiB \(1536163840 bytes\) \| 0 B \| 100 MiB/);
  assert.match(table, /\| ephemeral-storage \| \? \| 1 GiB \| 0 B \| \? \(nodefs\.available<10%\)/);
  assert.match(table, /\| cpu \| \? \| 100m CPU \|/);
  assert.equal(h.range!.start.line, line);
  const typed = text.replace('    maxPods: 110\n', '    podsPerC\n');
  const items = completionAt(analyze([{ path: HOST, text: typed }]), HOST, { line, character: 12 });
  const item = items.find((i) => i.label === 'podsPerCore');
  assert.ok(item && item.textEdit && 'range' in item.textEdit);
  assert.equal(item.textEdit.range.start.character, 4);
});

test('NodePool v1beta1 and Provisioner v1alpha5 hold the same fragment at their own paths', () => {
  const pool = 'apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: p\nspec:\n  template:\n    spec:\n      kubelet:\n        maxPods: abc\n';
  const prov = 'apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  name: p\nspec:\n  kubeletConfiguration:\n    evictionHard:\n      memory.available: 5%\n      containerfs.available: 1Gi\n';
  const a = analyze([{ path: HOST, text: pool }]);
  assert.ok(a.findings.some((f) => f.severity === 'error' && f.range.start.line === 8 && f.range.start.character === 17), a.findings.map((f) => key(f)).join('\n'));
  const b = analyze([{ path: HOST, text: prov }]);
  assert.ok(b.findings.some((f) => f.code === 'karpenter-kubelet-invalid' && f.range.start.line === 8 && /containerfs\.available/.test(f.message)), b.findings.map((f) => key(f)).join('\n'));
  assert.equal(b.nodes.length, 1);
});

test('Karpenter\'s six signals and the ones only the kubelet takes are together the kubelet\'s signal list', () => {
  assert.deepEqual([...SIGNALS, ...KUBELET_ONLY_SIGNALS].sort(), EVICTION_SIGNALS.map((s) => s.signal).sort());
});

test('Karpenter refuses what the kubelet takes: signals outside its six, a grace period without a threshold', () => {
  const text = nodeClass('evictionHard:\n  allocatableMemory.available: 5%\nevictionSoftGracePeriod:\n  nodefs.available: 1m\n').text;
  const got = analyze([{ path: HOST, text }]).findings.filter((f) => f.code === 'karpenter-kubelet-invalid').map((f) => f.message);
  assert.deepEqual(got.sort(), [
    'Karpenter refuses evictionHard signal "allocatableMemory.available" in EC2NodeClass spec.kubelet. It allows only memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, pid.available.',
    'Karpenter refuses evictionSoftGracePeriod nodefs.available without an evictionSoft threshold for it.',
  ]);
});

test('a reservation only in userData is reported at userData; in spec.kubelet too, it is not', () => {
  const ud = '  userData: |\n    apiVersion: node.eks.aws/v1alpha1\n    kind: NodeConfig\n    spec:\n      kubelet:\n        config:\n          systemReserved:\n            cpu: 1000m\n';
  const base = 'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: d\nspec:\n';
  const only = analyze([{ path: HOST, text: base + ud }]).findings;
  assert.deepEqual(only.map((f) => key(f)), ['karpenter-reserved-in-userdata warning 5:2-5:10 Karpenter does not see the systemReserved set in userData: it schedules as if it were not reserved. Set it in spec.kubelet too.']);
  const both = analyze([{ path: HOST, text: base + '  kubelet:\n    systemReserved:\n      cpu: 1000m\n' + ud }]).findings;
  assert.deepEqual(both.map((f) => key(f)), []);
});

// ---------- Cluster API: kubeletExtraArgs read as kubeadm's ----------

const ARGS_LIST = `- name: eviction-hard
  value: "memory.available<5%"
- name: max-pod
  value: "50"
- name: cgroup-driver
  value: systemd
`;
const ARGS_MAP = `eviction-hard: "memory.available<5%"
max-pod: "50"
cgroup-driver: systemd
`;

function capi(version: 'v1beta1' | 'v1beta2', args: string): { text: string; first: number } {
  const head = `apiVersion: cluster.x-k8s.io/${version}\nkind: Cluster\nmetadata:\n  name: c\n---\napiVersion: bootstrap.cluster.x-k8s.io/${version}\nkind: KubeadmConfigTemplate\nmetadata:\n  name: workers\nspec:\n  template:\n    spec:\n      joinConfiguration:\n        nodeRegistration:\n          kubeletExtraArgs:\n`;
  return { text: head + indent(args, 12) + '      files: []\n', first: head.split('\n').length - 1 };
}

for (const [version, args, api] of [['v1beta2', ARGS_LIST, 'kubeadm.k8s.io/v1beta4'], ['v1beta1', ARGS_MAP, 'kubeadm.k8s.io/v1beta3']] as const) {
  test(`Cluster API ${version} kubeletExtraArgs: the findings of a bare ${api} JoinConfiguration, at the user's lines`, () => {
    const { text, first } = capi(version, args);
    const a = analyze([{ path: HOST, text }]);
    const bareText = `apiVersion: ${api}\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n` + indent(args, 4);
    const b = analyze([{ path: 'kubeadm.yaml', text: bareText }]);
    assert.ok(b.findings.length >= 2, b.findings.map((f) => key(f)).join('\n'));
    assert.ok(!b.findings.some((f) => f.severity === 'error' && f.code.startsWith('config-')), 'the bare file is well-formed');
    assert.deepEqual(a.findings.map((f) => key(f)).sort(), b.findings.map((f) => key(f, first - 4, 8)).sort());
    assert.deepEqual(a.nodes.map((n) => n.node.id), [`${HOST}//workers/run/kubeadm/joinConfiguration.yaml`]);
    // the flag-unknown fix (max-pod -> max-pods) edits the user's own name, in a list item or a map key
    const typo = a.findings.find((f) => f.code === 'flag-unknown');
    assert.ok(typo?.fixes?.length);
    const fixed = applyEdits(text, typo.fixes[0].edits, HOST);
    assert.equal(fixed, text.replace('max-pod', 'max-pods'));
    assert.ok(!analyze([{ path: HOST, text: fixed }]).findings.some((f) => f.code === 'flag-unknown'));
  });
}

test('Cluster API files[]: a KubeletConfiguration written by path is read; an encoded one is named as not checked', () => {
  const text = `apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlane
metadata:
  name: cp
spec:
  kubeadmConfigSpec:
    files:
    - path: /etc/kubernetes/kubelet/config.yaml
      content: |
        apiVersion: kubelet.config.k8s.io/v1beta1
        kind: KubeletConfiguration
        maxPods: abc
    - path: /etc/kubernetes/kubelet/other.yaml
      encoding: base64
      content: YXBpVmVyc2lvbjoga3ViZWxldC5jb25maWcuazhzLmlvL3YxYmV0YTEKa2luZDogS3ViZWxldENvbmZpZ3VyYXRpb24K
`;
  const a = analyze([{ path: HOST, text }]);
  const byCode = a.findings.map((f) => `${f.code} ${f.range.start.line}`);
  assert.ok(byCode.some((x) => /^config-field-type 11$|^config-value-invalid 11$/.test(x)), byCode.join('\n'));
  assert.ok(byCode.includes('payload-not-checked 14'), byCode.join('\n'));
});

// ---------- kind ----------

test('kind: KubeletConfiguration patches, global and per node, with or without apiVersion; Init/JoinConfiguration flags', () => {
  const text = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
kubeadmConfigPatches:
- |
  kind: KubeletConfiguration
  evictionHard:
    nodefs.available: "0%"
nodes:
- role: control-plane
- role: worker
  kubeadmConfigPatches:
  - |
    kind: JoinConfiguration
    nodeRegistration:
      kubeletExtraArgs:
        - name: max-pod
          value: "50"
`;
  const a = analyze([{ path: HOST, text }]);
  // One node per kind node, each with the cluster's patch (kind pkg/cluster/internal/create/actions/config/config.go).
  assert.deepEqual(a.nodes.map((n) => n.node.id).sort(), [`${HOST}//control-plane-1.yaml`, `${HOST}//worker-1.yaml`]);
  const at = a.findings.map((f) => `${f.code} ${f.range.start.line}:${f.range.start.character}`);
  // The patch merges into kind's own KubeletConfiguration (RFC 7386): kind's "0%" thresholds stay, named as kind's;
  // its map never had memory.available, so the patch drops nothing (no eviction-defaults-dropped).
  const eh = a.nodes.find((n) => n.node.id.endsWith('/control-plane-1.yaml'))!.node.settings.get('evictionHard');
  assert.ok(eh?.kind === 'map');
  assert.deepEqual(eh.items.map((i) => `${i.key}<${i.text} ${describe(i.from).startsWith('kind default') ? 'kind' : 'patch'}`).sort(), ['imagefs.available<0% kind', 'nodefs.available<0% patch', 'nodefs.inodesFree<0% kind']);
  assert.ok(!at.some((x) => x.startsWith('eviction-defaults-dropped')), at.join('\n'));
  assert.ok(at.includes('flag-unknown 15:16'), at.join('\n'));
  // the only error is the unknown flag (the kubelet refuses to start)
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.code), ['flag-unknown']);
});

// kubernetes-sigs/kind at fed26882 (v0.33.0-alpha-57): pkg/cluster/internal/create/actions/config/config.go
// getKubeadmConfig writes one kubeadm config per node and patches it with the cluster's kubeadmConfigPatches, then
// the node's own; pkg/internal/patch matches a patch to the documents of its kind and merges it (RFC 7386, maps key by
// key; kubeletExtraArgs by name, kubeadm_merge.go). kubeadm init runs on the first control plane
// (actions/kubeadminit, nodeutils.BootstrapControlPlaneNode), kubeadm join on the others (actions/kubeadmjoin).
const KIND_NODES = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
kubeadmConfigPatches:
- |
  kind: KubeletConfiguration
  kubeReserved:
    cpu: 200m
- |
  kind: InitConfiguration
  nodeRegistration:
    kubeletExtraArgs:
      - name: system-reserved
        value: memory=1Gi
- |
  kind: JoinConfiguration
  nodeRegistration:
    kubeletExtraArgs:
      - name: system-reserved
        value: memory=512Mi
nodes:
- role: control-plane
  image: kindest/node:v1.31.0
- role: worker
  image: kindest/node:v1.32.2
  kubeadmConfigPatches:
  - |
    kind: KubeletConfiguration
    kubeReserved:
      memory: 300Mi
- role: worker
  image: kindest/node:v1.32.2
`;

test('kind: one node per nodes[] entry, the cluster patches then its own merged into one kubelet; init flags on the first control plane, join flags on the others', () => {
  const a = analyze([{ path: HOST, text: KIND_NODES }], { kubernetesVersion: undefined });
  const byId = new Map(a.nodes.map((n) => [n.node.id.slice(HOST.length + 2), n]));
  assert.deepEqual([...byId.keys()].sort(), ['control-plane-1.yaml', 'worker-1.yaml', 'worker-2.yaml']);
  const Mi = 2n ** 20n;
  const lines = (id: string) => {
    const l = byId.get(id)!.allocatable!.lines;
    return [l.cpu.kubeReserved, l.memory.kubeReserved / Mi, l.memory.systemReserved / Mi];
  };
  // the cluster's kubeReserved cpu everywhere; the worker's own patch adds memory to that map (merged key by key)
  assert.deepEqual(lines('control-plane-1.yaml'), [200n, 0n, 1024n]);
  assert.deepEqual(lines('worker-1.yaml'), [200n, 300n, 512n]);
  assert.deepEqual(lines('worker-2.yaml'), [200n, 0n, 512n]);
  const kr = byId.get('worker-1.yaml')!.node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  // each value names its own patch, cited at its line in the user's file (1-based)
  const cited = kr.items.map((i) => `${i.key}: ${textToHost(describe(i.from), (p) => a.payloads!.get(p))}`).sort();
  assert.deepEqual(cited, [`cpu: kubeReserved in a kubeadmConfigPatches patch in ${HOST} line 6`, `memory: kubeReserved in a kubeadmConfigPatches patch in ${HOST} line 28`]);
  // each node's Kubernetes version is its own image's
  assert.equal(byId.get('control-plane-1.yaml')!.node.kubernetesVersion, '1.31');
  assert.equal(byId.get('worker-2.yaml')!.node.kubernetesVersion, '1.32');
  // every finding is in the user's file
  assert.ok(a.findings.every((f) => f.file === HOST), a.findings.map((f) => f.file).join());
});

test('kind: a second control plane joins (JoinConfiguration flags); a config without nodes is one control plane that inits', () => {
  const two = KIND_NODES.replace('- role: worker\n  image: kindest/node:v1.32.2\n  kubeadmConfigPatches', '- role: control-plane\n  image: kindest/node:v1.32.2\n  kubeadmConfigPatches');
  const a = analyze([{ path: HOST, text: two }]);
  const cp2 = a.nodes.find((n) => n.node.id.endsWith('//control-plane-2.yaml'))!;
  assert.equal(cp2.allocatable!.lines.memory.systemReserved, 512n * 2n ** 20n);
  const alone = analyze([{ path: HOST, text: KIND_NODES.slice(0, KIND_NODES.indexOf('nodes:')) }]);
  assert.deepEqual(alone.nodes.map((n) => n.node.id), [`${HOST}//control-plane-1.yaml`]);
  assert.equal(alone.nodes[0].allocatable!.lines.memory.systemReserved, 1024n * 2n ** 20n);
});

test('kind: a mistake in a cluster patch that reaches three nodes is one finding, and its fix edits the cluster patch once', () => {
  const text = KIND_NODES.replace('  kubeReserved:\n    cpu: 200m\n', '  kubeReserved:\n    cpu: 200m\n  evictionSoft:\n    memory.available: 500Mi\n');
  const a = analyze([{ path: HOST, text }]);
  assert.equal(a.nodes.length, 3);
  const soft = a.findings.filter((f) => f.code === 'eviction-soft-without-grace');
  assert.equal(soft.length, 1, a.findings.map((f) => f.code).join());
  assert.equal(soft[0].range.start.line, 8);
  const fixed = applyEdits(text, soft[0].fixes![0].edits, HOST);
  assert.equal(fixed.split('evictionSoftGracePeriod').length, 2, fixed);
  const again = analyze([{ path: HOST, text: fixed }]);
  assert.deepEqual(again.findings.filter((f) => f.code === 'eviction-soft-without-grace'), []);
  assert.equal(again.nodes.length, 3);
});

test('kind: a kubeletExtraArgs map in a patch without apiVersion is read as kind converts it (kubeadm_merge.go, kind v0.32.0 and later), not refused', () => {
  const patch = (api: string) => `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
- role: control-plane
- role: worker
  kubeadmConfigPatches:
  - |
    kind: JoinConfiguration
${api}    nodeRegistration:
      kubeletExtraArgs:
        max-pods: "20"
`;
  const bare = analyze([{ path: HOST, text: patch('') }]);
  assert.deepEqual(bare.findings.filter((f) => f.severity === 'error').map((f) => f.code), []);
  const maxPods = bare.nodes[0].node.settings.get('maxPods');
  assert.equal(maxPods?.kind === 'scalar' && maxPods.text, '20');
  // With apiVersion v1beta4 written, kind does not convert the map, and kubeadm never sees it either: walkAndMerge hands
  // every kubeletExtraArgs of a v1beta4 target to mergeExtraArgs, which takes a map only from a patch without
  // apiVersion, and deletes the key from the patch (kind fed26882 pkg/internal/patch/kubeadm_merge.go). So the flags are
  // silently lost: a warning, not kubeadm's decode error.
  const v4 = analyze([{ path: HOST, text: patch('    apiVersion: kubeadm.k8s.io/v1beta4\n') }]);
  assert.deepEqual(v4.findings.filter((f) => f.severity !== 'information').map((f) => f.code), ['kind-patch-not-applied']);
  assert.equal(v4.nodes.find((n) => n.node.id.includes('worker'))?.node.settings.get('maxPods')?.from.how ?? 'unset', 'unset');
});

// ---------- corpus-embedded ----------

const dir = corpusDir('corpus-embedded');
const corpus = (name: string) => ({ path: name, text: readFileSync(join(dir!, 'files', name), 'utf8') });
const lineOf = (text: string, needle: string, from = 0) => text.split('\n').findIndex((l, i) => i >= from && l.includes(needle));

test('corpus 005-007: eviction-hard without memory.available reported at each object\'s flag, as a list item (v1beta2) or a map entry (v1beta1); no error', { skip: !dir && 'no corpus-embedded' }, () => {
  for (const [name, objects] of [['005-capi-v1beta2-kubeadmconfig-docker.yaml', 2], ['006-capi-v1beta2-kcp-ignition.yaml', 3], ['007-capi-v1beta1-kcp-ignition-map.yaml', 3]] as const) {
    const f = corpus(name);
    const a = analyze([f]);
    assert.equal(a.nodes.length, objects, name);
    assert.deepEqual(a.findings.filter((x) => x.severity === 'error' || x.severity === 'warning').map((x) => key(x)), [], name);
    const dropped = a.findings.filter((x) => x.code === 'eviction-defaults-dropped');
    assert.equal(dropped.length, objects, name);
    const lines = f.text.split('\n');
    for (const d of dropped) {
      assert.match(d.message, /memory\.available<100Mi/);
      assert.match(lines[d.range.start.line].slice(d.range.start.character), /^"?eviction-hard/, name);
    }
  }
});

test('corpus 032: kind refuses the stale apiVersion; the patch merges into kind\'s own evictionHard, which has no memory.available', { skip: !dir && 'no corpus-embedded' }, () => {
  const f = corpus('032-kind-config-kubeletconfiguration-patch.yaml');
  const a = analyze([f]);
  const got = a.findings.map((x) => `${x.code} ${x.severity} ${x.range.start.line}`);
  assert.deepEqual(got.sort(), [
    `eviction-threshold-ineffective information ${lineOf(f.text, 'nodefs.available: "0%"')}`,
    `kind-api-version error ${lineOf(f.text, 'apiVersion: kind.sigs')}`,
    // kind's own KubeletConfiguration reserves nothing either
    `reservations-missing information ${lineOf(f.text, 'kind: KubeletConfiguration')}`,
  ].sort());
  const fix = a.findings.find((x) => x.code === 'kind-api-version')!.fixes![0];
  assert.match(applyEdits(f.text, fix.edits, f.path), /^apiVersion: kind\.x-k8s\.io\/v1alpha4$/m);
});

test('corpus 001: AL2 user data on an al2023 alias, reported at KUBELET_EXTRA_ARGS and kubelet-config.json outside comments', { skip: !dir && 'no corpus-embedded' }, () => {
  const f = corpus('001-karpenter-ec2nodeclass-al2-userdata-on-al2023.yaml');
  const all = analyze([f]).findings;
  const lines = f.text.split('\n');
  // The userData is MIME (formats/mime.ts): its script's unquoted here-document holds $KUBELET_EXTRA_ARGS, which the
  // shell expands when it writes the drop-in (MANIFEST), so the drop-in is named as not checked, at the cat line.
  assert.deepEqual(all.filter((x) => x.code === 'payload-not-checked').map((x) => `${x.range.start.line} ${x.message.split(':')[0]}`), [
    `${lineOf(f.text, 'cat << EOF > /etc/systemd/system/kubelet.service.d')} /etc/systemd/system/kubelet.service.d/90-kubelet-extra-args.conf is not checked`,
  ]);
  const got = all.filter((x) => x.code !== 'payload-not-checked');
  assert.deepEqual(got.map((x) => `${x.code} ${x.severity} ${x.range.start.line}`), [
    `karpenter-al2-userdata-on-al2023 warning ${lineOf(f.text, 'Environment="KUBELET_EXTRA_ARGS')}`,
    `karpenter-al2-userdata-on-al2023 warning ${lineOf(f.text, "jq '.enableSystemLogHandler")}`,
  ]);
  const word = (x: Finding) => lines[x.range.start.line].slice(x.range.start.character, x.range.end.character);
  assert.deepEqual(got.map(word), ['KUBELET_EXTRA_ARGS', '/etc/kubernetes/kubelet/kubelet-config.json']);
  // the same user data on an AL2 alias is what it was written for
  assert.deepEqual(analyze([{ path: f.path, text: f.text.replace('al2023@latest', 'al2@latest') }]).findings.map((x) => x.code), ['payload-not-checked']);
});

test('a block scalar that ends the file without a line break still maps each character (cloud-init too)', () => {
  const text = '#cloud-config\nwrite_files:\n  - path: /etc/default/kubelet\n    content: |\n      KUBELET_EXTRA_ARGS=--cadvisor-port=0';
  const f = analyze([{ path: 'user-data', text }]).findings.find((x) => x.code === 'flag-removed');
  assert.ok(f);
  assert.equal(text.split('\n')[f.range.start.line].slice(f.range.start.character, f.range.start.character + 14), '--cadvisor-por');
});

test('corpus Karpenter files: 008\'s CPU reservations only in userData are reported at their keys; none has a false error', { skip: !dir && 'no corpus-embedded' }, () => {
  for (const name of ['002-karpenter-ec2nodeclass-userdata-nodeconfig.yaml', '003-karpenter-ec2nodeclass-no-kubelet.yaml', '004-karpenter-ec2nodeclass-bottlerocket-userdata.yaml', '010-karpenter-nodepool-v1beta1-kubelet-maxpods.yaml', '028-karpenter-v1beta1-nodepool-ec2nodeclass-custom-ami.yaml']) {
    const a = analyze([corpus(name)]);
    assert.deepEqual(a.findings.filter((x) => x.severity === 'error' || x.severity === 'warning').map((x) => key(x)), [], name);
  }
  const f = corpus('008-karpenter-ec2nodeclass-nodeconfig-reserved-cpu.yaml');
  const got = analyze([f]).findings.filter((x) => x.severity !== 'information');
  const cls = lineOf(f.text, 'name: ebs-gp3-1000gi-6000iops-1000tp-x86');
  // the NodeConfig in the MIME user data: kubeReserved.cpu and systemReserved.cpu 1000m each (MANIFEST: ~1.9 CPU Karpenter does not see)
  const kube = lineOf(f.text, 'kubeReserved:', cls);
  assert.deepEqual(got.map((x) => `${x.code} ${x.range.start.line} ${x.message.split('. ')[0]}`), [
    `karpenter-reserved-in-userdata ${kube + 1} The node reserves kubeReserved cpu 1000m from userData, but Karpenter schedules with its own default`,
    `karpenter-reserved-in-userdata ${lineOf(f.text, 'systemReserved:', cls) + 1} The node reserves systemReserved cpu 1000m from userData, but Karpenter schedules without it`,
  ]);
});

test('a capacity modeline atop the carrier holds for every node of its payloads, also when a cached analysis re-reads it', () => {
  const body = 'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: d\nspec:\n  kubelet:\n    maxPods: 58\n    kubeReserved:\n      memory: 1Gi\n';
  const cache = new ParseCache();
  const memory = (text: string) => analyze([{ path: HOST, text }], {}, cache).nodes.map((n) => n.node.capacity?.memory);
  assert.deepEqual(memory(body), [undefined]);
  assert.deepEqual(memory('# kubelet-lint: capacity cpu=4,memory=16Gi\n' + body), [16n * 2n ** 30n]);
  assert.deepEqual(memory('# kubelet-lint: capacity cpu=4,memory=8Gi\n' + body), [8n * 2n ** 30n]);
});

// ---------- the worked examples of docs/formats ----------

const example = (page: string) => readFileSync(join(__dirname, `../../docs/formats/${page}`), 'utf8').split('```yaml\n')[1].split('```')[0];
const atLines = (a: ReturnType<typeof analyze>) => a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`).sort();

test('docs/formats/cluster-api.md: the worked example gives the findings the page names, at its lines, and one node', () => {
  const text = example('cluster-api.md');
  const a = analyze([{ path: 'cluster.yaml', text }]);
  assert.deepEqual(atLines(a), ['16 eviction-defaults-dropped', '18 flag-unknown']);
  assert.deepEqual(a.nodes.map((n) => n.node.id), ['cluster.yaml//prod-md-0/run/kubeadm/joinConfiguration.yaml']);
  const typo = a.findings.find((f) => f.code === 'flag-unknown')!;
  assert.equal(applyEdits(text, typo.fixes![0].edits, 'cluster.yaml'), text.replace('name: max-pod\n', 'name: max-pods\n'));
});

test('docs/formats/kind.md: the worked example gives the findings the page names, at its lines', () => {
  const a = analyze([{ path: 'kind.yaml', text: example('kind.md') }]);
  assert.deepEqual(atLines(a), ['23 flag-unknown']);
  // the numbers the page gives: both nodes 100m of cpu, the control plane 256Mi of memory, the worker 512Mi
  const byId = new Map(a.nodes.map((n) => [n.node.id, n.allocatable.lines]));
  assert.deepEqual([...byId.keys()].sort(), ['kind.yaml//control-plane-1.yaml', 'kind.yaml//worker-1.yaml']);
  assert.deepEqual([byId.get('kind.yaml//control-plane-1.yaml')!.cpu.kubeReserved, byId.get('kind.yaml//control-plane-1.yaml')!.memory.kubeReserved], [100n, 256n * 2n ** 20n]);
  assert.deepEqual([byId.get('kind.yaml//worker-1.yaml')!.cpu.kubeReserved, byId.get('kind.yaml//worker-1.yaml')!.memory.kubeReserved], [100n, 512n * 2n ** 20n]);
  // hover on the worker's kubeReserved (line 17): the merged value of that node, cited at the user's line
  const h = (hoverAt(a, 'kind.yaml', { line: 16, character: 5 })?.contents as { value: string } | undefined)?.value ?? '';
  assert.match(h, /Effective value: `cpu=100m,memory=512Mi`, from `kubeReserved in a kubeadmConfigPatches patch in kind\.yaml line 17`/);
  assert.match(h, /Node Allocatable\*\* of `kind\.yaml → \/worker-1\.yaml`/);
  // the fix renames the flag in the worker's JoinConfiguration patch
  const fix = a.findings.find((f) => f.code === 'flag-unknown')!.fixes![0];
  assert.match(applyEdits(example('kind.md'), fix.edits, 'kind.yaml'), /^ {8}- name: max-pods$/m);
});

test('docs/formats/karpenter.md: the worked example gives the findings the page names, at its lines; the fix stays in kubelet:', () => {
  const text = example('karpenter.md');
  const a = analyze([{ path: 'nodeclass.yaml', text }]);
  assert.deepEqual(atLines(a), ['11 eviction-soft-without-grace', '19 karpenter-reserved-in-userdata', '9 max-pods-above-eni-limit']);
  // the numbers the page gives: m5.xlarge kube-reserved 80m and 893 MiB, m5.4xlarge 110m and 2829 MiB
  const pool = a.nodes.find((n) => n.node.platform?.tool === 'karpenter')!;
  assert.equal(pool.allocatable.lines.cpu.kubeReserved, 80n);
  assert.equal(pool.allocatable.lines.memory.kubeReserved, 893n * 2n ** 20n);
  assert.deepEqual(candidateAllocatables(pool.node).map((r) => `${r.name} ${r.cpu} ${r.memory}`), ['m5.xlarge 3.92 CPU 13.83 GiB', 'm5.4xlarge 15.89 CPU 56.34 GiB']);
  const soft = a.findings.find((f) => f.code === 'eviction-soft-without-grace')!;
  const fixed = applyEdits(text, soft.fixes![0].edits, 'nodeclass.yaml');
  const kubelet = kubeletOf(fixed) as Record<string, unknown>;
  assert.ok(kubelet.evictionSoftGracePeriod, fixed);
  assert.ok(!analyze([{ path: 'nodeclass.yaml', text: fixed }]).findings.some((f) => f.code === 'eviction-soft-without-grace' || f.severity === 'error'));
});

const nodeCorpus = corpusDir('corpus');
const KARPENTER_SUPPLIES = new Set(['reservations-missing', 'eviction-defaults-dropped']);

/**
 * The bare file with what Karpenter assumes on an al2023 node class of CAPACITY (8 cores, no instance type: 110 pods)
 * written under the user's keys (aws/karpenter-provider-aws v1.14.1 pkg/providers/instancetype/types.go: kube-reserved
 * 11 × 110 + 255 Mi, 1Gi, 90m; eviction 100Mi and 10%; lo.Assign of the user's keys over them). Undefined when the
 * body's maps are not plain maps.
 */
function withKarpenterAssumptions(body: string): string | undefined {
  const docs = parseAllDocuments(body);
  const obj = (Array.isArray(docs) ? docs[0]?.toJS() : undefined) as Record<string, unknown> | undefined;
  if (!obj || typeof obj !== 'object') return undefined;
  const plain = (v: unknown) => v === undefined || (v !== null && typeof v === 'object' && !Array.isArray(v));
  if (!plain(obj.kubeReserved) || !plain(obj.evictionHard)) return undefined;
  const out = { ...obj };
  out.kubeReserved = { memory: '1465Mi', 'ephemeral-storage': '1Gi', cpu: '90m', ...(obj.kubeReserved as object) };
  out.evictionHard = { 'memory.available': '100Mi', 'nodefs.available': '10%', ...(obj.evictionHard as object) };
  out.maxPods ??= 110;
  return HEADER + stringify(out);
}
const CAPACITY = { capacity: { cpu: 8000n, memory: 32n * 2n ** 30n, 'ephemeral-storage': 100n * 2n ** 30n, hugepages: new Map<string, bigint>() } };
test('every corpus KubeletConfiguration written as a Karpenter spec.kubelet: the same findings at the mapped places (but what Karpenter supplies), the allocatable of its assumptions written out, every fix the same', { skip: !nodeCorpus && 'no ../shared/corpus' }, () => {
  let files = 0;
  let fixes = 0;
  for (const name of readdirSync(join(nodeCorpus!, 'files')).sort()) {
    const raw = readFileSync(join(nodeCorpus!, 'files', name), 'utf8');
    if (detectKind(name, raw) !== 'kubelet-config' || /\.json$/.test(name) || /^---/m.test(raw) || raw.includes('\r') || raw.includes('\t')) continue;
    // The object says what the document is: its apiVersion and kind lines go, and so do the lines before the first key.
    const lines = raw.split('\n').filter((l) => !/^(apiVersion|kind):/.test(l));
    while (lines.length && !/^[A-Za-z"']/.test(lines[0])) lines.shift();
    const body = lines.join('\n').replace(/\n*$/, '\n');
    if (!/^[A-Za-z"']/.test(body)) continue;
    const bareText = HEADER + body;
    const bare = analyze([{ path: 'kubelet.yaml', text: bareText }], CAPACITY);
    if (bare.findings.length === 0) continue;
    files++;
    const { text, first } = nodeClass(body);
    const inHost = analyze([{ path: HOST, text }], CAPACITY);
    const assumed = withKarpenterAssumptions(body);
    if (assumed) assert.deepEqual(inHost.nodes.map((n) => n.allocatable), analyze([{ path: 'kubelet.yaml', text: assumed }], CAPACITY).nodes.map((n) => n.allocatable), name);
    const own = (f: Finding) => f.code.startsWith('karpenter-') || KARPENTER_SUPPLIES.has(f.code);
    const strip = (m: string) => m.replaceAll(`${HOST} → /default/karpenter-kubelet.yaml`, 'kubelet.yaml');
    // A multi-line finding range keeps its columns only on lines the block indents: compare starts and ends.
    const got = inHost.findings.filter((f) => !own(f)).map((f) => `${f.code} ${f.range.start.line}:${f.range.start.character} ${strip(f.message)}`).sort();
    // a finding on the header (the kind line) is at the block's first key; Karpenter's assumed kube-reserved and
    // eviction thresholds are there whatever the file says, so reservations-missing and eviction-defaults-dropped are not
    const want = bare.findings
      .filter((f) => !KARPENTER_SUPPLIES.has(f.code))
      .map((f) => (f.range.start.line < 2 ? `${f.code} ${first}:4 ${f.message}` : `${f.code} ${f.range.start.line + first - 2}:${f.range.start.character + 4} ${f.message}`))
      .sort();
    assert.deepEqual(got, want, name);
    for (const f of inHost.findings.filter((x) => !own(x) && x.fixes?.length)) {
      const b = bare.findings.find((x) => x.code === f.code && x.message === strip(f.message) && x.range.start.line + first - 2 === f.range.start.line);
      assert.ok(b?.fixes, `${name}: ${key(f)}`);
      assert.equal(f.fixes!.length, b.fixes.length, `${name}: ${key(f)} lost a fix`);
      for (const [i, fix] of f.fixes!.entries()) {
        fixes++;
        const bareAfter = parseAllDocuments(applyEdits(bareText, b.fixes[i].edits, 'kubelet.yaml'));
        const want = (Array.isArray(bareAfter) ? bareAfter[0].toJS() : {}) as Record<string, unknown>;
        delete want.apiVersion;
        delete want.kind;
        assert.deepEqual(kubeletOf(applyEdits(text, fix.edits, HOST)), want, `${name}: ${fix.title}`);
      }
    }
  }
  assert.ok(files >= 5, `only ${files} corpus files compared`);
  assert.ok(fixes >= 5, `only ${fixes} fixes compared`);
});

test('Cluster API files[] in the patches directory named kubeletconfiguration*.yaml are kubelet patches; other names and json patches are not', () => {
  const file = (path: string) => `    - path: ${path}\n      content: |\n        evictionHard:\n          memory.available: 5%\n`;
  const text = (paths: string[]) => `apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfig
metadata:
  name: n
spec:
  joinConfiguration:
    patches:
      directory: /etc/kubeadm/patches
  files:
${paths.map(file).join('')}`;
  const codes = (paths: string[]) => analyze([{ path: HOST, text: text(paths) }]).findings.map((f) => `${f.code} ${f.range.start.line}`);
  // (kubeadm's generated KubeletConfiguration under the patch reserves nothing: reservations-missing stands)
  assert.deepEqual(codes(['/etc/kubeadm/patches/kubeletconfiguration0+strategic.yaml']), ['reservations-missing 11', 'eviction-defaults-dropped 11']);
  assert.deepEqual(codes(['/etc/kubeadm/patches/sub/kubeletconfiguration.yaml']), ['reservations-missing 11', 'eviction-defaults-dropped 11']);
  assert.deepEqual(codes(['/etc/kubeadm/patches/kubeletconfiguration+json.yaml']), []);
  assert.deepEqual(codes(['/etc/kubeadm/patches/kubeletconfiguration.yml']), []); // kubeadm ignores .yml
  assert.deepEqual(codes(['/etc/other/kubeletconfiguration.yaml']), []);
});

test('an unchanged document after an edited one is not parsed again, and its findings move with it', () => {
  const doc = (name: string) => `apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: ${name}\nspec:\n  kubelet:\n    maxPods: abc\n`;
  const lines = (text: string) => analyze([{ path: HOST, text }]).findings.map((f) => `${f.code} ${f.range.start.line}:${f.range.start.character}`);
  const a = `${doc('one')}---\n${doc('two')}`;
  const before = lines(a);
  assert.equal(before.length, 2, before.join('\n'));
  // one line more in the first document, then one less: the second one's findings follow
  const longer = lines(`# added\n${a}`);
  assert.deepEqual(longer, before.map((l) => l.replace(/ (\d+):/, (_, n) => ` ${Number(n) + 1}:`)));
  assert.deepEqual(lines(a), before);
  const shorter = lines(`${doc('one').replace('metadata:\n  name: one\n', 'metadata: {name: one}\n')}---\n${doc('two')}`);
  assert.deepEqual(shorter, before.map((l) => l.replace(/ (\d+):/, (_, n) => ` ${Number(n) - 1}:`)));
});

test('a subtree payload: every character after the header is the carrier\'s character at its mapped offset (LF and CRLF, any indentation)', () => {
  for (const nl of ['\n', '\r\n']) {
    for (const pad of [3, 4, 7]) {
      const body = 'maxPods: 58\n\n# a comment\nkubeReserved:\n  cpu: 100m   # trailing\n  memory: "1Gi"\nclusterDNS: [10.0.0.10]\n';
      const head = `apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: d\nspec:\n${' '.repeat(pad - 2)}kubelet:\n`;
      const host = (head + indent(body, pad) + 'status: {}\n').replaceAll('\n', nl);
      const parsed = karpenterPayloads(HOST, host);
      assert.equal(parsed.embedded.length, 1, `${pad} ${JSON.stringify(nl)}`);
      const p = parsed.embedded[0];
      assert.ok(p.text.startsWith(HEADER));
      for (let i = HEADER.length; i < p.text.length; i++) {
        const want = p.text[i];
        assert.equal(host[p.map.offsets[i]], want, `${pad} ${JSON.stringify(nl)} payload offset ${i}`);
      }
      // the dedented lines are the body (blank and comment lines included, less indented ones as they are)
      assert.equal(p.text.slice(HEADER.length), body);
    }
  }
});

test('a fix that adds lines to spec.kubelet of a CRLF file writes CRLF lines at the block\'s indentation', () => {
  const text = nodeClass('evictionSoft:\n  memory.available: 200Mi\n').text.replaceAll('\n', '\r\n');
  const f = analyze([{ path: HOST, text }]).findings.find((x) => x.code === 'eviction-soft-without-grace');
  assert.ok(f?.fixes?.length);
  const fixed = applyEdits(text, f.fixes[0].edits, HOST);
  assert.doesNotMatch(fixed.replaceAll('\r\n', ''), /\n/);
  assert.ok((kubeletOf(fixed) as Record<string, unknown>).evictionSoftGracePeriod);
  assert.ok(!analyze([{ path: HOST, text: fixed }]).findings.some((x) => x.code === 'eviction-soft-without-grace'));
});

test('Cluster API v1beta2 refuses a flag named twice in kubeletExtraArgs', () => {
  const { text } = capi('v1beta2', ARGS_LIST + '- name: max-pod\n  value: "60"\n');
  const dup = analyze([{ path: HOST, text }]).findings.filter((f) => f.code === 'capi-extra-args-duplicate');
  assert.deepEqual(dup.map((f) => `${f.severity} ${f.range.start.line}`), [`error ${text.split('\n').lastIndexOf('            - name: max-pod')}`]);
  assert.match(dup[0].message, /^Cluster API refuses kubeletExtraArgs that name max-pod twice\./);
});

test('a message citing a place in a payload cites the line of the user\'s file', () => {
  const list = capi('v1beta2', '- name: max-pods\n  value: "50"\n- name: max-pods\n  value: "60"\n').text;
  const dup = analyze([{ path: HOST, text: list }]).findings.find((f) => f.code === 'flag-duplicate');
  assert.ok(dup, 'flag-duplicate');
  const later = list.split('\n').lastIndexOf('            - name: max-pods') + 1;
  assert.match(dup.message, new RegExp(`at ${HOST.replace('.', '\\.')} line ${later} `));
  assert.doesNotMatch(dup.message, /\/\//);
});

test('Cluster API: the kubelet version is the control plane\'s spec.version, or that of the machines whose configRef names the config', () => {
  const text = `apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlane
metadata:
  name: cp
spec:
  version: v1.29.4
  kubeadmConfigSpec:
    joinConfiguration:
      nodeRegistration:
        kubeletExtraArgs:
          - name: max-pods
            value: "50"
---
apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata:
  name: md
spec:
  template:
    spec:
      version: "v1.31.0"
      bootstrap:
        configRef:
          name: workers
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: workers
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            - name: max-pods
              value: "50"
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: unused
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            - name: max-pods
              value: "50"
`;
  const a = analyze([{ path: HOST, text }], { kubernetesVersion: undefined });
  const byId = new Map(a.nodes.map((n) => [n.node.id.split('//')[1], n.node]));
  assert.equal(byId.get('cp/run/kubeadm/joinConfiguration.yaml')?.kubernetesVersion, '1.29');
  assert.equal(byId.get('cp/run/kubeadm/joinConfiguration.yaml')?.kubernetesVersionSource, `KubeadmControlPlane cp spec.version v1.29.4 in ${HOST} line 6`);
  assert.equal(byId.get('workers/run/kubeadm/joinConfiguration.yaml')?.kubernetesVersion, '1.31');
  assert.equal(byId.get('workers/run/kubeadm/joinConfiguration.yaml')?.kubernetesVersionSource, `MachineDeployment md spec.template.spec.version v1.31.0 in ${HOST} line 21`);
  // a config no machine names has no version of its own (the workspace's or the newest)
  assert.ok(byId.has('unused/run/kubeadm/joinConfiguration.yaml'));
  assert.doesNotMatch(byId.get('unused/run/kubeadm/joinConfiguration.yaml')!.kubernetesVersionSource ?? '', /v1\.(29|31)/);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => key(f)), []);
});

test('template expressions that break a document\'s YAML are masked, so its kubelet block is still read at its lines', () => {
  const text = `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: {{ .Values.name }}
spec:
  template:
    spec:
      requirements:
        - key: topology.kubernetes.io/zone
          operator: In
          values: {{- toYaml .Values.zones | nindent 12 }}
      kubelet:
        maxPods: abc
`;
  const a = analyze([{ path: HOST, text }]);
  assert.ok(a.findings.some((f) => f.severity === 'error' && f.range.start.line === 12), a.findings.map((f) => key(f)).join('\n'));
  assert.ok(!a.findings.some((f) => f.code === 'payload-not-checked' || f.code === 'config-syntax'));
  assert.deepEqual(a.nodes.map((n) => n.node.id), [`${HOST}//{{ .Values.name }}/karpenter-kubelet.yaml`]);
});

/** What a KubeadmConfig's files[] write: target (under the object's name) -> content (asserts the YAML is valid). */
function capiFiles(text: string): Record<string, string> {
  const docs = parseAllDocuments(text);
  const out: Record<string, string> = {};
  for (const d of Array.isArray(docs) ? docs : []) {
    assert.deepEqual(d.errors, []);
    const js = d.toJS() as { metadata?: { name?: string }; spec?: { files?: { path: string; content?: string }[] } };
    for (const f of js.spec?.files ?? []) if (typeof f.content === 'string') out[`/${js.metadata?.name}${f.path}`] = f.content;
  }
  return out;
}

const blockable = (t: string) => /^[^\s]/.test(t) && t.endsWith('\n') && !t.endsWith('\n\n') && !/[\r\t]|[ ]\n|[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\ufeff]/.test(t);
test('every corpus node file written by a Cluster API files[] entry: the same findings at the mapped places, allocatable and quick fixes', { skip: !nodeCorpus && 'no ../shared/corpus' }, () => {
  const { files, fixes } = carrierProperty(nodeCorpus!, {
    host: HOST,
    // payloads of an object are under its name (formats/cluster-api.ts): the bare file sits at the same path
    target: (name) => `/n/${name}`,
    wrap: (target, text) =>
      `apiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfig\nmetadata:\n  name: n\nspec:\n  files:\n    - path: ${target.slice(2)}\n      owner: root:root\n` +
      (blockable(text) ? `      content: |\n${text.replace(/^(?=.)/gm, '        ')}` : `      content: ${JSON.stringify(text)}\n`),
    read: capiFiles,
  });
  assert.ok(files > 30 && fixes >= 10, `${files} files, ${fixes} fixes`);
});

/**
 * The bare file with kind's generated KubeletConfiguration under it (kubernetes-sigs/kind pkg/cluster/internal/kubeadm/
 * config.go, as node/platform.ts kindBase holds it; kind applies a patch as an RFC 7386 merge patch: the user's keys
 * win, maps merge key by key). Undefined when evictionHard is not a plain map.
 */
function withKindBase(text: string): string | undefined {
  const docs = parseAllDocuments(text);
  const obj = (Array.isArray(docs) ? docs[0]?.toJS() : undefined) as Record<string, unknown> | undefined;
  if (!obj || typeof obj !== 'object') return undefined;
  const eh = obj.evictionHard;
  if (eh !== undefined && (eh === null || typeof eh !== 'object' || Array.isArray(eh))) return undefined;
  const base = { cgroupDriver: 'systemd', cgroupRoot: '/kubelet', failSwapOn: false, imageGCHighThresholdPercent: 100 };
  return stringify({ ...base, ...obj, evictionHard: { 'nodefs.available': '0%', 'nodefs.inodesFree': '0%', 'imagefs.available': '0%', ...(eh as object) } });
}
/** What kind's base decides whatever the patch says: its evictionHard map never had memory.available to drop. */
const KIND_SUPPLIES = new Set(['eviction-defaults-dropped']);

test('every corpus KubeletConfiguration as a kind kubeadmConfigPatches entry: the same findings at the mapped places, allocatable and quick fixes', { skip: !nodeCorpus && 'no ../shared/corpus' }, () => {
  // a config without nodes is one control plane (kind pkg/internal/apis/config/default.go)
  const target = '/control-plane-1.yaml';
  const { files, fixes } = carrierProperty(nodeCorpus!, {
    host: HOST,
    target: () => target,
    wrap: (_, text) => `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nkubeadmConfigPatches:\n  - |\n${text.replace(/^(?=.)/gm, '    ')}`,
    read: (text): Record<string, string> => {
      const d = parseAllDocuments(text);
      const doc = Array.isArray(d) ? d[0] : undefined;
      assert.deepEqual(doc?.errors, []);
      const patches = (doc!.toJS() as { kubeadmConfigPatches?: string[] }).kubeadmConfigPatches ?? [];
      return patches.length ? { [target]: patches[0] } : {};
    },
    // A patch is one YAML KubeletConfiguration document (kind matches it by kind: at column 0) in a | block.
    cannot: (text) => detectKind('x.yaml', text) !== 'kubelet-config' || !/^kind:[ \t]*KubeletConfiguration[ \t]*$/m.test(text) || !blockable(text) || /^---/m.test(text),
    // kind's generated KubeletConfiguration is the patch's base (its 0% evictionHard and the rest, node/platform.ts).
    withBase: withKindBase,
    supplies: KIND_SUPPLIES,
  });
  assert.ok(files >= 5 && fixes >= 5, `${files} files, ${fixes} fixes`);
});

test('Cluster API kubeletExtraArgs in the other version\'s shape: the message names the Cluster API version the user wrote, not kubeadm\'s', () => {
  const capi = (api: string, args: string) =>
    `apiVersion: bootstrap.cluster.x-k8s.io/${api}\nkind: KubeadmConfigTemplate\nmetadata:\n  name: md-0\nspec:\n  template:\n    spec:\n      joinConfiguration:\n        nodeRegistration:\n${args}`;
  const list = analyze([{ path: 'capi.yaml', text: capi('v1beta1', '          kubeletExtraArgs:\n            - name: max-pods\n              value: "50"\n') }]);
  const map = analyze([{ path: 'capi.yaml', text: capi('v1beta2', '          kubeletExtraArgs:\n            max-pods: "50"\n') }]);
  for (const [a, version] of [[list, 'v1beta1'], [map, 'v1beta2']] as const) {
    const f = a.findings.find((x) => x.code === 'config-kubeadm-extra-args');
    assert.ok(f, a.findings.map((x) => x.code).join());
    assert.equal(f.range.start.line, 9);
    assert.match(f.message, new RegExp(`^Cluster API ${version} takes kubeletExtraArgs`));
    assert.match(f.message, /KubeadmConfigTemplate is bootstrap\.cluster\.x-k8s\.io/);
    assert.doesNotMatch(f.message, /kubeadm\.k8s\.io/);
    assertShortPoints(a.findings);
  }
  // A kubeadm file of its own keeps kubeadm's words.
  const own = analyze([{ path: 'kubeadm.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    - name: max-pods\n      value: "50"\n' }]);
  assert.match(own.findings.find((x) => x.code === 'config-kubeadm-extra-args')!.message, /^In kubeadm\.k8s\.io\/v1beta3 kubeletExtraArgs is a map/);
});
