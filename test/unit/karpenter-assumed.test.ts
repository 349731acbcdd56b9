/**
 * What Karpenter assumes a node reserves (node/platform.ts karpenterBase, aws/karpenter-provider-aws v1.14.1
 * pkg/providers/instancetype/types.go) and the instance types its pools name (formats/karpenter.ts): the effective
 * settings of a spec.kubelet, with provenance, and Node Allocatable per named type.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { candidateAllocatables } from '../../server/src/features/allocatable-candidates.ts';
import { hoverAt } from '../../server/src/features/embedded.ts';
import { effectiveConfigYaml } from '../../server/src/features/effective-config.ts';
import { describe } from '../../server/src/node/provenance.ts';
import type { NodeModel } from '../../server/src/node/model.ts';
import { assertShortPoints, firstSentence } from '../helpers/messages.ts';

const HOST = 'karpenter.yaml';
const MiB = 1024n ** 2n;

function nodeClass(opts: { name?: string; ami?: string; kubelet: string }): string {
  const ami = opts.ami ?? '  amiSelectorTerms:\n    - alias: al2023@latest\n';
  return `apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: ${opts.name ?? 'default'}\nspec:\n${ami}  kubelet:\n${opts.kubelet}`;
}

function nodePool(name: string, nodeClassName: string, types: string[]): string {
  return `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: ${nodeClassName}\n      requirements:\n        - key: node.kubernetes.io/instance-type\n          operator: In\n          values: [${types.join(', ')}]\n`;
}

const only = (text: string) => {
  const a = analyze([{ path: HOST, text }]);
  assert.equal(a.nodes.length, 1);
  return { a, node: a.nodes[0].node, alloc: a.nodes[0].allocatable };
};

const items = (node: NodeModel, field: string) => {
  const s = node.settings.get(field);
  assert.ok(s?.kind === 'map', field);
  return Object.fromEntries(s.items.map((i) => [i.key, `${i.text} (${describe(i.from)})`]));
};

test('no instance type: kube-reserved 11 × 110 + 255 Mi and 1Gi, eviction 100Mi and 10%, named as Karpenter\'s; no reservations-missing', () => {
  const { a, node } = only(nodeClass({ kubelet: '    maxPods: 58\n' }));
  assert.deepEqual(a.findings.map((f) => f.code), []);
  const kr = items(node, 'kubeReserved');
  // AL2023 sizes the memory from the ENI limit, not from maxPods (UsesENILimitedMemoryOverhead): unknown without a type
  assert.match(kr.memory, /^1465Mi \(Karpenter's assumed kube-reserved memory: 11 × 110 \+ 255 Mi for 110 pods until an instance type is known \(karpenter-provider-aws v1\.14\.1\)\)$/);
  assert.match(kr['ephemeral-storage'], /^1Gi \(Karpenter's assumed kube-reserved/);
  assert.equal(kr.cpu, undefined, 'the tiered cpu needs the core count');
  assert.deepEqual(Object.keys(items(node, 'evictionHard')).sort(), ['memory.available', 'nodefs.available']);
  assert.match(items(node, 'evictionHard')['memory.available'], /^100Mi \(Karpenter's assumed eviction threshold/);
  const maxPods = node.settings.get('maxPods');
  assert.ok(maxPods?.kind === 'scalar' && maxPods.text === '58');
  assert.equal(describe(node.settings.get('maxPods')!.from), 'maxPods in EC2NodeClass spec.kubelet in karpenter.yaml//default/karpenter-kubelet.yaml line 3');
});

test('the user\'s kubeReserved and evictionHard keys are assigned over Karpenter\'s one by one (lo.Assign)', () => {
  const { node } = only(nodeClass({ kubelet: '    kubeReserved:\n      cpu: 200m\n    evictionHard:\n      memory.available: 500Mi\n' }));
  const kr = items(node, 'kubeReserved');
  assert.match(kr.cpu, /^200m \(kubeReserved in EC2NodeClass spec\.kubelet/);
  assert.match(kr.memory, /^1465Mi \(Karpenter's assumed/);
  const eh = items(node, 'evictionHard');
  assert.match(eh['memory.available'], /^500Mi \(evictionHard in EC2NodeClass/);
  assert.match(eh['nodefs.available'], /^10% \(Karpenter's assumed/);
});

test('a v1 NodePool\'s instance types reach the EC2NodeClass its nodeClassRef names: allocatable per type with Karpenter\'s numbers', () => {
  const text = `${nodeClass({ kubelet: '    systemReserved:\n      memory: 100Mi\n' })}---\n${nodePool('general', 'default', ['m5.large', '"m5.2xlarge"'])}`;
  const { node, alloc } = only(text);
  assert.deepEqual(node.capacityCandidates?.map((c) => c.name), ['m5.large', 'm5.2xlarge']);
  assert.match(node.capacitySource ?? '', /^m5\.large: .*Karpenter requirement node\.kubernetes\.io\/instance-type in karpenter\.yaml line 26$/);
  // m5.large: 29 ENI pods -> 11 × 29 + 255 = 574Mi; 2 cores -> 60m + 10m
  assert.equal(alloc.lines.memory.kubeReserved, 574n * MiB);
  assert.equal(alloc.lines.cpu.kubeReserved, 70n);
  assert.equal(alloc.pods, 29n, 'Karpenter passes the ENI limit to the kubelet as maxPods');
  const rows = candidateAllocatables(node);
  // m5.2xlarge: 58 pods -> 893Mi; 8 cores -> 90m. memory = 32768 - 893 - 100 (system) - 100 (eviction) Mi
  // Karpenter's memory per type (types.go memory()): 8192 - 615 = 7577Mi and 32768 - 2458 = 30310Mi, before reservations.
  assert.deepEqual(rows.map((r) => `${r.name} ${r.cpu} ${r.memory} ${r.pods}`), ['m5.large 1.93 CPU 6.64 GiB 29', 'm5.2xlarge 7.91 CPU 28.53 GiB 58']);
});

test('Bottlerocket and Windows size kube-reserved memory from the node\'s pods (maxPods when set); AL2023 from the ENI limit', () => {
  const memory = (ami: string, kubelet: string) => {
    const { alloc } = only(`${nodeClass({ ami, kubelet })}---\n${nodePool('p', 'default', ['m5.2xlarge'])}`);
    return alloc.lines.memory.kubeReserved! / MiB;
  };
  const al2023 = '  amiSelectorTerms:\n    - alias: al2023@latest\n';
  const bottlerocket = '  amiSelectorTerms:\n    - alias: bottlerocket@latest\n';
  const windows = '  amiFamily: Windows2022\n  amiSelectorTerms:\n    - alias: windows2022@latest\n';
  assert.equal(memory(al2023, '    maxPods: 110\n'), 893n);
  assert.equal(memory(bottlerocket, '    maxPods: 110\n'), 1465n);
  assert.equal(memory(bottlerocket, '    clusterDNS: ["10.0.0.10"]\n'), 893n);
  assert.equal(memory(windows, '    clusterDNS: ["10.0.0.10"]\n'), 1465n);
  assert.equal(memory('  amiFamily: Custom\n  amiSelectorTerms:\n    - alias: bottlerocket@latest\n', '    maxPods: 110\n'), 893n, 'amiFamily wins over the alias');
});

test('a v1beta1 NodePool keeps its own kubelet and types; its AMI family comes from the EC2NodeClass it names in the file', () => {
  const text = `apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata:\n  name: br\nspec:\n  amiFamily: Bottlerocket\n---\napiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: pool\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        name: br\n      kubelet:\n        maxPods: 110\n      requirements:\n        - key: node.kubernetes.io/instance-type\n          operator: In\n          values: [c5.2xlarge]\n`;
  const { node, alloc } = only(text);
  assert.equal(node.platform?.facts?.amiFamily, 'Bottlerocket');
  assert.equal(node.capacity?.cpu, 8000n);
  assert.equal(alloc.lines.memory.kubeReserved, 1465n * MiB);
});

test('requirements by category or cpu, NotIn, and template values name no type: no capacity, no guess', () => {
  const req = (r: string) => `${nodeClass({ kubelet: '    maxPods: 110\n' })}---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: p\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        name: default\n      requirements:\n${r}`;
  for (const r of [
    '        - key: karpenter.k8s.aws/instance-category\n          operator: In\n          values: [c, m]\n',
    '        - key: node.kubernetes.io/instance-type\n          operator: NotIn\n          values: [m5.large]\n',
    '        - key: node.kubernetes.io/instance-type\n          operator: In\n          values: ["{{ .Values.type }}"]\n',
  ]) {
    const { a, node } = only(req(r));
    assert.equal(node.capacity, undefined, r);
    assert.deepEqual(a.findings.map((f) => f.code), [], r);
  }
});

test('two pools on one node class: the union of their types; a pool naming another class adds nothing; an unknown type is named at its value', () => {
  const text = `${nodeClass({ kubelet: '    maxPods: 20\n' })}---\n${nodePool('a', 'default', ['m5.large'])}---\n${nodePool('b', 'default', ['m5.large', 'c5.xlarge', 'm5.larg'])}---\n${nodePool('c', 'other', ['r5.large'])}`;
  const { a, node } = only(text);
  assert.deepEqual(node.capacityCandidates?.map((c) => c.name), ['m5.large', 'c5.xlarge']);
  const unknown = a.findings.filter((f) => f.code === 'instance-type-unknown');
  assert.equal(unknown.length, 1);
  assert.equal(text.split('\n')[unknown[0].range.start.line].slice(unknown[0].range.start.character, unknown[0].range.end.character), 'm5.larg');
  assert.match(unknown[0].message, /did you mean m5\.large\?/);
});

// ---------- max-pods-above-eni-limit ----------

test('max-pods-above-eni-limit: maxPods past a named type\'s ENI pods, at the maxPods value; podsPerCore caps it; no type, no finding', () => {
  const findings = (kubelet: string, types: string[]) => {
    const text = `${nodeClass({ kubelet })}---\n${nodePool('p', 'default', types)}`;
    return analyze([{ path: HOST, text }]).findings.filter((f) => f.code === 'max-pods-above-eni-limit').map((f) => {
      const line = text.split('\n')[f.range.start.line];
      return `${line.slice(f.range.start.character, f.range.end.character)} ${f.severity} ${f.message.split('. ')[0]}`;
    });
  };
  assert.deepEqual(findings('    maxPods: 110\n', ['m5.2xlarge']), ['110 information maxPods 110 is above the pod addresses the VPC CNI gives m5.2xlarge (58)']);
  assert.deepEqual(findings('    maxPods: 110\n', ['m5.large', 'c5.4xlarge', 'm5.2xlarge']), ['110 information maxPods 110 is above the pod addresses the VPC CNI gives 2 of the named instance types']);
  assert.deepEqual(findings('    maxPods: 58\n', ['m5.2xlarge']), []);
  // 3 pods per core on 8 cores: the kubelet admits 24 (kubernetes pkg/kubelet/nodestatus/setters.go MachineInfo takes the smaller)
  assert.deepEqual(findings('    maxPods: 110\n    podsPerCore: 3\n', ['m5.2xlarge']), []);
  assert.deepEqual(findings('    maxPods: 110\n    podsPerCore: 10\n', ['m5.2xlarge']), ['110 information maxPods 110 is above the pod addresses the VPC CNI gives m5.2xlarge (58)']);
  // Karpenter's own maxPods is the ENI limit: nothing to compare
  assert.deepEqual(findings('    clusterDNS: ["10.0.0.10"]\n', ['m5.large']), []);
  const none = analyze([{ path: HOST, text: nodeClass({ kubelet: '    maxPods: 110\n' }) }]).findings;
  assert.deepEqual(none.map((f) => f.code), []);
});

// ---------- the user data's NodeConfig against spec.kubelet ----------

const withUserData = (ami: string, kubelet: string, userData: string) =>
  `apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: d\nspec:\n${ami}${kubelet ? `  kubelet:\n${kubelet}` : ''}  userData: |\n${userData.replace(/^(?=.)/gm, '    ')}`;
const NODE_CONFIG = (config: string) => `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n${config.replace(/^(?=.)/gm, '      ')}`;
const AL2023 = '  amiSelectorTerms:\n    - alias: al2023@latest\n';

function userDataFindings(text: string): string[] {
  const a = analyze([{ path: HOST, text }]);
  assertShortPoints(a.findings);
  return a.findings.filter((f) => f.code.startsWith('karpenter-')).map((f) => {
    const line = text.split('\n')[f.range.start.line];
    return `${line.slice(f.range.start.character, f.range.end.character)} | ${f.code} | ${firstSentence(f.message)}`;
  });
}

test('AL2023: Karpenter\'s NodeConfig is merged after the user data\'s, so maxPods and keys spec.kubelet sets are dead there', () => {
  const text = withUserData(AL2023, '    kubeReserved:\n      cpu: 200m\n      memory: 1Gi\n', NODE_CONFIG('maxPods: 50\nkubeReserved:\n  cpu: 1000m\n  memory: 1Gi\n  ephemeral-storage: 5Gi\nsystemReserved:\n  memory: 300Mi\nevictionHard:\n  memory.available: 500Mi\n  imagefs.available: 15%\n'));
  assert.deepEqual(userDataFindings(text), [
    "maxPods: 50 | karpenter-userdata-overridden | maxPods 50 in userData has no effect: Karpenter's NodeConfig, merged later, always sets maxPods.",
    "cpu: 1000m | karpenter-userdata-overridden | kubeReserved cpu 1000m in userData has no effect: Karpenter's NodeConfig, merged later, sets 200m.",
    // memory: 1Gi in both: nothing to say; imagefs is no part of Karpenter's model
    'ephemeral-storage: 5Gi | karpenter-reserved-in-userdata | The node reserves kubeReserved ephemeral-storage 5Gi from userData, but Karpenter schedules with its own default.',
    'memory: 300Mi | karpenter-reserved-in-userdata | The node reserves systemReserved memory 300Mi from userData, but Karpenter schedules without it.',
    'memory.available: 500Mi | karpenter-reserved-in-userdata | The node evicts at memory.available 500Mi from userData, but Karpenter schedules with 100Mi.',
  ]);
});

test('MIME user data: the NodeConfig parts merge in order, the last value of a key is the one reported; shell parts are not read', () => {
  const mime = 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n' +
    NODE_CONFIG('kubeReserved:\n  cpu: 500m\n') + '\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho "kubeReserved: cpu: 9"\n\n--B\nContent-Type: application/node.eks.aws\n\n' +
    NODE_CONFIG('kubeReserved:\n  cpu: 750m\n') + '\n--B--\n';
  assert.deepEqual(userDataFindings(withUserData(AL2023, '', mime)), [
    'cpu: 750m | karpenter-reserved-in-userdata | The node reserves kubeReserved cpu 750m from userData, but Karpenter schedules with its own default.',
  ]);
});

test('a Custom AMI gets the user data alone: a value unlike spec.kubelet\'s reaches the node while Karpenter schedules with spec.kubelet\'s', () => {
  const custom = '  amiFamily: Custom\n  amiSelectorTerms:\n    - id: ami-0123456789abcdef0\n';
  const text = withUserData(custom, '    maxPods: 30\n    systemReserved:\n      cpu: 200m\n', NODE_CONFIG('maxPods: 50\nsystemReserved:\n  cpu: 1000m\n'));
  assert.deepEqual(userDataFindings(text), [
    'maxPods: 50 | karpenter-reserved-in-userdata | The node admits maxPods 50 from userData, but Karpenter schedules with 30 from spec.kubelet.',
    'cpu: 1000m | karpenter-reserved-in-userdata | The node reserves systemReserved cpu 1000m from userData, but Karpenter schedules with 200m from spec.kubelet.',
  ]);
  // the same user data on AL2023: spec.kubelet's values win on the node
  assert.deepEqual(userDataFindings(withUserData(AL2023, '    maxPods: 30\n    systemReserved:\n      cpu: 200m\n', NODE_CONFIG('maxPods: 50\nsystemReserved:\n  cpu: 1000m\n'))).map((l) => l.split(' | ')[1]), ['karpenter-userdata-overridden', 'karpenter-userdata-overridden']);
});

test('user data without a NodeConfig (a script with flags) is still read for the reservation names it holds', () => {
  const text = withUserData(AL2023, '', '#!/bin/bash\nexport KUBELET_ARGS="--kube-reserved=cpu=1"\n');
  assert.deepEqual(userDataFindings(text).map((l) => l.split(' | ').slice(0, 2).join(' | ')), ['userData | karpenter-reserved-in-userdata']);
});

const dir = corpusDir('corpus-embedded');
test('corpus-embedded 010: maxPods 110 with requirements by category and cpu: no type named, so no ENI finding; Karpenter\'s 1465Mi shown', { skip: !dir && 'no corpus-embedded' }, () => {
  const name = readdirSync(join(dir!, 'files')).find((n) => n.startsWith('010-'))!;
  const a = analyze([{ path: name, text: readFileSync(join(dir!, 'files', name), 'utf8') }]);
  assert.deepEqual(a.findings.filter((f) => f.severity !== 'information' && f.severity !== 'hint').map((f) => f.code), []);
  assert.equal(a.findings.some((f) => f.code === 'max-pods-above-eni-limit'), false, 'instance-cpu 8/16/32 of categories c and m is no list of types');
  const [n] = a.nodes;
  assert.equal(n.node.capacity, undefined);
  // MANIFEST: "Karpenter also sizes kubeReserved memory from 110 pods (11*110+255 = 1465Mi)"
  assert.equal(n.allocatable.lines.memory.kubeReserved, 1465n * MiB);
  assert.match(items(n.node, 'kubeReserved').memory, /Karpenter's assumed kube-reserved memory/);
});

test('hover on spec.kubelet: the node table of the first named type and a row per type, each with Karpenter\'s kube-reserved for it', () => {
  const text = `${nodeClass({ kubelet: '    maxPods: 110\n' })}---\n${nodePool('general', 'default', ['m5.large', 'm5.4xlarge'])}`;
  const a = analyze([{ path: HOST, text }]);
  const line = text.split('\n').findIndex((l) => l.includes('maxPods: 110'));
  const h = hoverAt(a, HOST, { line, character: 6 });
  const value = (h?.contents as { value: string } | undefined)?.value ?? '';
  // m5.large: 11 × 29 + 255 = 574 MiB; the m5.4xlarge row: 16 cores -> 110m, 11 × 234 + 255 = 2829 MiB
  // Karpenter sizes an m5.large at 8192 - ceil(7.5% of 8192) = 7577Mi (types.go memory()), and says so.
  assert.match(value, /\| memory \| 7.4 GiB \(7945060352 bytes\) \| 574 MiB/);
  assert.match(value, /memory 7577 MiB: Karpenter.s estimate \(less its 7.5% VM overhead of 615 MiB\)/);
  assert.match(value, /Allocatable per candidate instance type/);
  assert.match(value, /\| m5\.4xlarge \| 16 vCPU, 64 GiB, 234 pods \(EC2 table\); memory 60620 MiB: Karpenter.s estimate \(less its 7\.5% VM overhead of 4916 MiB\) \| 15\.89 CPU \| 56\.34 GiB \| 110 \|/);
  // the effective configuration names where each value comes from
  const yaml = effectiveConfigYaml(a.nodes[0]);
  assert.match(yaml, /memory: "574Mi" +# Karpenter's assumed kube-reserved memory: 11 × 29 \+ 255 Mi for the ENI limit of 29 pods/);
});

test('a NodeConfig in userData with lone CR line ends (a double-quoted "\\r") is read as go-yaml reads it: maxPods there is still overridden', () => {
  const userData = 'apiVersion: node.eks.aws/v1alpha1\\rkind: NodeConfig\\rspec:\\r  kubelet:\\r    config:\\r      maxPods: 50\\r';
  const text = `apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: d\nspec:\n${AL2023}  userData: "${userData}"\n`;
  assert.deepEqual(userDataFindings(text).map((l) => l.split(' | ').slice(1).join(' | ')), [
    "karpenter-userdata-overridden | maxPods 50 in userData has no effect: Karpenter's NodeConfig, merged later, always sets maxPods.",
  ]);
});
