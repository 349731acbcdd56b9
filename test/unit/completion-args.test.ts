// Completion where platform files write kubelet flags as YAML (issue 26, points 1, 2, 3 and 5): after `=` or `,` in
// a value, the flag's values, as on a command line; on a name, the names, replacing the whole name typed so far;
// never `--help`, and `--exit-on-lock-contention` only beside `--lock-file` (the kubelet refuses it alone).
// `|` marks the cursor; completionAt is what the editor asks, also inside a Cluster API carrier.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { analyze } from '../../server/src/engine.ts';
import { completionAt } from '../../server/src/features/embedded.ts';

function at(path: string, fixture: string): { items: CompletionItem[]; text: string; line: number; character: number } {
  const lines = fixture.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line].indexOf('|');
  lines[line] = lines[line].replace('|', '');
  const text = lines.join('\n');
  return { items: completionAt(analyze([{ path, text }]), path, { line, character }, undefined, { snippets: true }), text, line, character };
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label).sort();

/** The text after choosing `label`, as an editor applies the item's edit. */
function choose(r: ReturnType<typeof at>, label: string): string {
  const item = r.items.find((i) => i.label === label);
  assert.ok(item, `${label} is offered`);
  const e = item.textEdit as TextEdit;
  assert.ok(e && 'range' in e, `${label} has a range`);
  assert.equal(e.range.start.line, e.range.end.line, 'an editor drops an item whose range spans lines');
  const lines = r.text.split('\n');
  const l = lines[e.range.start.line];
  lines[e.range.start.line] = l.slice(0, e.range.start.character) + e.newText + l.slice(e.range.end.character);
  return lines.join('\n');
}

const TALOS = (args: string) => `version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraArgs:\n${args}`;
const K3S = (items: string) => `kubelet-arg:\n${items}`;
const K3S_PATH = '/etc/rancher/k3s/config.yaml';
const CAPI = (args: string) => `apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: md-0
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
${args}`;
const KUBEADM = (args: string) => `apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n${args}`;
const RESOURCES_LEFT = ['ephemeral-storage', 'memory', 'pid'];

test('1: Talos extraArgs values complete after = and , (enum values, map keys, gate values), never flag names', () => {
  assert.deepEqual(labels(at('worker.yaml', TALOS('      cgroup-driver: |\n')).items), ['cgroupfs', 'systemd']);
  const reserved = at('worker.yaml', TALOS('      kube-reserved: cpu=1,|\n'));
  assert.deepEqual(labels(reserved.items), RESOURCES_LEFT);
  assert.match(choose(reserved, 'memory'), /kube-reserved: cpu=1,memory=\n/);
  assert.deepEqual(labels(at('worker.yaml', TALOS('      feature-gates: "AllAlpha=|"\n')).items), ['false', 'true']);
  assert.deepEqual(at('worker.yaml', TALOS('      node-labels: a=|\n')).items, []);
});

test('1, 5: k3s kubelet-arg values complete after = and ,; a new name follows the siblings\' dashes', () => {
  assert.deepEqual(labels(at(K3S_PATH, K3S('  - "max-pods=10"\n  - "cgroup-driver=|"\n')).items), ['cgroupfs', 'systemd']);
  assert.deepEqual(labels(at(K3S_PATH, K3S('  - kube-reserved=cpu=1,|\n')).items), RESOURCES_LEFT);
  // Siblings without `--`: none inserted; with `--`: `--`; typed dashes are kept.
  assert.match(choose(at(K3S_PATH, K3S('  - "max-pods=10"\n  - "evi|"\n')), 'eviction-hard'), /- "eviction-hard="\n/);
  assert.match(choose(at(K3S_PATH, K3S('  - max-pods=10\n  - |\n')), 'eviction-hard'), /- eviction-hard=\n/);
  assert.match(choose(at(K3S_PATH, K3S('  - --max-pods=10\n  - |\n')), 'eviction-hard'), /- --eviction-hard=\n/);
  assert.match(choose(at(K3S_PATH, K3S('  - max-pods=10\n  - --ev|\n')), 'eviction-hard'), /- --eviction-hard=\n/);
  // A name before a `=` already written is replaced up to it, without a second `=`.
  assert.match(choose(at(K3S_PATH, K3S('  - max-p|=10\n')), 'max-pods'), /- max-pods=10\n/);
  // A flag the list has is not offered again.
  assert.ok(!labels(at(K3S_PATH, K3S('  - max-pods=10\n  - |\n')).items).includes('max-pods'));
});

test('1: Cluster API and kubeadm kubeletExtraArgs values offer the flag\'s values, not flag names or KubeletConfiguration fields', () => {
  assert.deepEqual(labels(at('cluster.yaml', CAPI('            cgroup-driver: |\n')).items), ['cgroupfs', 'systemd']);
  assert.deepEqual(labels(at('cluster.yaml', CAPI('            kube-reserved: cpu=1,|\n')).items), RESOURCES_LEFT);
  assert.deepEqual(labels(at('kubeadm.yaml', KUBEADM('    cgroup-driver: |\n')).items), ['cgroupfs', 'systemd']);
  assert.deepEqual(labels(at('kubeadm.yaml', KUBEADM('    feature-gates: "AllAlpha=true,AllBeta=|"\n')).items), ['false', 'true']);
  assert.deepEqual(at('kubeadm.yaml', KUBEADM('    node-ip: |\n')).items, []);
  const v1beta4 = `apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    - name: cgroup-driver\n      value: |\n`;
  assert.deepEqual(labels(at('kubeadm.yaml', v1beta4).items), ['cgroupfs', 'systemd']);
});

test('2: Talos extraArgs name completion replaces the whole typed name (eviction-h → eviction-hard, not eviction-help)', () => {
  for (const fixture of [TALOS('      max-pods: "20"\n      eviction-h|\n'), TALOS('      eviction-h|\n'), TALOS('      eviction-h|\n      max-pods: "20"\n')]) {
    const r = at('worker.yaml', fixture);
    const item = r.items.find((i) => i.label === 'eviction-hard');
    assert.equal(item?.filterText, 'eviction-hard');
    assert.match(choose(r, 'eviction-hard'), /\n {6}eviction-hard: \n/, fixture);
  }
  // On an empty line of the map: a new name with its colon; the names present are not offered again.
  const empty = at('worker.yaml', TALOS('      max-pods: "20"\n      |\n'));
  assert.match(choose(empty, 'kube-reserved'), /\n {6}kube-reserved: \n/);
  assert.ok(!labels(empty.items).includes('max-pods'));
});

test('3: Cluster API kubeletExtraArgs completes a partly typed name, also above another entry (one range on one line)', () => {
  const above = at('cluster.yaml', CAPI('            ev|\n            max-pods: "10"\n'));
  assert.match(choose(above, 'eviction-hard'), /\n {12}eviction-hard: \n {12}max-pods: "10"/);
  const below = at('cluster.yaml', CAPI('            max-pods: "10"\n            evic|\n'));
  assert.match(choose(below, 'eviction-hard'), /\n {12}eviction-hard: \n/);
});

test('5: --help is never offered; --exit-on-lock-contention only beside --lock-file', () => {
  const lists = [
    at('worker.yaml', TALOS('      max-pods: "20"\n      |\n')).items,
    at(K3S_PATH, K3S('  - max-pods=10\n  - |\n')).items,
    at('cluster.yaml', CAPI('            max-pods: "10"\n            |\n')).items,
    at('n/etc/default/kubelet', 'KUBELET_EXTRA_ARGS="--|"\n').items.map((i) => ({ ...i, label: i.label.replace(/^--/, '') })),
  ];
  for (const items of lists) {
    assert.ok(items.length > 50, 'flags are offered');
    assert.ok(!labels(items).includes('help'));
    assert.ok(!labels(items).includes('exit-on-lock-contention'));
  }
  assert.ok(labels(at(K3S_PATH, K3S('  - lock-file=/run/kubelet.lock\n  - |\n')).items).includes('exit-on-lock-contention'));
});
