import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigFile } from '../../server/src/parse/config.ts';
import { parseJsonText } from '../../server/src/parse/json.ts';
import { parseYamlStream } from '../../server/src/parse/yaml.ts';
import { resolvePlainScalar } from '../../server/src/parse/yaml-scalar.ts';
import { getEntry } from '../../server/src/parse/types.ts';
import type { MapNode, ScalarNode } from '../../server/src/parse/types.ts';
import { HANG_MS } from '../helpers/hang.ts';

// The package is CommonJS (no "type": "module"), so import.meta is not available to tsc; __dirname is.
const corpus = join(__dirname, '../../../shared/corpus/files/');
const read = (name: string): string | undefined => {
  const u = join(corpus, name);
  return existsSync(u) ? readFileSync(u, 'utf8') : undefined;
};
const val = (m: MapNode, k: string) => (getEntry(m, k)?.value as ScalarNode | undefined)?.value;

test('keys and values carry exact 0-based spans (quotes included in the value span)', () => {
  const r = parseConfigFile('k.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nkubeReserved:\n  cpu: "100m"\n');
  const root = r.kubeletConfigs[0].root;
  const kr = getEntry(root, 'kubeReserved')!;
  assert.deepEqual(kr.keySpan.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 12 } });
  const cpu = getEntry(kr.value as MapNode, 'cpu')!;
  assert.deepEqual(cpu.keySpan.range, { start: { line: 3, character: 2 }, end: { line: 3, character: 5 } });
  assert.deepEqual(cpu.value.span.range, { start: { line: 3, character: 7 }, end: { line: 3, character: 13 } });
  assert.equal((cpu.value as ScalarNode).source, '100m');
});

test('plain scalars are typed like go-yaml v2 (YAML 1.1: yes/on/off booleans, 0x1F, 0755 octal, 1_000; timestamps stay strings) per sigs.k8s.io/yaml', () => {
  assert.equal(resolvePlainScalar('yes'), true);
  assert.equal(resolvePlainScalar('Off'), false);
  assert.equal(resolvePlainScalar('y'), true);
  assert.equal(resolvePlainScalar('0x1F'), 31);
  assert.equal(resolvePlainScalar('0755'), 493);
  assert.equal(resolvePlainScalar('1_000'), 1000);
  assert.equal(resolvePlainScalar('1e3'), 1000);
  assert.equal(resolvePlainScalar('~'), null);
  assert.equal(resolvePlainScalar('2001-01-01'), '2001-01-01');
  assert.equal(resolvePlainScalar('100Mi'), '100Mi');
  const r = parseYamlStream('x.yaml', 'a: yes\nb: "yes"\nc: !!str 1\nd:\n');
  const m = r.docs[0].root as MapNode;
  assert.equal(val(m, 'a'), true);
  assert.equal(val(m, 'b'), 'yes');
  assert.equal(val(m, 'c'), '1');
  assert.equal(val(m, 'd'), null);
});

test('multi-document stream: KubeletConfiguration and kubeadm docs found, empty documents fine (corpus 071 shape)', () => {
  const t = '---\napiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    node-ip: "10.0.0.1"\n---\n---\nkind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nfailSwapOn: false\n---\napiVersion: v1\nkind: ConfigMap\n';
  const r = parseConfigFile('kubeadm.yaml', t);
  assert.equal(r.kubeletConfigs.length, 1);
  assert.equal(r.kubeletConfigs[0].docIndex, 2);
  assert.equal(val(r.kubeletConfigs[0].root, 'failSwapOn'), false);
  assert.equal(r.kubeadm.length, 1);
  assert.deepEqual(r.kubeadm[0].kubeletExtraArgs.map((a) => [a.name, a.value]), [['node-ip', '10.0.0.1']]);
  assert.equal(r.kubeadm[0].kubeletExtraArgs[0].nameSpan.range.start.line, 5);
  assert.deepEqual(r.problems, []);
});

test('kubeadm v1beta4 kubeletExtraArgs is a list of {name, value} (cmd/kubeadm/app/apis/kubeadm/v1beta4/types.go []Arg); map form there, or list form in v1beta3, is a problem', () => {
  const v4 = parseConfigFile('k.yaml', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n  - name: node-ip\n    value: "10.0.0.2"\n');
  assert.deepEqual(v4.kubeadm[0].kubeletExtraArgs.map((a) => [a.name, a.value]), [['node-ip', '10.0.0.2']]);
  assert.deepEqual(v4.problems, []);
  const v4map = parseConfigFile('k.yaml', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    node-ip: "1"\n');
  assert.equal(v4map.problems[0].code, 'config-kubeadm-extra-args');
  assert.equal(v4map.kubeadm[0].kubeletExtraArgs[0].name, 'node-ip');
  const v3list = parseConfigFile('k.yaml', 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n  - name: v\n    value: "2"\n');
  assert.equal(v3list.problems[0].code, 'config-kubeadm-extra-args');
});

test('JSON config: one KubeletConfigDoc with spans; fragment option returns a drop-in without apiVersion/kind', () => {
  const r = parseConfigFile('c.json', '{\n  "kind": "KubeletConfiguration",\n  "apiVersion": "kubelet.config.k8s.io/v1beta1",\n  "maxPods": 58\n}\n');
  assert.equal(r.kubeletConfigs[0].format, 'json');
  const mp = getEntry(r.kubeletConfigs[0].root, 'maxPods')!;
  assert.deepEqual(mp.keySpan.range, { start: { line: 3, character: 2 }, end: { line: 3, character: 11 } });
  assert.equal((mp.value as ScalarNode).value, 58);
  const f = parseConfigFile('10-x.conf', '{"maxPods": 10}', { fragment: true });
  assert.equal(f.kubeletConfigs.length, 1);
  assert.equal(f.kubeletConfigs[0].apiVersion, undefined);
  assert.deepEqual(f.problems, []);
});

test('syntax errors give config-syntax at the exact position and the rest still yields', () => {
  const j = parseJsonText('x.json', '{\n  "a": 1\n  "b": 2\n}');
  assert.equal(j.problems[0].code, 'config-syntax');
  assert.deepEqual(j.problems[0].range.start, { line: 2, character: 2 });
  assert.equal(val(j.root as MapNode, 'b'), 2);
  const y = parseConfigFile('x.yaml', 'kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nmaxPods: [1, 2\nfoo: bar\n');
  assert.ok(y.problems.some((p) => p.code === 'config-syntax' && p.severity === 'error'));
  assert.equal(y.kubeletConfigs.length, 1);
});

test('duplicate keys: warning config-field-duplicate; the last value wins (lenient decoding after strict fails, pkg/kubelet/kubeletconfig/util/codec/codec.go)', () => {
  const r = parseConfigFile('k.yaml', 'kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nmaxPods: 10\nmaxPods: 20\n');
  const d = r.problems.filter((p) => p.code === 'config-field-duplicate');
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, 'warning');
  assert.equal(d[0].range.start.line, 3);
  assert.equal(d[0].related![0].span.range.start.line, 2);
  assert.equal(val(r.kubeletConfigs[0].root, 'maxPods'), 20);
  assert.equal(r.kubeletConfigs[0].root.entries.filter((e) => e.key === 'maxPods').length, 1);
  const j = parseConfigFile('k.json', '{"kind":"KubeletConfiguration","apiVersion":"kubelet.config.k8s.io/v1beta1","maxPods":1,"maxPods":2}');
  assert.equal(j.problems.filter((p) => p.code === 'config-field-duplicate').length, 1);
  assert.equal(val(j.kubeletConfigs[0].root, 'maxPods'), 2);
});

test('a 20,000-key map parses without hanging (O(n) duplicate check; speed is measured by npm run bench)', () => {
  const lines = ['kind: KubeletConfiguration', 'apiVersion: kubelet.config.k8s.io/v1beta1', 'featureGates:'];
  for (let i = 0; i < 20000; i++) lines.push(`  Gate${i}: true`);
  lines.push('  Gate5: false');
  const t0 = performance.now();
  const r = parseConfigFile('big.yaml', lines.join('\n'));
  const ms = performance.now() - t0;
  assert.ok(ms < HANG_MS, `took ${ms} ms`);
  assert.equal(r.problems.filter((p) => p.code === 'config-field-duplicate').length, 1);
  const j = '{' + Array.from({ length: 20000 }, (_, i) => `"k${i}": ${i}`).join(',') + '}';
  const t1 = performance.now();
  parseJsonText('big.json', j);
  assert.ok(performance.now() - t1 < HANG_MS);
});

test('alias bomb (billion laughs) gives config-alias, not a hang (go-yaml: "document contains excessive aliasing")', () => {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]`);
  const t0 = performance.now();
  const r = parseYamlStream('bomb.yaml', lines.join('\n'));
  assert.ok(performance.now() - t0 < HANG_MS);
  const alias = r.problems.find((p) => p.code === 'config-alias');
  assert.ok(alias);
  // The count is grouped by hand, as en-US would group it (no ICU in the server).
  assert.match(alias.message, / \d{1,3}(,\d{3})+ nodes/);
  // a normal alias resolves
  const ok = parseYamlStream('ok.yaml', 'base: &b {cpu: "1"}\nkubeReserved: *b\nsystemReserved:\n  <<: *b\n  memory: 1Gi\n');
  const m = ok.docs[0].root as MapNode;
  assert.equal(val(getEntry(m, 'kubeReserved')!.value as MapNode, 'cpu'), '1');
  assert.deepEqual((getEntry(m, 'systemReserved')!.value as MapNode).entries.map((e) => e.key), ['cpu', 'memory']);
  assert.deepEqual(ok.problems, []);
});

test('10,000-deep nesting does not crash (YAML flow, YAML block-ish, JSON)', () => {
  const n = 10000;
  const y = parseConfigFile('deep.yaml', 'a: ' + '['.repeat(n) + ']'.repeat(n));
  assert.ok(y.problems.length >= 1);
  const j = parseJsonText('deep.json', '['.repeat(n) + ']'.repeat(n));
  assert.ok(j.root);
  const j2 = parseConfigFile('deep.json', '{"a":' + '{"a":'.repeat(n) + '1' + '}'.repeat(n + 1));
  assert.ok(Array.isArray(j2.problems));
});

const CORPUS: [string, (r: ReturnType<typeof parseConfigFile>) => void][] = [
  ['010-kthw-kubelet-config.yaml', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'cgroupDriver'), 'systemd')],
  ['012-kthw-2025-kubelet-config-limitedswap.yaml', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'podCIDR'), 'SUBNET')],
  ['014-kthw-2024-kubelet-config.yaml', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'cgroupDriver'), 'systemd')],
  ['019-eks-al2-kubelet-config.json', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'readOnlyPort'), 0)],
  ['022-eks-2018-kubelet-config-reserved.json', (r) => assert.equal(val(getEntry(r.kubeletConfigs[0].root, 'kubeReserved')!.value as MapNode, 'cpu'), '1000m')],
  ['024-eks-nodeadm-expected-kubelet-config.json', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'maxPods'), 58)],
  ['025-eks-nodeadm-kubelet-config-dropin.json', (r) => assert.equal(r.kubeletConfigs.length, 1)],
  ['034-k8s-e2e-node-default-kubelet-config.yaml', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'cgroupRoot'), '/')],
  ['041-sk8s-kubelet-config-no-qos.yaml', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'cgroupsPerQOS'), false)],
  ['055-nanak8s-kubelet-config-soft-no-grace.yaml', (r) => assert.equal(r.kubeletConfigs.length, 1)],
  ['056-nanak8s-kubelet-config-soft-fixed.yaml', (r) => assert.equal(r.kubeletConfigs.length, 1)],
  ['057-vista-kubelet-config-unknown-field.yaml', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'resolverConfig'), '')],
  ['058-kubenode-empty-kubelet-config.yaml', (r) => assert.equal(r.kubeletConfigs[0].root.entries.length, 2)],
  ['059-node-notready-kubelet-config-partial-eviction.yaml', (r) => assert.equal(val(r.kubeletConfigs[0].root, 'containerLogMaxFiles'), 5)],
  ['071-usernetes-kubeadm-config.yaml', (r) => { assert.equal(r.kubeletConfigs.length, 1); assert.equal(r.kubeadm.length, 2); }],
  ['072-homelab-kubeadm-config.yaml', (r) => { assert.equal(val(r.kubeletConfigs[0].root, 'maxPods'), 250); assert.equal(r.kubeadm.length, 2); }],
  ['073-dra-kubeadm-config-wrong-apiversion.yaml', (r) => {
    assert.equal(r.kubeletConfigs[0].apiVersion, 'kubeadm.k8s.io/v1beta3');
    const p = r.problems.find((x) => x.code === 'config-kind-invalid')!;
    assert.equal(p.severity, 'error');
    assert.equal(p.range.start.line, 22);
    assert.deepEqual(r.kubeadm.find((d) => d.kind === 'JoinConfiguration')!.kubeletExtraArgs.map((a) => a.value), ['DynamicResourceAllocation=true']);
  }],
  ['074-kata-tests-kubeadm-config.yaml', (r) => {
    assert.ok(r.problems.some((p) => p.code === 'config-placeholder' && p.message.includes('CGROUP_DRIVER')));
    assert.ok(r.problems.some((p) => p.code === 'config-kubeadm-api-version'));
  }],
];

for (const [name, check] of CORPUS) {
  test(`corpus ${name} parses without throwing and gives the expected values`, (t) => {
    const text = read(name);
    if (text === undefined) return t.skip('corpus file absent');
    const r = parseConfigFile(name, text);
    check(r);
    if (!/^07[34]/.test(name)) assert.deepEqual(r.problems.filter((p) => p.severity === 'error'), []);
  });
}

// Found by `npm run fuzz` (seed 1129): a "\r" that ends the text is a line end in LSP, so the end-of-file
// position is the end of the last line's text, not one column past it.
test('JSON ending in a lone \\r: the end-of-file error is at the end of the last line, inside the file', () => {
  const text = '{\r\n  "kind": "KubeletConfiguration",\r\n  "authentication": {\r';
  const errs = parseConfigFile('k.json', text).problems.filter((p) => p.code === 'config-syntax');
  assert.ok(errs.length > 0);
  for (const e of errs) assert.ok(e.range.end.line < 2 || e.range.end.character <= '  "authentication": {'.length, JSON.stringify(e.range));
});

test('config-placeholder names where each unsubstituted value sits, as a field path with list indexes', () => {
  const r = parseConfigFile(
    'placeholders.yaml',
    'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nkubeReserved:\n  memory: ${KUBE_MEM}\nclusterDNS:\n  - 10.96.0.10\n  - "{{ dns_ip }}"\ncgroupDriver: CGROUP_DRIVER\n',
  );
  const where = r.problems.filter((p) => p.code === 'config-placeholder').map((p) => /It is the value of ([^;]*);/.exec(p.message)?.[1]).sort();
  assert.deepEqual(where, ['cgroupDriver', 'clusterDNS[1]', 'kubeReserved.memory']);
});

test('kubeadm 1.10 and older: a config without apiVersion and kind is a v1alpha1 MasterConfiguration (init.go runtime.DecodeInto fills them), its kubernetesVersion the workspace\'s; 1.11 and later need them', async () => {
  const { analyze } = await import('../../server/src/engine.ts');
  const { detectKind } = await import('../../server/src/registry.ts');
  const legacy = 'api:\n  advertiseAddress: 10.0.0.1\nkubeletConfiguration:\n  clusterDomain: example.com\nkubernetesVersion: v1.9.6\n';
  assert.equal(detectKind('etc/kubernetes/kubeadm.yaml', legacy), 'kubeadm-config');
  assert.equal(detectKind('etc/kubernetes/other.yaml', legacy), undefined, 'only a file named kubeadm*');
  assert.equal(detectKind('etc/kubernetes/kubeadm.yaml', legacy.replace('v1.9.6', 'v1.12.0')), undefined, 'kubeadm 1.11+ refuses it');
  const r = parseConfigFile('kubeadm.yaml', legacy);
  assert.deepEqual(r.kubeadm.map((d) => [d.apiVersion, d.kind, d.kubernetesVersion?.value]), [['kubeadm.k8s.io/v1alpha1', 'MasterConfiguration', 'v1.9.6']]);
  assert.deepEqual(r.problems, [], 'kubeadm 1.9 reads it: no "old API" error');
  // The drop-in beside it runs a 1.9 kubelet: --allow-privileged and --cadvisor-port were still flags then.
  const dropin = '[Service]\nEnvironment="KUBELET_SYSTEM_PODS_ARGS=--pod-manifest-path=/etc/kubernetes/manifests --allow-privileged=true"\nEnvironment="KUBELET_CADVISOR_ARGS=--cadvisor-port=0"\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_SYSTEM_PODS_ARGS $KUBELET_CADVISOR_ARGS\n';
  const files = [
    { path: 'n/etc/kubernetes/kubeadm.yaml', text: legacy },
    { path: 'n/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet\n' },
    { path: 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf', text: dropin },
  ];
  const a = analyze(files);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.code), []);
  assert.equal(a.nodes.find((n) => n.node.id.endsWith('kubelet.service'))?.node.kubernetesVersion, '1.9');
  // Without the legacy config no file states a version: the removed flags are information, said for the kubelets they
  // stop (node/evidence.ts); given the newest as the target they are errors.
  const bare = analyze(files.slice(1)).findings.filter((f) => f.code === 'flag-removed');
  assert.deepEqual(bare.map((f) => f.severity), ['information', 'information']);
  assert.match(bare[0].message, /^Holds for a kubelet 1\.\d+ or newer; no file here states which version runs\./);
  assert.deepEqual(analyze(files.slice(1), { kubernetesVersion: '1.37' }).findings.filter((f) => f.severity === 'error').map((f) => f.code), ['flag-removed', 'flag-removed']);
});

test('an old kubeadm API stating a Kubernetes version whose kubeadm still read it is no error; without one, current kubeadm\'s refusal is', () => {
  const head = 'apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\n';
  // kubernetes#114540 removed v1beta2 in 1.27; kubeadm 1.26 still read it.
  assert.deepEqual(parseConfigFile('kubeadm.yaml', head + 'kubernetesVersion: v1.21.3\n').problems, []);
  assert.deepEqual(parseConfigFile('kubeadm.yaml', head + 'kubernetesVersion: v1.26.15\n').problems, []);
  assert.deepEqual(parseConfigFile('kubeadm.yaml', head + 'kubernetesVersion: v1.27.0\n').problems.map((p) => p.code), ['config-kubeadm-api-version']);
  assert.deepEqual(parseConfigFile('kubeadm.yaml', head).problems.map((p) => p.code), ['config-kubeadm-api-version']);
});
