/**
 * Bottlerocket TOML user data (server/src/formats/bottlerocket.ts): [settings.kubernetes] keys read as the kubelet
 * fields the kubelet-config template writes (bottlerocket-core-kit packages/kubernetes-1.30/kubelet-config), with
 * Bottlerocket's computed kube-reserved (schnauzer helpers kube_reserve_memory / kube_reserve_cpu).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { describe } from '../../server/src/node/provenance.ts';
import { completion } from '../../server/src/features/completion.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { assertShortPoints } from '../helpers/messages.ts';

const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`).sort();
const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;
const capacity = { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() };
const dir = corpusDir('corpus-embedded');

test('corpus-embedded 024: soft memory.available 100Mi is not above the default hard 100Mi, reported at line 7', { skip: !dir && 'no corpus' }, () => {
  const name = '024-bottlerocket-userdata-eviction.toml';
  const text = readFileSync(join(dir!, 'files', name), 'utf8');
  assert.equal(detectKind(name, text), 'bottlerocket');
  const a = analyze([{ path: name, text }], { capacity });
  assert.equal(a.nodes.length, 1);
  assert.deepEqual(show(a.findings), ['7 warning eviction-soft-not-above-hard']);
  const f = a.findings[0];
  assert.deepEqual([f.range.start.character, f.range.end.character], [21, 28]);
  assertShortPoints(a.findings);
  const node = a.nodes[0].node;
  assert.equal((node.settings.get('kubeAPIQPS') as { text: string }).text, '30');
  assert.equal((node.settings.get('evictionMaxPodGracePeriod') as { text: string }).text, '40');
});

test('Bottlerocket kube-reserved: memory 11 × max-pods + 255 Mi, cpu tiered (4 cores 80m), ephemeral-storage 1Gi', () => {
  const text = '[settings.kubernetes]\nmax-pods = 29\n';
  const a = analyze([{ path: 'user-data.toml', text }], { capacity });
  const kr = a.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`).sort(), ['cpu=80m', 'ephemeral-storage=1Gi', 'memory=574Mi']);
  assert.match(describe(kr.items.find((i) => i.key === 'memory')!.from), /^Bottlerocket default \(11 × max-pods \+ 255 Mi for max-pods 29\)/);
  // 16 GiB - 574Mi - 100Mi (default hard eviction); cpu 4000m - 80m.
  assert.equal(a.nodes[0].allocatable.lines.memory.allocatable, 16n * GiB - 674n * MiB);
  assert.equal(a.nodes[0].allocatable.lines.cpu.allocatable, 3920n);
  assert.equal(a.nodes[0].allocatable.pods, 29n);
});

test('a kube-reserved key of the user replaces only that key of the computed map; a pod capacity does not change a max-pods of the user', () => {
  const text = '[settings.kubernetes]\nmax-pods = 20\n[settings.kubernetes.kube-reserved]\nmemory = "2Gi"\n';
  const a = analyze([{ path: 'user-data.toml', text }], { capacity: { ...capacity, pods: 58n } });
  const kr = a.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`).sort(), ['cpu=80m', 'ephemeral-storage=1Gi', 'memory=2Gi']);
  const text2 = '[settings.kubernetes]\nmax-pods = 20\n';
  const b = analyze([{ path: 'user-data.toml', text: text2 }], { capacity: { ...capacity, pods: 58n } });
  const kr2 = b.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr2?.kind === 'map');
  assert.equal(kr2.items.find((i) => i.key === 'memory')?.text, '475Mi');
});

test('rules apply at the TOML key and value: an unknown reserved resource, an eviction-hard of one signal', () => {
  const text = '[settings.kubernetes.system-reserved]\n"memroy" = "1Gi"\n[settings.kubernetes.eviction-hard]\n"memory.available" = "200Mi"\n';
  const a = analyze([{ path: 'user-data.toml', text }]);
  assert.deepEqual(show(a.findings), ['2 error reserved-resource-unknown', '3 information eviction-defaults-dropped']);
  const unknown = a.findings.find((f) => f.code === 'reserved-resource-unknown')!;
  assert.deepEqual([unknown.range.start.character, unknown.range.end.character], [0, 8]);
  assertShortPoints(a.findings);
});

test('recognition: a [settings.kubernetes] header at column 0; other TOML is not Bottlerocket; no kubelet keys, no node', () => {
  assert.equal(detectKind('user-data.toml', '[settings.kubernetes]\napi-server = "x"\n'), 'bottlerocket');
  assert.notEqual(detectKind('config.toml', 'version = 2\n[plugins]\n'), 'bottlerocket');
  assert.notEqual(detectKind('x.toml', '  [settings.kubernetes]\nmax-pods = 1\n'), 'bottlerocket');
  const a = analyze([{ path: 'user-data.toml', text: '[settings.kubernetes]\napi-server = "https://x"\ncluster-name = "c"\n' }]);
  assert.equal(a.nodes.length, 0);
  assert.deepEqual(a.findings, []);
  const bad = analyze([{ path: 'user-data.toml', text: '[settings.kubernetes]\nmax-pods = \n' }]);
  assert.deepEqual(show(bad.findings), ['2 error config-syntax']);
});

test('no kubelet-field completion inside TOML (Bottlerocket keys are kebab-case)', () => {
  const text = '[settings.kubernetes]\nmax-pods = 29\n\n';
  const a = analyze([{ path: 'user-data.toml', text }]);
  assert.deepEqual(completion(a, 'user-data.toml', { line: 2, character: 0 }), []);
});

test('docs/formats/bottlerocket.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/bottlerocket.md'), 'utf8');
  const example = page.split('```toml\n')[1].split('```')[0];
  const a = analyze([{ path: 'user-data.toml', text: example }]);
  assert.deepEqual(show(a.findings), ['6 hint quantity-decimal-suffix', '9 warning eviction-soft-not-above-hard']);
  assertShortPoints(a.findings);
});
