/**
 * Refactor "Insert recommended reservations (GKE / EKS / AKS formula)": the formulas of
 * kubelet-facts §8 (sources in server/src/features/refactors/reservations.ts), and the edit
 * applied to a config file and re-analysed gives exactly the kubeReserved the formula says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import { refactorActions } from '../../server/src/features/code-actions.ts';
import { eksCpuMillis, gkeCpuMillis, gkeMemoryMiB, recommend, reservationRefactor, reservationRefactors, type Provider } from '../../server/src/features/refactors/reservations.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';
import { CONFIG_HEAD, kubeadmNode, mapOf, ws } from '../helpers/nodes.ts';

const GI = 1n << 30n;
const MI = 1n << 20n;
const cores = (n: number) => BigInt(Math.round(n * 1000));

// ---------------------------------------------------------------------------------------------
// The formulas

test('GKE cpu (§8: 6% of core 1, 1% of core 2, 0.5% of cores 3-4, 0.25% above 4): 1/2/4/8/16/64 cores -> 60/70/80/90/110/230m', () => {
  assert.deepEqual([1, 2, 4, 8, 16, 64].map((n) => gkeCpuMillis(cores(n))), [60n, 70n, 80n, 90n, 110n, 230n]);
});

test('GKE cpu is exact and rounded up to a whole millicore: 5 cores is 82.5m -> 83m, 0.5 core is 30m', () => {
  assert.equal(gkeCpuMillis(cores(5)), 83n);
  assert.equal(gkeCpuMillis(500n), 30n);
});

test('EKS cpu (nodeadm getCPUMillicoresToReserve, each tier truncated): 4 cores 80m, 5 cores 82m, 16 cores 110m, 96 cores 310m', () => {
  assert.deepEqual([4, 5, 16, 96].map((n) => eksCpuMillis(cores(n))), [80n, 82n, 110n, 310n]);
});

test('GKE memory: 255Mi below 1GiB; 25% of the first 4GiB, 20% of the next 4, 10% of the next 8, 6% of the next 112, 2% above 128GiB (rounded up to a MiB)', () => {
  assert.equal(gkeMemoryMiB(512n * MI), 255n);
  assert.equal(gkeMemoryMiB(GI), 256n); // 25% of 1024Mi
  assert.equal(gkeMemoryMiB(4n * GI), 1024n);
  assert.equal(gkeMemoryMiB(15n * GI / 2n), 1741n); // 7.5GiB: 1024 + 20% of 3584 = 1740.8Mi
  assert.equal(gkeMemoryMiB(16n * GI), 2663n); // 1024 + 819.2 + 819.2 = 2662.4Mi
  assert.equal(gkeMemoryMiB(32n * GI), 3646n); // + 6% of 16GiB = 983.04 -> 3645.44Mi
  assert.equal(gkeMemoryMiB(128n * GI), 9544n); // + 6% of 112GiB = 6881.28 -> 9543.68Mi
  assert.equal(gkeMemoryMiB(256n * GI), 12166n); // + 2% of 128GiB = 2621.44 -> 12165.12Mi
});

test('GKE for 4 cores and 7.5GiB (n1-standard-2-like sizes in the GKE docs): kubeReserved cpu 80m, memory 1741Mi; evictionHard memory.available 100Mi', () => {
  assert.deepEqual(recommend('GKE', cores(4), 15n * GI / 2n, 110n), { kubeReserved: [['cpu', '80m'], ['memory', '1741Mi']], memoryAvailable: '100Mi' });
});

test('EKS memory is 11MiB per pod + 255MiB (nodeadm getMemoryMebibytesToReserve) whatever the memory; ephemeral-storage 1Gi; no eviction setting', () => {
  assert.deepEqual(recommend('EKS', cores(4), 16n * GI, 110n), { kubeReserved: [['cpu', '80m'], ['memory', '1465Mi'], ['ephemeral-storage', '1Gi']] });
  assert.deepEqual(recommend('EKS', cores(2), 8n * GI, 29n)?.kubeReserved[1], ['memory', '574Mi']);
});

test('AKS cpu is its table (1/2/4/8/16/32/64 cores -> 60/100/140/180/260/420/740m); other core counts get no AKS action', () => {
  const cpu = (n: number) => recommend('AKS', cores(n), 64n * GI, 110n)?.kubeReserved[0]?.[1];
  assert.deepEqual([1, 2, 4, 8, 16, 32, 64].map(cpu), ['60m', '100m', '140m', '180m', '260m', '420m', '740m']);
  assert.equal(recommend('AKS', cores(3), 8n * GI, 110n), undefined);
  assert.equal(recommend('AKS', cores(2.5), 8n * GI, 110n), undefined);
});

test('AKS memory is min(20MiB * maxPods + 50MiB, 25% of memory): 8GiB/30 pods 650Mi (Microsoft\'s example), 16GiB/110 pods 2250Mi (an AKS node\'s --kube-reserved), 4GiB/110 pods 1024Mi', () => {
  const mem = (gib: bigint, pods: bigint) => recommend('AKS', cores(8), gib * GI, pods)?.kubeReserved[1]?.[1];
  assert.equal(mem(8n, 30n), '650Mi');
  assert.equal(mem(16n, 110n), '2250Mi');
  assert.equal(mem(4n, 110n), '1024Mi');
  assert.equal(recommend('AKS', cores(8), 16n * GI, 110n)?.memoryAvailable, '100Mi');
});

// ---------------------------------------------------------------------------------------------
// Applying the action

const CFG = 'n/var/lib/kubelet/config.yaml';

function apply(files: SourceFile[], provider: Provider, mode: 'insert' | 'replace' = 'replace'): { a: Analysis; after: SourceFile[]; a2: Analysis } {
  const a = analyze(files);
  const node = a.nodes.find((n) => n.node.files.includes(CFG) || n.node.id === files[0].path)!;
  const r = reservationRefactor(a, node, provider, mode);
  assert.ok(r, `no ${provider} action`);
  const after = applyWorkspaceEdits(files, r.edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText })));
  return { a, after, a2: analyze(after) };
}

const errors = (a: Analysis) => a.findings.filter((f) => f.severity === 'error').map((f) => f.code).sort();

test('GKE on a YAML config of a 4 CPU / 16Gi node: re-analysed, kubeReserved is exactly {cpu: 80m, memory: 2663Mi}; the default 100Mi threshold already is GKE\'s, so evictionHard is not written', () => {
  const files = [{ path: 'n/kubelet-config.yaml', text: '# kubelet-lint: capacity cpu=4,memory=16Gi\n' + CONFIG_HEAD + 'cgroupDriver: systemd\n' }];
  const { a, after, a2 } = apply(files, 'GKE', 'insert');
  const node = a2.nodes[0].node;
  assert.deepEqual(mapOf(node.settings.get('kubeReserved')), { cpu: '80m', memory: '2663Mi' });
  // The kubelet's default thresholds stay in effect, unwritten.
  assert.equal(node.settings.get('evictionHard'), undefined);
  assert.equal(after[0].text, files[0].text + 'kubeReserved:\n  cpu: 80m\n  memory: 2663Mi\n');
  // 16Gi - 2663Mi - 100Mi
  assert.equal(a2.nodes[0].allocatable.lines.memory.allocatable, 16n * GI - 2663n * MI - 100n * MI);
  assert.deepEqual(errors(a2), errors(a));
});

test('EKS on a JSON config: kubeReserved replaced in place, pid kept, evictionHard untouched', () => {
  const json = '{\n  "apiVersion": "kubelet.config.k8s.io/v1beta1",\n  "kind": "KubeletConfiguration",\n  "maxPods": 58,\n  "kubeReserved": {\n    "cpu": "70m",\n    "pid": "1000"\n  },\n  "evictionHard": {"memory.available": "100Mi"}\n}\n';
  const files = [
    { path: 'n/etc/systemd/system/kubelet.service', text: '# kubelet-lint: capacity m5.xlarge\n[Service]\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet/config.json\n' },
    { path: 'n/etc/kubernetes/kubelet/config.json', text: json },
  ];
  const { after, a2 } = apply(files, 'EKS');
  const out = JSON.parse(after[1].text);
  assert.deepEqual(out.kubeReserved, { cpu: '80m', pid: '1000', memory: '893Mi', 'ephemeral-storage': '1Gi' }); // 11 * 58 + 255
  assert.deepEqual(out.evictionHard, { 'memory.available': '100Mi' });
  assert.deepEqual(mapOf(a2.nodes[0].node.settings.get('kubeReserved')), { cpu: '80m', pid: '1000', memory: '893Mi', 'ephemeral-storage': '1Gi' });
});

test('AKS on the kubeadm example layout (8 CPU, 32Gi, maxPods 110): kubeReserved cpu 180m, memory 2250Mi, the file\'s ephemeral-storage and its evictionHard nodefs threshold kept', () => {
  const files = ws(kubeadmNode('n', { config: '# kubelet-lint: capacity cpu=8,memory=32Gi\nkubeReserved:\n  cpu: 500m\n  memory: 1Gi\n  ephemeral-storage: 1Gi\nevictionHard:\n  memory.available: 200Mi\n  nodefs.available: 10%\n' }));
  const { a, a2 } = apply(files, 'AKS');
  const node = a2.nodes.find((n) => n.node.files.includes(CFG))!.node;
  assert.deepEqual(mapOf(node.settings.get('kubeReserved')), { cpu: '180m', memory: '2250Mi', 'ephemeral-storage': '1Gi' });
  assert.deepEqual(mapOf(node.settings.get('evictionHard')), { 'memory.available': '100Mi', 'nodefs.available': '10%' });
  assert.deepEqual(errors(a2), errors(a));
});

test('a block map the formula only changes is edited in place: its comments, its quoting of unchanged values and the other keys stay; new keys go after the last one', () => {
  const config =
    '# kubelet-lint: capacity cpu=4,memory=16Gi\n' +
    CONFIG_HEAD +
    'kubeReserved:\n' +
    '  # sized for the system pool\n' +
    '  cpu: 500m   # kubelet and containerd\n' +
    '  pid: "1000"\n' +
    '  memory: 1Gi\n' +
    '  # end of kubeReserved\n' +
    'evictionHard:\n' +
    '  memory.available: "200Mi"  # raise with care\n' +
    'cgroupDriver: systemd\n';
  const eks = apply([{ path: 'n/kubelet-config.yaml', text: config.replace('cgroupDriver', 'maxPods: 58\ncgroupDriver') }], 'EKS');
  assert.equal(
    eks.after[0].text,
    '# kubelet-lint: capacity cpu=4,memory=16Gi\n' +
      CONFIG_HEAD +
      'kubeReserved:\n' +
      '  # sized for the system pool\n' +
      '  cpu: 80m   # kubelet and containerd\n' +
      '  pid: "1000"\n' +
      '  memory: 893Mi\n' +
      '  ephemeral-storage: 1Gi\n' +
      '  # end of kubeReserved\n' +
      'evictionHard:\n' +
      '  memory.available: "200Mi"  # raise with care\n' +
      'maxPods: 58\n' +
      'cgroupDriver: systemd\n',
  );
  assert.deepEqual(mapOf(eks.a2.nodes[0].node.settings.get('kubeReserved')), { cpu: '80m', pid: '1000', memory: '893Mi', 'ephemeral-storage': '1Gi' });
  const gke = apply([{ path: 'n/kubelet-config.yaml', text: config }], 'GKE');
  assert.match(gke.after[0].text, /\n {2}cpu: 80m {3}# kubelet and containerd\n {2}pid: "1000"\n {2}memory: 2663Mi\n {2}# end of kubeReserved\nevictionHard:\n {2}memory\.available: 100Mi {2}# raise with care\n/);
  assert.deepEqual(errors(gke.a2), errors(gke.a));
});

test('other layouts of the map are still rewritten whole (a flow map, a value on the line after its key); a map that already holds the values is left alone', () => {
  const head = '# kubelet-lint: capacity cpu=4,memory=16Gi\n' + CONFIG_HEAD;
  const flow = apply([{ path: 'n/kubelet-config.yaml', text: head + 'kubeReserved: {cpu: 500m, memory: 1Gi}\nevictionHard: {memory.available: 100Mi}\n' }], 'GKE');
  assert.equal(flow.after[0].text, head + 'kubeReserved:\n  cpu: 80m\n  memory: 2663Mi\nevictionHard: {memory.available: 100Mi}\n');
  const below = apply([{ path: 'n/kubelet-config.yaml', text: head + 'kubeReserved:\n  cpu:\n    500m\n  memory: 1Gi\n' }], 'GKE');
  assert.deepEqual(mapOf(below.a2.nodes[0].node.settings.get('kubeReserved')), { cpu: '80m', memory: '2663Mi' });
  assert.match(below.after[0].text, /kubeReserved:\n {2}cpu: 80m\n {2}memory: 2663Mi\n/);
});

test('the three actions are offered on a top-level key of the config file, with the formula in the title; not on a nested line of another field', () => {
  const text = '# kubelet-lint: capacity cpu=16,memory=64Gi\n' + CONFIG_HEAD + 'clusterDNS:\n  - 10.96.0.10\n';
  const a = analyze([{ path: 'c.yaml', text }]);
  const at = (line: number) => reservationRefactors(a, 'c.yaml', { start: { line, character: 0 }, end: { line, character: 0 } }).map((r) => r.title);
  assert.deepEqual(at(3), [
    'Insert recommended reservations (GKE formula) for 16 CPU, 64Gi memory: kubeReserved cpu 110m, memory 5612Mi',
    'Insert recommended reservations (EKS formula) for 16 CPU, 64Gi memory, 110 pods: kubeReserved cpu 110m, memory 1465Mi, ephemeral-storage 1Gi',
    'Insert recommended reservations (AKS formula) for 16 CPU, 64Gi memory, 110 pods: kubeReserved cpu 260m, memory 2250Mi',
  ]);
  assert.deepEqual(at(4), []);
});

test('not offered when a flag sets kubeReserved (the flag replaces the file\'s map, so the inserted values would not take effect; move the flag first)', () => {
  const files = ws(kubeadmNode('n', { config: '# kubelet-lint: capacity cpu=4,memory=16Gi\n', defaults: 'KUBELET_EXTRA_ARGS=--kube-reserved=cpu=1\n' }));
  const a = analyze(files);
  const node = a.nodes.find((n) => n.node.files.includes(CFG))!;
  for (const p of ['GKE', 'EKS', 'AKS'] as const) assert.equal(reservationRefactor(a, node, p), undefined, p);
});

test('GKE and AKS are not offered when a flag sets evictionHard; EKS (no eviction setting) still is', () => {
  const files = ws(kubeadmNode('n', { config: '# kubelet-lint: capacity cpu=4,memory=16Gi\n', defaults: 'KUBELET_EXTRA_ARGS=--eviction-hard=memory.available<500Mi\n' }));
  const a = analyze(files);
  const node = a.nodes.find((n) => n.node.files.includes(CFG))!;
  assert.deepEqual((['GKE', 'EKS', 'AKS'] as const).map((p) => reservationRefactor(a, node, p) !== undefined), [false, true, false]);
});

test('not offered without a capacity, nor with reservedSystemCPUs (it replaces kubeReserved\'s cpu), nor when the file already holds the values', () => {
  const noCap = analyze([{ path: 'c.yaml', text: CONFIG_HEAD }]);
  assert.equal(reservationRefactor(noCap, noCap.nodes[0], 'GKE'), undefined);
  // The refactor menu lists it greyed out with the reason instead (LSP CodeAction.disabled).
  const listed = refactorActions(noCap, 'c.yaml', { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, (p) => p);
  const insert = listed.find((x) => x.title === 'Insert recommended reservations');
  assert.ok(insert?.disabled, listed.map((x) => x.title).join(', '));
  assert.match(insert.disabled.reason, /node capacity is unknown: set kubeletConfig\.nodeCapacity/);
  assert.equal(insert.edit, undefined);
  const cpus = analyze([{ path: 'c.yaml', text: '# kubelet-lint: capacity cpu=4,memory=16Gi\n' + CONFIG_HEAD + 'reservedSystemCPUs: "0"\n' }]);
  assert.equal(reservationRefactor(cpus, cpus.nodes[0], 'EKS'), undefined);
  const files = [{ path: 'c.yaml', text: '# kubelet-lint: capacity cpu=4,memory=16Gi\n' + CONFIG_HEAD }];
  const { after } = apply(files, 'EKS', 'insert');
  const again = analyze(after);
  assert.equal(reservationRefactor(again, again.nodes[0], 'EKS'), undefined);
  assert.equal(reservationRefactor(again, again.nodes[0], 'EKS', 'replace'), undefined);
  // GKE would change values the file has: only its replace action is offered.
  assert.equal(reservationRefactor(again, again.nodes[0], 'GKE'), undefined);
  assert.ok(reservationRefactor(again, again.nodes[0], 'GKE', 'replace'));
});

test('issue 26 point 9: insert never overwrites a value the file has; the replace action says so and shows old → new', () => {
  const text = '# kubelet-lint: capacity cpu=8,memory=32Gi\n' + CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\nevictionHard:\n  memory.available: 200Mi\n';
  const a = analyze([{ path: 'c.yaml', text }]);
  const titles = reservationRefactors(a, 'c.yaml', { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }).map((r) => r.title);
  assert.ok(titles.includes('Insert recommended reservations (GKE formula) for 8 CPU, 32Gi memory: kubeReserved memory 3646Mi'), titles.join('\n'));
  assert.ok(titles.includes('Replace reservations (GKE formula) for 8 CPU, 32Gi memory: kubeReserved cpu 500m → 90m, memory 3646Mi (new); evictionHard memory.available 200Mi → 100Mi'), titles.join('\n'));
  const { after } = apply([{ path: 'c.yaml', text }], 'GKE', 'insert');
  assert.equal(after[0].text, text.replace('  cpu: 500m\n', '  cpu: 500m\n  memory: 3646Mi\n'));
  const replaced = apply([{ path: 'c.yaml', text }], 'GKE', 'replace');
  assert.deepEqual(mapOf(replaced.a2.nodes[0].node.settings.get('kubeReserved')), { cpu: '90m', memory: '3646Mi' });
  assert.deepEqual(mapOf(replaced.a2.nodes[0].node.settings.get('evictionHard')), { 'memory.available': '100Mi' });
});

test('property: on generated block-style kubeReserved/evictionHard maps with comments, each action gives the formula merged into the file\'s keys, keeps every comment and adds no error', () => {
  // (Some generated values are wrong on purpose, a cpu of 2Gi: the action may fix their error, never add one.)
  const value = fc.constantFrom('100m', '"250m"', '1Gi', "'2Gi'", '500Mi', '"1000"');
  const item = fc.record({ key: fc.constantFrom('cpu', 'memory', 'pid', 'ephemeral-storage'), value, comment: fc.option(fc.constantFrom('# tuned', '#x'), { nil: undefined }) });
  const gap = fc.constantFrom('', '  # note\n', '\n', '    # deeper note\n');
  const layout = fc.record({
    items: fc.uniqueArray(item, { selector: (i) => i.key, minLength: 1, maxLength: 4 }),
    gaps: fc.array(gap, { minLength: 5, maxLength: 5 }),
    eviction: fc.option(fc.constantFrom('200Mi', '"5%"'), { nil: undefined }),
    after: fc.constantFrom('', 'maxPods: 58\n', '# tail\n'),
    provider: fc.constantFrom<Provider>('GKE', 'EKS', 'AKS'),
  });
  fc.assert(
    fc.property(layout, ({ items, gaps, eviction, after, provider }) => {
      let text = '# kubelet-lint: capacity cpu=4,memory=16Gi\n' + CONFIG_HEAD + 'kubeReserved:\n';
      items.forEach((it, i) => (text += gaps[i] + `  ${it.key}: ${it.value}${it.comment ? `  ${it.comment}` : ''}\n`));
      text += gaps[4];
      if (eviction) text += `evictionHard:\n  memory.available: ${eviction}  # evict\n`;
      text += after;
      const files = [{ path: 'n/kubelet-config.yaml', text }];
      const a = analyze(files);
      const r = reservationRefactor(a, a.nodes[0], provider, 'replace') ?? reservationRefactor(a, a.nodes[0], provider, 'insert');
      if (!r) return; // e.g. nothing to change
      const out = applyWorkspaceEdits(files, r.edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText })))[0].text;
      const a2 = analyze([{ path: files[0].path, text: out }]);
      const rec = recommend(provider, 4000n, 16n * GI, after.startsWith('maxPods') ? 58n : 110n)!;
      const want: Record<string, string> = {};
      for (const it of items) want[it.key] = it.value.replace(/^["']|["']$/g, '');
      for (const [k, v] of rec.kubeReserved) want[k] = v;
      assert.deepEqual(mapOf(a2.nodes[0].node.settings.get('kubeReserved')), want);
      for (const line of text.split('\n')) {
        const c = line.indexOf('#');
        if (c >= 0) assert.ok(out.includes(line.slice(c)), `comment "${line.slice(c)}" kept in:\n${out}`);
      }
      const before = errors(a);
      assert.deepEqual(errors(a2).filter((c) => !before.includes(c)), [], 'no new error');
    }),
    { numRuns: 400, seed: 20261130 },
  );
});
