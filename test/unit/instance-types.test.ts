import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeInstanceType, instanceType, instanceTypeCounts, suggestInstanceType } from '../../server/src/catalog/instance-types.ts';
import { capacitiesOfInstanceTypes, parseCapacityOrType as parseCapacity } from '../../server/src/node/instance-capacity.ts';
import { nodeSettings } from '../../server/src/node/modelines.ts';
import type { ParsedFile } from '../../server/src/node/parse-files.ts';
import type { NodeModel } from '../../server/src/node/model.ts';
import { computeAllocatable } from '../../server/src/node/allocatable.ts';
import { allocatableMarkdown } from '../../server/src/features/allocatable-view.ts';
import { nodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { candidateAllocatables } from '../../server/src/features/allocatable-candidates.ts';
import { inlayHints } from '../../server/src/features/inlay-hints.ts';
import { parseArgs } from '../../server/src/cli/args.ts';
import { DEFAULT_SETTINGS, toAnalysisOptions } from '../../server/src/lsp/settings.ts';
import { encodeRows, generate, readEniMaxPods, readGoTable } from '../../scripts/instance-types.ts';
import { CONFIG_HEAD, onlyNode, run } from '../helpers/nodes.ts';

const GI = 1024n ** 3n;

test('m5.large: 2 vCPU, 8 GiB, 29 pods (AWS docs; eni-max-pods.txt: 3 ENIs x (10 - 1) + 2)', () => {
  assert.deepEqual(instanceType('m5.large'), { name: 'm5.large', cloud: 'EC2', vcpu: 2, memoryMiB: 8192, maxPods: 29 });
  assert.equal(describeInstanceType(instanceType('m5.large')!), 'm5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table)');
});

test('published EC2 max pods: t3.medium 17, m5.xlarge 58, c5.18xlarge 737, t3.micro 4', () => {
  assert.equal(instanceType('t3.medium')?.maxPods, 17);
  assert.equal(instanceType('m5.xlarge')?.maxPods, 58);
  assert.equal(instanceType('c5.18xlarge')?.maxPods, 737);
  assert.equal(instanceType('t3.micro')?.maxPods, 4);
});

test('memory that is not whole GiB survives the compact rows (c1.medium: 1.7 GiB = 1740 MiB)', () => {
  assert.equal(instanceType('c1.medium')?.memoryMiB, 1740);
  assert.equal(describeInstanceType(instanceType('c1.medium')!), 'c1.medium: 2 vCPU, 1740 MiB, 12 pods (EC2 table)');
});

test('Azure sizes: Standard_D4s_v5 4 vCPU 16 GiB, no pods; names match case-insensitively', () => {
  assert.deepEqual(instanceType('Standard_D4s_v5'), { name: 'Standard_D4s_v5', cloud: 'Azure', vcpu: 4, memoryMiB: 16384 });
  assert.equal(instanceType('standard_d4s_v5')?.name, 'Standard_D4s_v5');
  assert.equal(instanceType('Standard_E8s_v5')?.memoryMiB, 65536);
});

test('the table holds over a thousand types per cloud, and its header names each upstream file and commit', () => {
  const n = instanceTypeCounts();
  assert.ok(n.EC2 > 1000 && n.Azure > 1000, JSON.stringify(n));
  const head = readFileSync(join(__dirname, '../../server/src/catalog/instance-types.generated.ts'), 'utf8').split('\n').slice(0, 5).join('\n');
  assert.match(head, /awslabs\/amazon-eks-ami nodeadm\/internal\/kubelet\/instance-info\.jsonl @ [0-9a-f]{40}/);
  assert.match(head, /kubernetes\/autoscaler cluster-autoscaler\/cloudprovider\/aws\/ec2_instance_types\.go @ [0-9a-f]{40}/);
  assert.match(head, /kubernetes\/autoscaler cluster-autoscaler\/cloudprovider\/azure\/azure_instance_types\.go @ [0-9a-f]{40}/);
});

test('did-you-mean: a transposition, a missing Standard_ prefix; nothing for a far-off name', () => {
  assert.equal(suggestInstanceType('m5.lrage'), 'm5.large');
  assert.equal(suggestInstanceType('D4s_v5'), 'Standard_D4s_v5');
  assert.equal(suggestInstanceType('my-big-box-of-cores'), undefined);
});

// --- the generator on a tiny input ---

const ENI = `{"instanceType":"m5.large","defaultMaxENIs":3,"ipv4AddressesPerInterface":10}
{"instanceType":"t3.medium","defaultMaxENIs":3,"ipv4AddressesPerInterface":6}
{"instanceType":"x9.only-eni","defaultMaxENIs":2,"ipv4AddressesPerInterface":4}
`;
const EC2 = `var InstanceTypes = map[string]*InstanceType{
	"t3.medium": {
		InstanceType: "t3.medium",
		VCPU:         2,
		MemoryMb:     4096,
		GPU:          0,
		Architecture: "amd64",
	},
	"c1.medium": {
		InstanceType: "c1.medium",
		VCPU:         2,
		MemoryMb:     1740,
		GPU:          0,
	},
	"m5.large": {
		InstanceType: "m5.large",
		VCPU:         2,
		MemoryMb:     8192,
		GPU:          0,
	},
}`;
const AZURE = `var InstanceTypes = map[string]*InstanceType{
	"Standard_D2s_v5": {
		InstanceType: "Standard_D2s_v5",
		SkuFamily:    "standardDSv5Family",
		VCPU:         2,
		MemoryMb:     8192,
		GPU:          0,
	},
}`;

test('generator: nodeadm max pods = ENIs x (IPv4 per ENI - 1) + 2 (eni_max_pods.go calculateStandardMaxPods)', () => {
  const pods = readEniMaxPods(ENI);
  assert.deepEqual([...pods], [['m5.large', 29], ['t3.medium', 17], ['x9.only-eni', 8]]);
});

test('generator: sorted rows name,vCPU,memory[,pods]; GiB, or MiB with M; types without vCPU data are left out', () => {
  const ec2 = readGoTable(EC2);
  assert.equal(ec2.length, 3);
  assert.equal(encodeRows(ec2, readEniMaxPods(ENI)), 'c1.medium,2,1740M;m5.large,2,8,29;t3.medium,2,4,17');
  assert.equal(encodeRows(readGoTable(AZURE), undefined, 'Standard_'), 'D2s_v5,2,8');
  const out = generate({ eni: ENI, ec2: EC2, azure: AZURE, eksAmiCommit: 'a'.repeat(40), autoscalerCommit: 'b'.repeat(40) });
  assert.match(out, /^\/\/ Generated by scripts\/instance-types\.ts/);
  assert.match(out, /amazon-eks-ami nodeadm\/internal\/kubelet\/instance-info\.jsonl @ a{40}/);
  assert.match(out, /EC2: 3 types \(2 with ENI max pods\); Azure: 1 types/);
  assert.match(out, /export const EC2_ROWS = "c1\.medium,2,1740M;m5\.large,2,8,29;t3\.medium,2,4,17";/);
  assert.match(out, /export const AZURE_ROWS = "D2s_v5,2,8";/);
});

test('generator: an input in another format is an error, not an empty table', () => {
  assert.throws(() => generate({ eni: ENI, ec2: 'package aws', azure: AZURE, eksAmiCommit: '', autoscalerCommit: '' }), /empty/);
});

// --- capacity from a name ---

test('parseCapacity: an instance type name gives cpu, memory and pods, with where they came from', () => {
  const c = parseCapacity('m5.large');
  assert.ok(c.ok);
  assert.equal(c.capacity.cpu, 2000n);
  assert.equal(c.capacity.memory, 8n * GI);
  assert.equal(c.capacity.pods, 29n);
  assert.equal(c.source, 'm5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table)');
});

test('parseCapacity: pairs after a name override it; a name after a pair is not read', () => {
  const c = parseCapacity('t3.medium, ephemeral-storage=20Gi, pods=110');
  assert.ok(c.ok);
  assert.equal(c.capacity.cpu, 2000n);
  assert.equal(c.capacity.pods, 110n);
  assert.equal(c.capacity['ephemeral-storage'], 20n * GI);
  assert.match(c.source ?? '', /^t3\.medium: 2 vCPU, 4 GiB, 17 pods \(EC2 table\), with ephemeral-storage=20Gi,pods=110$/);
  const bad = parseCapacity('pods=110,m5.large');
  assert.ok(!bad.ok);
  assert.match(bad.error, /"m5\.large" is not resource=quantity/);
});

test('parseCapacity: an unknown name is an error with a did-you-mean, and says which name', () => {
  const c = parseCapacity('m5.lrage');
  assert.ok(!c.ok);
  assert.equal(c.unknownName, 'm5.lrage');
  assert.equal(c.error, '"m5.lrage" is neither a known instance type nor resource=quantity; did you mean m5.large?');
});

test('parseCapacity: GCE shapes stay presets (no public table to generate from); plain pairs carry no source', () => {
  const c = parseCapacity('n2-standard-8');
  assert.ok(c.ok);
  assert.equal(c.capacity.memory, 32n * GI);
  assert.equal(c.source, 'preset n2-standard-8: cpu=8,memory=32Gi');
  const plain = parseCapacity('cpu=2,memory=4Gi');
  assert.ok(plain.ok);
  assert.equal(plain.source, undefined);
});

test('capacitiesOfInstanceTypes: in order, duplicates dropped, unknown names with a did-you-mean', () => {
  const r = capacitiesOfInstanceTypes(['m5.large', 'm5.xlarge', 'M5.LARGE', 'm5.xlarg', ' ']);
  assert.deepEqual(
    r.map((x) => (x.ok ? `${x.name} ${x.capacity.cpu} ${x.capacity.pods}` : x.error)),
    ['m5.large 2000 29', 'm5.xlarge 4000 58', '"m5.xlarg" is not in the instance type table (EC2 and Azure); did you mean m5.xlarge?'],
  );
});

test('--capacity m5.large: the CLI keeps what the name stood for', () => {
  const o = parseArgs(['--capacity', 'm5.large', 'x']);
  assert.equal(o.capacity?.pods, 29n);
  assert.equal(o.capacitySource, 'm5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table), --capacity');
});

// --- allocatable for an instance type ---

const RESERVED = 'kubeReserved:\n  cpu: 70m\n  memory: 574Mi\nevictionHard:\n  memory.available: 100Mi\nmaxPods: 29\n';

test('a capacity modeline naming m5.large: allocatable for that type, and hover/inlay say where it came from', () => {
  const path = 'n/kubelet-config.yaml';
  const a = run({ [path]: '# kubelet-lint: capacity m5.large\n' + CONFIG_HEAD + RESERVED }, { capacity: parseCapacityOk('cpu=64,memory=256Gi') });
  const r = onlyNode(a);
  assert.equal(r.node.capacitySource, `m5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table), modeline in ${path} line 1`);
  assert.equal(r.allocatable.lines.cpu.allocatable, 1930n);
  assert.equal(r.allocatable.lines.memory.allocatable, 8n * GI - 674n * 1024n * 1024n);
  assert.equal(r.allocatable.pods, 29n);
  assert.match(allocatableMarkdown(r), /Capacity from m5\.large: 2 vCPU, 8 GiB, 29 pods \(EC2 table\), modeline/);
  assert.doesNotMatch(allocatableMarkdown(r), /the kubelet's pod capacity is maxPods/, 'maxPods equals the ENI count: no note');
  const hints = inlayHints(a, path, { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } });
  assert.equal(hints.length, 1);
  assert.match(String(hints[0]!.tooltip), /capacity from m5\.large: 2 vCPU/);
});

test('maxPods above the ENI count of the named type is pointed out (the kubelet reports maxPods as pod capacity)', () => {
  const r = onlyNode(run({ 'n/kubelet-config.yaml': '# kubelet-lint: capacity t3.medium\n' + CONFIG_HEAD + 'maxPods: 110\n' }));
  assert.equal(r.allocatable.pods, 110n);
  assert.match(allocatableMarkdown(r), /The capacity names 17 pods, but the kubelet's pod capacity is maxPods \(with podsPerCore\), here 110/);
  assert.ok(nodeAllocatable(r).notes.some((n) => n.startsWith('The capacity names 17 pods')));
});

test('a capacity modeline with an unknown type: instance-type-unknown with a did-you-mean, and the option stays', () => {
  const a = run({ 'n/kubelet-config.yaml': '# kubelet-lint: capacity m5.lrage\n' + CONFIG_HEAD }, { capacity: parseCapacityOk('cpu=2,memory=4Gi') });
  const f = a.findings.filter((x) => x.code === 'instance-type-unknown');
  assert.equal(f.length, 1);
  assert.equal(f[0]!.severity, 'warning');
  assert.equal(f[0]!.range.start.line, 0);
  assert.match(f[0]!.message, /did you mean m5\.large\?/);
  assert.equal(onlyNode(a).allocatable.lines.cpu.capacity, 2000n);
});

// --- several candidate types (a format lists them on its ParsedFile) ---

function fileNaming(names: string[]): ParsedFile {
  const span = (line: number) => ({ file: 'np.yaml', range: { start: { line, character: 8 }, end: { line, character: 20 } } });
  return {
    path: 'np.yaml',
    instanceTypes: [{ what: 'Karpenter requirement node.kubernetes.io/instance-type', names: names.map((name, i) => ({ name, span: span(10 + i) })) }],
  } as unknown as ParsedFile;
}

test('instance types named by a file: the first is the capacity, all are candidates, unknown ones are findings', () => {
  const s = nodeSettings([fileNaming(['m5.large', 'm5.2xlarge', 'm5.lrage'])], { capacity: parseCapacityOk('cpu=64,memory=256Gi'), kubernetesVersion: '1.33' });
  assert.equal(s.capacity?.cpu, 2000n);
  assert.equal(s.capacitySource, 'm5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table) (first of 2 candidate types), Karpenter requirement node.kubernetes.io/instance-type in np.yaml line 11');
  assert.deepEqual(s.capacityCandidates?.map((c) => c.name), ['m5.large', 'm5.2xlarge']);
  assert.equal(s.problems.length, 1);
  assert.equal(s.problems[0]!.code, 'instance-type-unknown');
  assert.equal(s.problems[0]!.range.start.line, 12);
  const typoFirst = nodeSettings([fileNaming(['m5.lrage', 'T3.Medium'])], { kubernetesVersion: '1.33' });
  assert.match(typoFirst.capacitySource ?? '', /^t3\.medium: .* in np\.yaml line 12$/, 'the line of the name the capacity came from');
  assert.equal(typoFirst.problems[0]!.range.start.line, 10);
});

test('one named type is the capacity without candidates; a capacity modeline still wins', () => {
  const one = nodeSettings([fileNaming(['t3.medium'])], { kubernetesVersion: '1.33' });
  assert.equal(one.capacity?.pods, 17n);
  assert.equal(one.capacityCandidates, undefined);
  const withModeline = { ...fileNaming(['t3.medium']), modelines: [{ setting: 'capacity', value: 'cpu=8', span: { file: 'np.yaml', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } } }] };
  const s = nodeSettings([withModeline as unknown as ParsedFile], { kubernetesVersion: '1.33' });
  assert.equal(s.capacity?.cpu, 8000n);
  assert.match(s.capacitySource ?? '', /^modeline in np\.yaml line 1$/);
});

test('allocatable per candidate type: each type with the same reservations; a small type left with nothing says so', () => {
  const base = onlyNode(run({ 'n/kubelet-config.yaml': CONFIG_HEAD + 'kubeReserved:\n  cpu: "2"\n  memory: 1Gi\nmaxPods: 29\n' }));
  const capacityCandidates = capacitiesOfInstanceTypes(['m5.large', 'm5.2xlarge']).flatMap((c) => (c.ok ? [c] : []));
  const node: NodeModel = { ...base.node, capacity: capacityCandidates[0]!.capacity, capacitySource: capacityCandidates[0]!.source, capacityCandidates };
  const rows = candidateAllocatables(node);
  assert.deepEqual(rows.map((r) => [r.name, r.cpu, r.memory, r.pods, r.exhausted]), [
    ['m5.large', '0 CPU', '6.9 GiB', '29', true],
    ['m5.2xlarge', '6 CPU', '30.9 GiB', '29', false],
  ]);
  const result = { node, allocatable: computeAllocatable(node, node.capacity) };
  const md = allocatableMarkdown(result);
  assert.match(md, /Allocatable per candidate instance type\*\* \(2; the table above is for m5\.large\)/);
  assert.match(md, /\| m5\.2xlarge \| 8 vCPU, 32 GiB, 58 pods \(EC2 table\) \| 6 CPU \| 30\.9 GiB \| 29 \|/);
  assert.deepEqual(nodeAllocatable(result).candidates?.map((c) => c.name), ['m5.large', 'm5.2xlarge']);
});

function parseCapacityOk(text: string) {
  const c = parseCapacity(text);
  assert.ok(c.ok);
  return c.capacity;
}

test('kubeletConfig.nodeCapacity: an instance type through the engine, an unknown one a problem with a did-you-mean', () => {
  const ok = toAnalysisOptions({ ...DEFAULT_SETTINGS, nodeCapacity: 'Standard_D4s_v5' });
  assert.equal(ok.options.capacity?.cpu, 4000n);
  assert.equal(ok.options.capacitySource, 'Standard_D4s_v5: 4 vCPU, 16 GiB (Azure table) (the kubeletConfig.nodeCapacity setting)');
  const bad = toAnalysisOptions({ ...DEFAULT_SETTINGS, nodeCapacity: 'Standard_D4s_v55' });
  assert.equal(bad.options.capacity, undefined);
  assert.match(bad.capacityProblem ?? '', /did you mean Standard_D4s_v5\?/);
  const preset = toAnalysisOptions({ ...DEFAULT_SETTINGS, nodeCapacity: 'docs-example' });
  assert.equal(preset.options.capacity?.cpu, 16000n);
});
