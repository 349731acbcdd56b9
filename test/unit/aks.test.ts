/**
 * AKS custom node configuration (server/src/platforms/aks): the JSON of `az aks nodepool add --kubelet-config`.
 * Its keys reach the kubelet as AKS writes them (Azure/AgentBaker pkg/agent/utils.go setCustomKubeletConfig:
 * containerLogMaxSizeMB N is containerLogMaxSize "NM", podMaxPids is podPidsLimit, cpuCfsQuotaPeriod turns on
 * CustomCPUCFSQuotaPeriod); keys az does not know are dropped without a word (warnings); allocatable follows AKS's
 * reservations (MicrosoftDocs/azure-aks-docs node-resource-reservations.md, 1.29 and later).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem } from 'vscode-languageserver-types';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { hover } from '../../server/src/features/hover.ts';
import { templateNote } from '../../server/src/features/allocatable-view.ts';
import { nodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { completionAt } from '../../server/src/features/embedded.ts';
import { recommend } from '../../server/src/catalog/reservation-formulas.ts';
import { aksCpuMillis, aksMemoryMiB } from '../../server/src/platforms/aks/reservations.ts';
import { inPlatformWords } from '../../server/src/node/platform.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { parsePercentage, thresholdQuantity } from '../../server/src/quantity/threshold.ts';
import { assertShortPoints } from '../helpers/messages.ts';
import { EXAMPLES } from '../../server/src/platforms/aks/examples.ts';

const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;
const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`);
const text = () => EXAMPLES[0].text;
const cap = (cores: number, gib: bigint, pods?: bigint) => ({ cpu: BigInt(cores * 1000), memory: gib * GiB, ...(pods ? { pods } : {}), hugepages: new Map() });
const hoverText = (a: ReturnType<typeof analyze>, path: string, line: number, character: number) => {
  const h = hover(a, path, { line, character });
  return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
};

/** Microsoft's linux kubelet example (custom-node-configuration.md; the same as azure-cli's tests/latest/data/kubeletconfig.json). */
const MICROSOFT = `{
 "cpuManagerPolicy": "static",
 "cpuCfsQuota": true,
 "cpuCfsQuotaPeriod": "200ms",
 "imageGcHighThreshold": 90,
 "imageGcLowThreshold": 70,
 "topologyManagerPolicy": "best-effort",
 "allowedUnsafeSysctls": [
  "kernel.msg*",
  "net.*"
],
 "failSwapOn": false
}
`;

test('recognised by a key only AKS spells so, in a JSON object; not an ARM template, not a KubeletConfiguration', () => {
  assert.equal(detectKind('linuxkubeletconfig.json', MICROSOFT), 'aks-kubelet-config');
  assert.equal(detectKind('windowskubeletconfig.json', '{\n "imageGcHighThreshold": 90,\n "containerLogMaxSizeMB": 20\n}\n'), 'aks-kubelet-config');
  assert.notEqual(detectKind('pool.json', '{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",\n  "resources": [{"properties": {"kubeletConfig": {"cpuCfsQuota": true}}}]\n}\n'), 'aks-kubelet-config');
  assert.notEqual(detectKind('config.json', '{"kind": "KubeletConfiguration", "apiVersion": "kubelet.config.k8s.io/v1beta1", "cpuCFSQuota": true}\n'), 'aks-kubelet-config');
});

test('Microsoft\'s own example gives no findings, and its keys become the kubelet\'s fields', () => {
  const a = analyze([{ path: 'linuxkubeletconfig.json', text: MICROSOFT }]);
  assert.deepEqual(show(a.findings), []);
  const s = a.nodes[0].node.settings;
  assert.equal((s.get('cpuCFSQuota') as { value: unknown }).value, true);
  assert.equal((s.get('imageGCHighThresholdPercent') as { value: unknown }).value, 90);
  assert.equal((s.get('imageGCLowThresholdPercent') as { value: unknown }).value, 70);
  assert.equal((s.get('failSwapOn') as { value: unknown }).value, false);
  const gates = s.get('featureGates');
  assert.ok(gates?.kind === 'map' && gates.items.some((i) => i.key === 'CustomCPUCFSQuotaPeriod' && i.text === 'true'), 'AgentBaker turns the gate on with cpuCfsQuotaPeriod');
});

test('converted values: containerLogMaxSizeMB 50 is containerLogMaxSize 50M, podMaxPids is podPidsLimit, seccompDefault RuntimeDefault is true', () => {
  const a = analyze([{ path: 'k.json', text: '{\n  "containerLogMaxSizeMB": 50,\n  "containerLogMaxFiles": 6,\n  "podMaxPids": 4096,\n  "seccompDefault": "RuntimeDefault"\n}\n' }]);
  assert.deepEqual(show(a.findings), []);
  const s = a.nodes[0].node.settings;
  const size = s.get('containerLogMaxSize');
  assert.ok(size?.kind === 'scalar');
  assert.equal(size.value, '50M');
  assert.equal(size.span?.range.start.line, 1, "at the user's containerLogMaxSizeMB value");
  assert.equal((s.get('podPidsLimit') as { value: unknown }).value, 4096);
  assert.equal((s.get('seccompDefault') as { value: unknown }).value, true);
  // Without the key, AKS's default (containerLogMaxSizeMB 50) is in place.
  const d = analyze([{ path: 'k.json', text: '{"podMaxPids": 1024}\n' }]).nodes[0].node.settings.get('containerLogMaxSize');
  assert.ok(d?.kind === 'scalar' && d.value === '50M' && d.from.how === 'platform');
});

test('the sample: az\'s and AKS\'s refusals at their lines, in the file\'s names; keys az drops are warnings', () => {
  const a = analyze([{ path: 'aks-linuxkubeletconfig.json', text: text() }]);
  assert.deepEqual(show(a.findings), [
    '7 error platform-config-invalid', // "best_effort": AKS takes best-effort
    '10 error platform-config-invalid', // containerLogMaxSizeMB "50Mi": az cannot make it a number
    '11 error config-value-invalid', // containerLogMaxFiles 1: the kubelet needs 2 or more
    '13 error platform-config-invalid', // seccompDefault true: AKS takes "RuntimeDefault"
    '14 warning platform-config-invalid', // imageGCHighThresholdPercent: the kubelet's spelling, dropped
    '15 warning platform-config-invalid', // maxPods: dropped, it is --max-pods
  ]);
  const m = a.findings.map((f) => f.message);
  assert.match(m[0], /^AKS rejects topologyManagerPolicy "best_effort": it takes none, best-effort, restricted, single-numa-node\./);
  assert.match(m[1], /^az cannot send containerLogMaxSizeMB "50Mi": it must be a whole number\./);
  assert.match(m[3], /AKS takes "RuntimeDefault"/);
  assert.match(m[4], /^az drops imageGCHighThresholdPercent: AKS never sees it\. AKS calls it imageGcHighThreshold\./);
  assert.match(m[5], /--max-pods/);
  assertShortPoints(a.findings);
  const fix = (n: number) => a.findings[n].fixes?.[0];
  assert.deepEqual([fix(0)?.edits[0].newText, fix(1)?.edits[0].newText, fix(3)?.edits[0].newText, fix(4)?.edits[0].newText], ['"best-effort"', '50', '"RuntimeDefault"', '"imageGcHighThreshold"']);
});

test('AKS cpu reservation is Karpenter-for-Azure\'s bracket sum: equal to the documented table and to the refactor\'s AKS formula there, defined between', () => {
  const table: [number, bigint][] = [[1, 60n], [2, 100n], [4, 140n], [8, 180n], [16, 260n], [32, 420n], [64, 740n]];
  for (const [cores, m] of table) {
    assert.equal(aksCpuMillis(BigInt(cores * 1000)), m, `${cores} cores`);
    assert.equal(recommend('AKS', BigInt(cores * 1000), 64n * GiB, 110n)?.kubeReserved[0][1], `${m}m`);
  }
  assert.equal(aksCpuMillis(3000n), 120n);
  assert.equal(aksCpuMillis(96000n), 1060n);
  // memory: min(20 × pods + 50, 25%): Microsoft's examples 8 GB with 30 pods → 650, 4 GB with 70 pods → 25%
  assert.equal(aksMemoryMiB(8n * GiB, 30n), 650n);
  assert.equal(aksMemoryMiB(4n * GiB, 70n), 1024n);
  assert.equal(recommend('AKS', 8000n, 8n * GiB, 30n)?.kubeReserved[1][1], '650Mi');
});

test('allocatable on a Standard_D4s_v3 (4 cores, 16GiB): 140m cpu, 20 × 110 + 50 = 2250Mi memory, eviction 100Mi', () => {
  const a = analyze([{ path: 'k.json', text: MICROSOFT }], { capacity: cap(4, 16n) });
  assert.deepEqual(show(a.findings), []);
  const kr = a.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`), ['cpu=140m', 'memory=2250Mi']);
  const al = a.nodes[0].allocatable;
  assert.equal(al.lines.cpu.allocatable, 3860n);
  assert.equal(al.lines.memory.allocatable, 16n * GiB - 2250n * MiB - 100n * MiB);
  assert.equal(al.pods, 110n);
});

test('Azure CNI (node subnet) pools run 30 pods: a pods capacity of 30 gives 650Mi on an 8GiB machine, Microsoft\'s example', () => {
  const a = analyze([{ path: 'k.json', text: MICROSOFT }], { capacity: cap(2, 8n, 30n) });
  const kr = a.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`), ['cpu=100m', 'memory=650Mi']);
  assert.equal(a.nodes[0].allocatable.lines.memory.allocatable, 8n * GiB - 650n * MiB - 100n * MiB);
  assert.equal(a.nodes[0].allocatable.pods, 30n);
});

test('preview kubeReserved and hardEvictionThreshold replace AKS\'s: cpuMillicores 200 is 200m, memoryMB 1024 is 1024Mi, memoryAvailable 20%', () => {
  const t = '{\n  "cpuManagerPolicy": "static",\n  "kubeReserved": {\n    "cpuMillicores": 200,\n    "memoryMB": 1024\n  },\n  "hardEvictionThreshold": {\n    "memoryAvailable": "20%",\n    "nodeFsAvailable": "10%",\n    "nodeFsInodesFree": "5%"\n  }\n}\n';
  assert.equal(detectKind('k.json', t), 'aks-kubelet-config');
  const a = analyze([{ path: 'k.json', text: t }], { capacity: cap(4, 16n) });
  // The kubelet's imagefs.available default is not on AKS nodes either way; the hint says the map leaves it out.
  assert.deepEqual(show(a.findings), ['7 hint eviction-defaults-dropped']);
  const s = a.nodes[0].node.settings;
  const kr = s.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`).sort(), ['cpu=200m', 'memory=1024Mi']);
  const eh = s.get('evictionHard');
  assert.ok(eh?.kind === 'map');
  assert.deepEqual(eh.items.map((i) => `${i.key}=${i.text}`).sort(), ['memory.available=20%', 'nodefs.available=10%', 'nodefs.inodesFree=5%']);
  // 20% of 16GiB, as the kubelet computes it (a float32 percentage, quantity/threshold.ts)
  const mem = a.nodes[0].allocatable.lines.memory;
  assert.equal(mem.eviction, thresholdQuantity(16n * GiB, (parsePercentage('20%') as { fraction: number }).fraction));
  assert.equal(mem.allocatable, 16n * GiB - 1024n * MiB - mem.eviction!);
});

test('without a capacity the reservation is unknown, not missing: the static CPU manager gets no error', () => {
  const a = analyze([{ path: 'k.json', text: '{"cpuManagerPolicy": "static", "cpuCfsQuota": false}\n' }]);
  assert.deepEqual(show(a.findings), []);
});

test('without a capacity the views say AKS computes kube-reserved from the machine size: no template expression is claimed', () => {
  const a = analyze([{ path: 'k.json', text: '{"cpuManagerPolicy": "static", "cpuCfsQuota": false}\n' }]);
  const r = a.nodes[0];
  const note = templateNote(r.allocatable) ?? '';
  assert.match(note, /^Unknown until a capacity is given \(not counted as 0\): kubeReserved\.cpu \(cpu\), kubeReserved\.memory \(memory\)\. AKS computes it from the machine size/);
  assert.doesNotMatch(note, /template/i);
  const memory = nodeAllocatable(r).resources.find((x) => x.resource === 'memory');
  assert.match(memory?.missing ?? '', /^kubeReserved\.memory: AKS computes it from the machine size.*unknown until a capacity is given$/);
  // With a capacity the formula gives the amount, and nothing is left unknown.
  const sized = analyze([{ path: 'k.json', text: '{"cpuManagerPolicy": "static", "cpuCfsQuota": false}\n' }], { capacity: cap(4, 16n) });
  assert.equal(templateNote(sized.nodes[0].allocatable), undefined);
});

test('hover on the user\'s key tells the kubelet field it sets; completion offers AKS\'s names only', () => {
  const a = analyze([{ path: 'k.json', text: '{\n  "containerLogMaxSizeMB": 50,\n  "podMaxPids": 4096\n}\n' }]);
  assert.match(hoverText(a, 'k.json', 1, 5), /containerLogMaxSize/);
  assert.match(hoverText(a, 'k.json', 2, 5), /podPidsLimit/);
  const lines = ['{', '  "cpuCfsQuota": true,', '  |', '}', ''];
  const line = 2;
  const character = lines[line].indexOf('|');
  lines[line] = lines[line].replace('|', '');
  const items: CompletionItem[] = completionAt(analyze([{ path: 'k.json', text: lines.join('\n') }]), 'k.json', { line, character }, undefined, { snippets: false });
  const labels = items.map((i) => i.label);
  for (const k of ['cpuManagerPolicy', 'containerLogMaxSizeMB', 'podMaxPids', 'imageGcHighThreshold', 'seccompDefault']) assert.ok(labels.includes(k), `${k} in ${labels.join(',')}`);
  for (const k of ['cpuCfsQuota', 'maxPods', 'podPidsLimit', 'containerLogMaxSize', 'cpuCFSQuota']) assert.ok(!labels.includes(k), k);
  // values of the kubelet-shaped keys: cpuManagerPolicy's
  const v = analyze([{ path: 'k.json', text: '{\n  "podMaxPids": 5,\n  "cpuManagerPolicy": ""\n}\n' }]);
  assert.deepEqual(completionAt(v, 'k.json', { line: 2, character: 23 }, undefined, { snippets: false }).map((i) => i.label).sort(), ['none', 'static']);
});

test('the kubelet\'s own rules speak AKS\'s names in this file: imageGcLowThreshold, not imageGCLowThresholdPercent', () => {
  const a = analyze([{ path: 'k.json', text: '{\n  "imageGcHighThreshold": 60,\n  "imageGcLowThreshold": 70,\n  "podMaxPids": 4096\n}\n' }]);
  assert.deepEqual(show(a.findings), ['3 error config-value-invalid']);
  assert.match(a.findings[0].message, /^imageGcLowThreshold \(70\) must be lower than imageGcHighThreshold \(60\)\./);
  assert.ok(!/GCLow|ThresholdPercent/.test(a.findings[0].message), a.findings[0].message);
});

test('inPlatformWords renames whole field names only, and only in the platform\'s file', () => {
  const names = { podPidsLimit: 'podMaxPids', cpuCFSQuota: 'cpuCfsQuota' };
  const f = (file: string, message: string): Finding => ({ code: 'x', severity: 'error', message, file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } });
  assert.equal(inPlatformWords(f('k.json', 'podPidsLimit is 5; cpuCFSQuotaPeriod and cpuCFSQuota.'), names, 'k.json').message, 'podMaxPids is 5; cpuCFSQuotaPeriod and cpuCfsQuota.');
  assert.equal(inPlatformWords(f('other.yaml', 'podPidsLimit'), names, 'k.json').message, 'podPidsLimit');
});

test('hardEvictionThreshold findings say AKS\'s names (hardEvictionThreshold memoryAvailable), the kubelet\'s own error as it prints it', () => {
  const text = '{\n  "cpuCfsQuota": false,\n  "hardEvictionThreshold": {"memoryAvailable": "0Mi"}\n}\n';
  const a = analyze([{ path: 'k.json', text }], { capacity: cap(4, 16n) });
  const f = a.findings.find((x) => x.code === 'eviction-syntax');
  assert.ok(f, show(a.findings).join('\n'));
  assert.match(f.message, /^hardEvictionThreshold memoryAvailable: eviction threshold memoryAvailable must be positive/);
  assert.doesNotMatch(f.message, /evictionHard|memory\.available/);
});
