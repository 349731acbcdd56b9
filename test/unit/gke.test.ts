/**
 * GKE node system configuration (server/src/platforms/gke): the file of `gcloud container node-pools create
 * --system-config-from-file`. gcloud's own refusals (google-cloud-sdk 578.0.0 api_lib/container/util.py
 * LoadSystemConfigFromYAML: unknown fields, wrong types) and the GKE API's ranges (NodeKubeletConfig) are reported in
 * the file's names at the user's lines; its keys reach the kubelet as the fields they set; allocatable follows GKE's
 * reservation arithmetic (cloud.google.com plan-node-sizes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem } from 'vscode-languageserver-types';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { describe } from '../../server/src/node/provenance.ts';
import { hover } from '../../server/src/features/hover.ts';
import { completionAt } from '../../server/src/features/embedded.ts';
import { gkeCpuMillis, gkeMemoryMiB } from '../../server/src/catalog/reservation-formulas.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { assertShortPoints } from '../helpers/messages.ts';
import { EXAMPLES } from '../../server/src/platforms/gke/examples.ts';
import { applyEdits } from '../helpers/edits.ts';

const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;
const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`);
const text = () => EXAMPLES[0].text;
const hoverText = (a: ReturnType<typeof analyze>, path: string, line: number, character: number) => {
  const h = hover(a, path, { line, character });
  return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
};

function completeAt(path: string, fixture: string): CompletionItem[] {
  const lines = fixture.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line].indexOf('|');
  lines[line] = lines[line].replace('|', '');
  return completionAt(analyze([{ path, text: lines.join('\n') }]), path, { line, character }, undefined, { snippets: false });
}

test('recognised by kubeletConfig or linuxConfig at column 0, by content: not an indented kubeletConfig, not a Kubernetes object', () => {
  assert.equal(detectKind('system-config.yaml', text()), 'gke-system-config');
  assert.equal(detectKind('node/anything.yml', 'linuxConfig:\n  sysctl:\n    net.core.somaxconn: \'2048\'\n'), 'gke-system-config');
  assert.equal(detectKind('sc.json', '{\n  "kubeletConfig": {"cpuManagerPolicy": "static"}\n}\n'), 'gke-system-config');
  // An OpenShift KubeletConfig and a Config Connector node pool hold kubeletConfig under spec.
  assert.notEqual(detectKind('kc.yaml', 'apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nspec:\n  kubeletConfig:\n    maxPods: 250\n'), 'gke-system-config');
  assert.notEqual(detectKind('np.yaml', 'apiVersion: container.cnrm.cloud.google.com/v1beta1\nkind: ContainerNodePool\nspec:\n  nodeConfig:\n    kubeletConfig:\n      podPidsLimit: 4096\n'), 'gke-system-config');
});

test('the sample: gcloud and GKE refusals at their lines, in the file\'s names, each with a short point', () => {
  const a = analyze([{ path: 'gke-system-config.yaml', text: text() }]);
  assert.equal(a.nodes.length, 1);
  assert.deepEqual(show(a.findings), [
    '7 error platform-config-invalid', // cpuCfsQuota: the REST spelling, gcloud wants cpuCFSQuota
    '9 error platform-config-invalid', // podPidsLimit "4096": gcloud checks isinstance(int)
    '10 error platform-config-invalid', // containerLogMaxSize 1Gi: GKE takes 10Mi to 500Mi
    '17 error platform-config-invalid', // nodefs.available: gcloud's signal is nodefsAvailable
    '23 error platform-config-invalid', // kubeReserved: not a key of the file, GKE computes it
    '27 error platform-config-invalid', // a sysctl value must be a string
  ]);
  const m = a.findings.map((f) => f.message);
  assert.match(m[0], /kubeletConfig has no field cpuCfsQuota\. Did you mean cpuCFSQuota\?/);
  assert.match(m[1], /podPidsLimit must be an integer, not "4096"/);
  assert.match(m[2], /^GKE rejects containerLogMaxSize 1Gi: it takes 10Mi to 500Mi\./);
  assert.match(m[3], /evictionSoft has no signal nodefs\.available\. GKE spells it nodefsAvailable\./);
  assert.match(m[4], /no field kubeReserved\. GKE computes kube-reserved from the machine size/);
  assert.match(m[5], /sysctl net\.core\.somaxconn must be a string/);
  assertShortPoints(a.findings);
});

test('the rename quick fix writes GKE\'s spelling and the finding goes away', () => {
  const t = text();
  const a = analyze([{ path: 's.yaml', text: t }]);
  const f = a.findings.find((x) => x.message.includes('cpuCfsQuota'))!;
  const fix = f.fixes?.[0];
  assert.equal(fix?.title, 'Rename to cpuCFSQuota');
  const lines = t.split('\n');
  const e = fix!.edits[0];
  lines[e.range.start.line] = lines[e.range.start.line].slice(0, e.range.start.character) + e.newText + lines[e.range.start.line].slice(e.range.end.character);
  const b = analyze([{ path: 's.yaml', text: lines.join('\n') }]);
  assert.ok(!b.findings.some((x) => x.range.start.line === 6), show(b.findings).join('\n'));
  const q = b.nodes[0].node.settings.get('cpuCFSQuota');
  assert.ok(q?.kind === 'scalar' && q.value === false);
});

test('keys become the kubelet fields they set, at the user\'s key: readOnlyPort 0, imageGC thresholds, topology manager, evictionSoft signals', () => {
  const a = analyze([{ path: 'gke-system-config.yaml', text: text() }]);
  const s = a.nodes[0].node.settings;
  const port = s.get('readOnlyPort');
  assert.ok(port?.kind === 'scalar');
  assert.equal(port.value, 0);
  assert.equal(describe(port.from), 'readOnlyPort in kubeletConfig in gke-system-config.yaml line 14');
  assert.equal((s.get('imageGCHighThresholdPercent') as { value: unknown }).value, 80);
  assert.equal((s.get('imageGCLowThresholdPercent') as { value: unknown }).value, 70);
  assert.equal((s.get('topologyManagerPolicy') as { value: unknown }).value, 'best-effort');
  assert.equal((s.get('topologyManagerScope') as { value: unknown }).value, 'pod');
  const soft = s.get('evictionSoft');
  assert.ok(soft?.kind === 'map');
  assert.deepEqual(soft.items.map((i) => `${i.key}=${i.text}`), ['memory.available=200Mi']);
  const grace = s.get('evictionSoftGracePeriod');
  assert.ok(grace?.kind === 'map');
  assert.deepEqual(grace.items.map((i) => `${i.key}=${i.text}`), ['memory.available=90s']);
  // cpuCFSQuotaPeriod other than 100ms: GKE turns the kubelet gate on, so no gate finding.
  const gates = s.get('featureGates');
  assert.ok(gates?.kind === 'map' && gates.items.some((i) => i.key === 'CustomCPUCFSQuotaPeriod' && i.from.how === 'platform'));
  const t = analyze([{ path: 'p.yaml', text: 'kubeletConfig:\n  insecureKubeletReadonlyPortEnabled: true\n' }]);
  assert.equal((t.nodes[0].node.settings.get('readOnlyPort') as { value: unknown }).value, 10255);
});

test('allocatable with the modeline\'s e2-standard-4 size: GKE\'s tiers, 80m cpu (3920m left, as in the plan-node-sizes example) and 2663Mi memory plus 100Mi eviction', () => {
  const a = analyze([{ path: 'gke-system-config.yaml', text: text() }]);
  const node = a.nodes[0].node;
  const kr = node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`), ['cpu=80m', 'memory=2663Mi']);
  assert.equal(gkeCpuMillis(4000n), 80n);
  assert.equal(gkeMemoryMiB(16n * GiB), 2663n);
  const al = a.nodes[0].allocatable;
  assert.equal(al.lines.cpu.allocatable, 3920n);
  assert.equal(al.lines.memory.allocatable, 16n * GiB - 2663n * MiB - 100n * MiB);
  assert.equal(al.pods, 110n);
});

test('a bigger machine and a pods capacity: n2-standard-32 (32 cores, 128GiB), --max-pods-per-node 64', () => {
  const a = analyze([{ path: 's.yaml', text: 'kubeletConfig:\n  cpuManagerPolicy: static\n' }], { capacity: { cpu: 32000n, memory: 128n * GiB, pods: 64n, hugepages: new Map() } });
  assert.deepEqual(show(a.findings), []);
  const kr = a.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  // cpu: 60 + 10 + 2 × 5 + 28 × 2.5 = 150m; memory: 1024 + 819.2 + 819.2 + 6% of 112 GiB (6881.28) = 9543.68 → 9544Mi
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`), ['cpu=150m', 'memory=9544Mi']);
  assert.equal(a.nodes[0].allocatable.pods, 64n);
});

test('without a capacity GKE\'s reservation is unknown, not missing: no reservations-missing, no static CPU manager error', () => {
  const a = analyze([{ path: 's.yaml', text: 'kubeletConfig:\n  cpuManagerPolicy: static\n  podPidsLimit: 4096\n' }]);
  assert.deepEqual(show(a.findings), []);
  const kr = a.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map' && kr.items.every((i) => i.template === 'whole'));
});

test('real files: scylla-operator examples/gke/systemconfig.yaml and performance-study\'s system-config.yaml give no findings', () => {
  // scylladb/scylla-operator adefed4e examples/gke/systemconfig.yaml; converged-computing/performance-study 6f3df687
  // experiments/google/gke/cpu/system-config.yaml (its linuxConfig indented by one space).
  const scylla = 'kubeletConfig:\n  cpuManagerPolicy: static\n';
  const perf = "kubeletConfig:\n  cpuManagerPolicy: static\nlinuxConfig:\n sysctl:\n   net.core.somaxconn: '2048'\n   net.ipv4.tcp_rmem: '4096 87380 16777216'\n   net.ipv4.tcp_wmem: '4096 16384 16777216'\n";
  for (const [name, t] of [['systemconfig.yaml', scylla], ['system-config.yaml', perf]]) {
    assert.equal(detectKind(name, t), 'gke-system-config');
    assert.deepEqual(show(analyze([{ path: name, text: t }]).findings), [], name);
  }
});

test('ranges of the GKE API: podPidsLimit, containerLogMaxFiles, image GC order, maxParallelImagePulls, evictionSoft percentages', () => {
  const a = analyze([{ path: 's.yaml', text: [
    'kubeletConfig:',
    '  podPidsLimit: 500',
    '  containerLogMaxFiles: 20',
    '  imageGcHighThresholdPercent: 60',
    '  imageGcLowThresholdPercent: 70',
    '  maxParallelImagePulls: 10',
    '  evictionSoft:',
    '    nodefsAvailable: 5%',
    '  evictionSoftGracePeriod:',
    '    nodefsAvailable: 1m',
    '  cpuCFSQuotaPeriod: 2s',
    '',
  ].join('\n') }]);
  const gke = a.findings.filter((f) => f.code === 'platform-config-invalid');
  assert.deepEqual(gke.map((f) => `${f.range.start.line + 1} ${f.message.split(':')[0]}`), [
    '2 GKE rejects podPidsLimit 500',
    '3 GKE rejects containerLogMaxFiles 20',
    '6 GKE rejects maxParallelImagePulls 10',
    '8 GKE rejects evictionSoft.nodefsAvailable 5%',
    '11 GKE rejects cpuCFSQuotaPeriod 2s',
  ]);
  // Low above high: the kubelet refuses it too, and its rule reports it at the user's line (once, not twice).
  const kubelet = a.findings.filter((f) => f.code !== 'platform-config-invalid');
  assert.deepEqual(kubelet.map((f) => `${f.range.start.line + 1} ${f.code}`), ['5 config-value-invalid']);
  // ... in gcloud's names (PlatformSemantics.names), not the kubelet's imageGCLowThresholdPercent
  assert.match(kubelet[0].message, /^imageGcLowThresholdPercent \(70\) must be lower than imageGcHighThresholdPercent \(60\)\./);
  assertShortPoints(a.findings);
});

test('hover on the user\'s key tells the kubelet field it sets; completion offers GKE\'s names and no field GKE computes', () => {
  const a = analyze([{ path: 'gke-system-config.yaml', text: text() }]);
  assert.match(hoverText(a, 'gke-system-config.yaml', 13, 4), /readOnlyPort/);
  assert.match(hoverText(a, 'gke-system-config.yaml', 11, 4), /imageGCHighThresholdPercent/);
  const items = completeAt('s.yaml', 'kubeletConfig:\n  cpuManagerPolicy: static\n  |\n');
  const labels = items.map((i) => i.label);
  for (const k of ['cpuCFSQuota', 'insecureKubeletReadonlyPortEnabled', 'imageGcHighThresholdPercent', 'evictionSoft', 'topologyManager']) assert.ok(labels.includes(k), k);
  for (const k of ['cpuManagerPolicy', 'kubeReserved', 'evictionHard', 'maxPods', 'cpuCfsQuota', 'imageGCHighThresholdPercent']) assert.ok(!labels.includes(k), k);
});

test('the JSON form gcloud also reads: same keys, same checks, at the JSON lines', () => {
  const t = '{\n  "kubeletConfig": {\n    "cpuManagerPolicy": "static",\n    "podPidsLimit": 100,\n    "insecureKubeletReadonlyPortEnabled": false\n  }\n}\n';
  assert.equal(detectKind('system-config.json', t), 'gke-system-config');
  const a = analyze([{ path: 'system-config.json', text: t }]);
  assert.deepEqual(show(a.findings), ['4 error platform-config-invalid']);
  assert.match(a.findings[0].message, /^GKE rejects podPidsLimit 100: it takes 1024 to 4194303\./);
  const port = a.nodes[0].node.settings.get('readOnlyPort');
  assert.ok(port?.kind === 'scalar' && port.value === 0 && port.span?.range.start.line === 4);
});

test('a finding in the GKE file speaks its eviction signals (memoryAvailable), and its fix writes them: gcloud refuses memory.available as a key', () => {
  const path = 'gke/system-config.yaml';
  const text = 'kubeletConfig:\n  evictionSoft:\n    memoryAvailable: "200Mi"\n';
  const a = analyze([{ path, text }]);
  const f = a.findings.find((x) => x.code === 'eviction-soft-without-grace');
  assert.ok(f);
  assert.match(f.message, /^Soft threshold memoryAvailable has no grace period/);
  assert.match(f.message, /\("grace period must be specified for the soft eviction threshold memory\.available"\)/, 'the kubelet\'s own error is quoted as it prints it');
  assert.equal(f.fixes?.[0].title, 'Add evictionSoftGracePeriod of 1m30s for memoryAvailable');
  const fixed = applyEdits(text, f.fixes![0].edits, path);
  assert.match(fixed, /evictionSoftGracePeriod:\n\s+memoryAvailable: 1m30s/);
  const after = analyze([{ path, text: fixed }]);
  assert.deepEqual(show(after.findings.filter((x) => x.severity === 'error' || x.severity === 'warning')), [], 'gcloud takes the fixed file and the kubelet starts');
});
