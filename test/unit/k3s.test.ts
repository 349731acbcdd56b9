/**
 * k3s / RKE2 config.yaml (server/src/formats/k3s.ts): kubelet-arg items as kubelet flags, k3s's own kubelet defaults
 * (k3s-io/k3s pkg/daemons/agent) with provenance, findings and fixes at the item's place.
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
import { assertShortPoints } from '../helpers/messages.ts';

/** The effective maxPods as written (a scalar setting). */
function maxPodsOf(node: { settings: ReadonlyMap<string, { kind: string }> }): string | undefined {
  const s = node.settings.get('maxPods') as { kind: string; text?: string } | undefined;
  return s?.kind === 'scalar' ? s.text : undefined;
}


const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`).sort();
const GiB = 1024n ** 3n;
const capacity = { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() };
const dir = corpusDir('corpus-embedded');

test('corpus-embedded 009: recognised as k3s; --root-dir is a flag; k3s\'s evictionHard has no memory.available', { skip: !dir && 'no corpus' }, () => {
  const name = '009-k3s-config-kubelet-arg.yaml';
  const text = readFileSync(join(dir!, 'files', name), 'utf8');
  assert.equal(detectKind(name, text), 'k3s');
  const a = analyze([{ path: name, text }], { capacity });
  assert.equal(a.nodes.length, 1);
  assert.deepEqual(show(a.findings), []);
  const node = a.nodes[0].node;
  assert.equal(node.flags.find((f) => f.name === 'root-dir')?.value, '/home/home/Documents/work/k3s/kubelet');
  const eh = node.settings.get('evictionHard');
  assert.ok(eh?.kind === 'map');
  assert.deepEqual(eh.items.map((i) => `${i.key}<${i.text}`), ['imagefs.available<5%', 'nodefs.available<5%']);
  assert.equal(describe(eh.items[0].from), 'k3s default');
  // No memory eviction and no reservations: allocatable memory is the whole capacity.
  assert.equal(a.nodes[0].allocatable.lines.memory.allocatable, 16n * GiB);
});

test('kubelet-arg eviction-hard replaces k3s\'s map; a reservation typo is fixed inside the string', () => {
  const text = 'kubelet-arg:\n  - "eviction-hard=memory.available<500Mi"\n  - "--kube-reserved=cpu=500m,memroy=1Gi"\n';
  const a = analyze([{ path: 'config.yaml', text }]);
  assert.deepEqual(show(a.findings), ['2 information eviction-defaults-dropped', '3 error reserved-resource-unknown']);
  assert.match(a.findings.find((f) => f.code === 'eviction-defaults-dropped')!.message, /k3s default/);
  const f = a.findings.find((x) => x.code === 'reserved-resource-unknown')!;
  assert.equal(text.split('\n')[2].slice(f.range.start.character, f.range.end.character), 'memroy');
  const fixed = applyEdits(text, f.fixes![0].edits);
  assert.match(fixed, /cpu=500m,memory=1Gi/);
  assert.deepEqual(show(analyze([{ path: 'config.yaml', text: fixed }]).findings), ['2 information eviction-defaults-dropped']);
  assertShortPoints(a.findings);
});

test('recognition: rancher/{k3s,rke2}/config.yaml by place, k3s keys at column 0, never a generic YAML', () => {
  assert.equal(detectKind('/etc/rancher/rke2/config.yaml', 'token: x\n'), 'k3s');
  assert.equal(detectKind('etc/rancher/k3s/config.yaml.d/10-kubelet.yaml', 'kubelet-arg: ["max-pods=50"]\n'), 'k3s');
  assert.equal(detectKind('k3s.yaml', 'tls-san: [a]\nwrite-kubeconfig-mode: "0644"\n'), 'k3s');
  assert.notEqual(detectKind('values.yaml', 'token: x\nserver: y\n'), 'k3s');
  assert.notEqual(detectKind('values.yaml', 'k3s:\n  kubelet-arg:\n    - max-pods=1\n'), 'k3s');
  assert.notEqual(detectKind('x.yaml', 'apiVersion: v1\nkind: ConfigMap\nkubelet-arg: []\n'), 'k3s');
  const a = analyze([{ path: 'etc/rancher/k3s/config.yaml', text: 'token: x\ntls-san: [a]\n' }]);
  assert.equal(a.nodes.length, 0);
  assert.deepEqual(a.findings, []);
});

test('docs/formats/k3s.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/k3s.md'), 'utf8');
  const example = page.split('```yaml\n')[1].split('```')[0];
  const a = analyze([{ path: 'etc/rancher/k3s/config.yaml', text: example }]);
  assert.deepEqual(show(a.findings), ['5 information eviction-defaults-dropped', '6 error reserved-resource-unknown']);
  assertShortPoints(a.findings);
});

// k3s pkg/configfilearg/parser.go (main at f6466040): config.yaml, then config.yaml.d/*.yaml|*.yml in name order; per
// key the last file wins, `kubelet-arg+` appends.
const BASE = 'etc/rancher/k3s/config.yaml';
const flagsOf = (a: ReturnType<typeof analyze>) => a.nodes.map((n) => n.node.flags.map((f) => `${f.name}=${f.value}`));

test('config.yaml.d: one node with config.yaml; a later kubelet-arg replaces the list, kubelet-arg+ appends, in name order', () => {
  const files = [
    { path: `${BASE}.d/20-more.YML`, text: 'kubelet-arg+:\n  - system-reserved=cpu=1\n' },
    { path: BASE, text: 'write-kubeconfig-mode: "0644"\nkubelet-arg:\n  - max-pods=200\n' },
    { path: `${BASE}.d/10-eviction.yaml`, text: 'kubelet-arg:\n  - eviction-hard=memory.available<500Mi\n' },
    // Not read by k3s: a sub-folder, another extension.
    { path: `${BASE}.d/old/30-x.yaml`, text: 'kubelet-arg: ["max-pods=1"]\n' },
    { path: `${BASE}.d/40-x.yaml.bak`, text: 'kubelet-arg: ["max-pods=2"]\n' },
  ];
  const a = analyze(files);
  const k3sNodes = a.nodes.filter((n) => n.node.id === BASE);
  assert.equal(k3sNodes.length, 1);
  assert.deepEqual(k3sNodes[0].node.files, [BASE, `${BASE}.d/10-eviction.yaml`, `${BASE}.d/20-more.YML`]);
  assert.deepEqual(k3sNodes[0].node.flags.map((f) => `${f.name}=${f.value}`), ['eviction-hard=memory.available<500Mi', 'system-reserved=cpu=1']);
  const f = a.findings.find((x) => x.code === 'k3s-kubelet-arg-replaced');
  assert.ok(f, show(a.findings).join('\n'));
  assert.equal(f.file, BASE);
  assert.deepEqual([f.range.start.line, f.range.end.line], [1, 2]);
  assert.match(f.message, /10-eviction\.yaml line 1/);
  // The fix makes the drop-in append: max-pods=200 reaches the kubelet again, and the finding is gone.
  const edit = f.fixes![0].edits[0];
  assert.equal(edit.file, `${BASE}.d/10-eviction.yaml`);
  const fixed = files.map((x) => (x.path === edit.file ? { ...x, text: applyEdits(x.text, [edit]) } : x));
  assert.match(fixed[2].text, /^kubelet-arg\+:/);
  const b = analyze(fixed);
  assert.equal(b.findings.filter((x) => x.code === 'k3s-kubelet-arg-replaced').length, 0);
  assert.deepEqual(flagsOf(b).find((l) => l.includes('max-pods=200')), ['max-pods=200', 'eviction-hard=memory.available<500Mi', 'system-reserved=cpu=1']);
  assertShortPoints(a.findings);
});

test('config.yaml.d without kubelet-arg in config.yaml, or without config.yaml: still one node, at the first file', () => {
  const a = analyze([
    { path: BASE, text: 'tls-san: [a]\nwrite-kubeconfig-mode: "0644"\n' },
    { path: `${BASE}.d/10-a.yaml`, text: 'kubelet-arg: ["max-pods=150"]\n' },
    { path: `${BASE}.d/20-b.yaml`, text: 'kubelet-arg+: ["image-gc-high-threshold=90"]\n' },
  ]);
  assert.deepEqual(a.nodes.map((n) => n.node.id), [BASE]);
  assert.deepEqual(flagsOf(a), [['max-pods=150', 'image-gc-high-threshold=90']]);
  const b = analyze([
    { path: `${BASE}.d/10-a.yaml`, text: 'kubelet-arg: ["max-pods=150"]\n' },
    { path: `${BASE}.d/20-b.yaml`, text: 'kubelet-arg: ["image-gc-high-threshold=90"]\n' },
  ]);
  assert.deepEqual(b.nodes.map((n) => n.node.id), [`${BASE}.d/10-a.yaml`]);
  assert.deepEqual(flagsOf(b), [['image-gc-high-threshold=90']]);
  assert.deepEqual(b.findings.filter((x) => x.code === 'k3s-kubelet-arg-replaced').map((x) => x.file), [`${BASE}.d/10-a.yaml`]);
});

test('a k3s unit: --kubelet-arg items (=value or the next word) are kubelet flags at their place, after config.yaml\'s', () => {
  const unit = [
    '[Service]',
    'ExecStart=/usr/local/bin/k3s \\',
    '    agent \\',
    "        '--kubelet-arg=max-pods=250' \\",
    "        '--kubelet-arg' 'kube-reserved=cpu=500m,memroy=1Gi' \\",
    '        --node-label=x=y',
    '',
  ].join('\n');
  const files = [
    { path: 'etc/systemd/system/k3s-agent.service', text: unit },
    { path: BASE, text: 'kubelet-arg:\n  - max-pods=200\n' },
  ];
  const a = analyze(files);
  assert.equal(a.nodes.length, 1);
  const node = a.nodes[0].node;
  assert.deepEqual(node.files, ['etc/systemd/system/k3s-agent.service', BASE]);
  assert.deepEqual(node.flags.map((f) => `${f.name}=${f.value}`), ['max-pods=200', 'max-pods=250', 'kube-reserved=cpu=500m,memroy=1Gi']);
  assert.equal(maxPodsOf(node), '250');
  // k3s's own defaults are the base, as for config.yaml.
  assert.equal(describe(node.settings.get('evictionHard')!.from), 'k3s default');
  const typo = a.findings.find((f) => f.code === 'reserved-resource-unknown')!;
  assert.equal(typo.file, 'etc/systemd/system/k3s-agent.service');
  assert.equal(unit.split('\n')[typo.range.start.line].slice(typo.range.start.character, typo.range.end.character), 'memroy');
  assert.equal(applyEdits(unit, typo.fixes![0].edits), unit.replace('memroy', 'memory'));
  assert.deepEqual(show(a.findings), ['2 warning flag-duplicate', '5 error reserved-resource-unknown']);
  // k3s's own flags are not the kubelet's; a subcommand that runs no kubelet is no node.
  assert.equal(a.findings.filter((f) => f.code === 'flag-unknown').length, 0);
  assert.equal(analyze([{ path: 'k3s.service', text: '[Service]\nExecStart=/usr/local/bin/k3s kubectl get nodes\n' }]).nodes.length, 0);
});

test('an RKE2 unit reads /etc/rancher/rke2/config.yaml; --config names another file', () => {
  const rke2 = analyze([
    { path: 'usr/lib/systemd/system/rke2-server.service', text: '[Service]\nExecStart=/usr/local/bin/rke2 server --kubelet-arg=v=2\n' },
    { path: 'etc/rancher/rke2/config.yaml', text: 'kubelet-arg: ["max-pods=150"]\n' },
  ]);
  assert.deepEqual(rke2.nodes.map((n) => [n.node.id, maxPodsOf(n.node)]), [['usr/lib/systemd/system/rke2-server.service', '150']]);
  const other = analyze([
    { path: 'etc/systemd/system/k3s.service', text: '[Service]\nExecStart=/usr/local/bin/k3s server -c /opt/k3s/site.yaml\n' },
    { path: 'opt/k3s/site.yaml', text: 'kubelet-arg: ["max-pods=90"]\n' },
  ]);
  assert.deepEqual(other.nodes.map((n) => maxPodsOf(n.node)), ['90']);
});
