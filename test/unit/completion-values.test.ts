/**
 * Completion after `=` on command lines (units, drop-ins, env files), keys not offered twice, the `\` of a flag
 * inserted inside a continued ExecStart=, and kubeadm kubeletExtraArgs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { analyze } from '../../server/src/engine.ts';
import { completion } from '../../server/src/features/completion.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

const UNIT = 'n/etc/systemd/system/kubelet.service';
const ENV = 'n/etc/default/kubelet';

/** Completion at the end of `line` (line `index` of the file), or at the `|` in it. */
function at(path: string, text: string): CompletionItem[] {
  const i = text.indexOf('|');
  const clean = text.slice(0, i) + text.slice(i + 1);
  const before = clean.slice(0, i).split('\n');
  return completion(analyze([{ path, text: clean }]), path, { line: before.length - 1, character: before.at(-1)!.length });
}
const texts = (items: CompletionItem[]) => items.map((c) => (c.textEdit as TextEdit).newText);

test('--cgroup-driver= offers its enum values, --fail-swap-on= true and false', () => {
  assert.deepEqual(texts(at(UNIT, '[Service]\nExecStart=/usr/bin/kubelet --cgroup-driver=|\n')), ['cgroupfs', 'systemd']);
  assert.deepEqual(texts(at(UNIT, '[Service]\nExecStart=/usr/bin/kubelet --fail-swap-on=|\n')), ['true', 'false']);
});

test('--system-reserved= offers the reservable resources not already given, then quantities for the resource', () => {
  assert.deepEqual(texts(at(UNIT, '[Service]\nExecStart=/usr/bin/kubelet --system-reserved=|\n')), ['cpu=', 'memory=', 'ephemeral-storage=', 'pid=']);
  assert.deepEqual(texts(at(UNIT, '[Service]\nExecStart=/usr/bin/kubelet --system-reserved=cpu=500m,|\n')), ['memory=', 'ephemeral-storage=', 'pid=']);
  const mem = at(ENV, 'KUBELET_EXTRA_ARGS="--kube-reserved=memory=|"\n');
  assert.ok(texts(mem).includes('1Gi'));
  assert.deepEqual(mem[0].textEdit && 'range' in mem[0].textEdit ? mem[0].textEdit.range.start : undefined, { line: 0, character: 'KUBELET_EXTRA_ARGS="--kube-reserved=memory='.length });
});

test('--eviction-hard= offers signals ending in "<" (not one already set), then thresholds', () => {
  const signals = texts(at(UNIT, '[Service]\nExecStart=/usr/bin/kubelet --eviction-hard=memory.available<100Mi,|\n'));
  assert.ok(signals.includes('nodefs.available<'));
  assert.ok(!signals.includes('memory.available<'));
  assert.ok(texts(at(UNIT, '[Service]\nExecStart=/usr/bin/kubelet --eviction-hard=nodefs.available<|\n')).includes('10%'));
});

test('--feature-gates= offers the gates of the target version, then true/false; in a drop-in Environment= too', () => {
  const dropin = 'n/etc/systemd/system/kubelet.service.d/10-gates.conf';
  const gates = at(dropin, '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--feature-gates=|"\n');
  assert.ok(gates.length > 50);
  assert.ok(gates.every((g) => (g.textEdit as TextEdit).newText.endsWith('=')));
  assert.ok(texts(gates).includes('AllAlpha='));
  assert.deepEqual(texts(at(dropin, '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--feature-gates=AllAlpha=|"\n')), ['true', 'false']);
});

test('a flag name completed on the last line of a continued ExecStart=, above more flag lines, gets its "\\"', () => {
  const text = '[Service]\nExecStart=/usr/bin/kubelet \\\n    --v=2 \\\n    --|\n    --max-pods=20\n';
  const items = at(UNIT, text);
  const flag = items.find((c) => c.label === '--cgroup-driver')!;
  assert.deepEqual(flag.additionalTextEdits, [{ range: { start: { line: 3, character: 6 }, end: { line: 3, character: 6 } }, newText: ' \\' }]);
  // The last line of the command, with nothing after it: no "\".
  const last = at(UNIT, '[Service]\nExecStart=/usr/bin/kubelet \\\n    --v=2 \\\n    --|\nRestart=always\n');
  assert.equal(last.find((c) => c.label === '--cgroup-driver')!.additionalTextEdits, undefined);
});

test('top-level config keys already in the document are not offered again', () => {
  const labels = at('n/kubelet-config.yaml', CONFIG_HEAD + 'maxPods: 100\ncgroupDriver: systemd\nmax|\n').map((c) => c.label);
  assert.ok(!labels.includes('maxPods'));
  assert.ok(!labels.includes('cgroupDriver'));
  assert.ok(labels.includes('maxOpenFiles'));
});

test('the first entry typed under featureGates: is completed as a gate key; gates already set are not offered again', () => {
  const first = at('n/kubelet-config.yaml', CONFIG_HEAD + 'featureGates:\n  AllAl|\n');
  const item = first.find((c) => c.label === 'AllAlpha');
  assert.ok(item, 'AllAlpha offered');
  assert.equal((item.textEdit as TextEdit).newText, 'AllAlpha: ');
  const next = at('n/kubelet-config.yaml', CONFIG_HEAD + 'featureGates:\n  AllAlpha: true\n  |\n').map((c) => c.label);
  assert.ok(next.includes('AllBeta'));
  assert.ok(!next.includes('AllAlpha'));
});

test('kubeadm kubeletExtraArgs completes flag names without "--" (not config fields), minus the ones already there', () => {
  const B3 = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n';
  const first = at('n/kubeadm.yaml', B3 + '    cgroup-dr|\n');
  const cd = first.find((c) => c.label === 'cgroup-driver');
  assert.equal((cd?.textEdit as TextEdit).newText, 'cgroup-driver: ');
  assert.ok(!first.some((c) => c.label === 'cgroupDriver' || c.label.startsWith('--')));
  const more = at('n/kubeadm.yaml', B3 + '    v: "2"\n    |\n').map((c) => c.label);
  assert.ok(more.includes('node-ip'));
  assert.ok(!more.includes('v'));
  const B4 = B3.replace('v1beta3', 'v1beta4');
  const list = at('n/kubeadm.yaml', B4 + '  - name: node-i|\n    value: 10.0.0.1\n');
  assert.equal((list.find((c) => c.label === 'node-ip')?.textEdit as TextEdit).newText, 'node-ip');
});

test('a YAML flow map of a map field completes its next key after ",": not one it already has', () => {
  const labels = at('n/kubelet-config.yaml', CONFIG_HEAD + 'kubeReserved: {cpu: 500m, |}\n').map((c) => c.label);
  assert.deepEqual(labels, ['memory', 'ephemeral-storage', 'pid']);
  // JSON keys need quotes: no bare-key completion there.
  assert.deepEqual(at('n/kubelet-config.json', '{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration", "kubeReserved": {"cpu": "1", |}}'), []);
});

test('with snippets, a flag completed at the end of such a line carries its " \\" after the cursor ($0), in one edit', () => {
  const text = '[Service]\nExecStart=/usr/bin/kubelet \\\n    --v=2 \\\n    --\n    --max-pods=20\n';
  const items = completion(analyze([{ path: UNIT, text }]), UNIT, { line: 3, character: 6 }, undefined, { snippets: true });
  const flag = items.find((c) => c.label === '--cgroup-driver')!;
  assert.equal((flag.textEdit as TextEdit).newText, '--cgroup-driver=$0 \\\\');
  assert.equal(flag.insertTextFormat, 2);
  assert.equal(flag.additionalTextEdits, undefined);
});

test('a key typed on a new line above another key (YAML reads both lines as one key): the range is the word on its line, with ": "', () => {
  // VS Code drops an item whose range spans lines: the whole (two-line) key's range offered nothing in the editor.
  const top = at('n/kubelet-config.yaml', CONFIG_HEAD + 'cgroupDriver: systemd\nmaxP|\nkubeReserved:\n  cpu: 500m\n');
  const line = CONFIG_HEAD.split('\n').length;
  const maxPods = top.find((c) => c.label === 'maxPods')!;
  assert.deepEqual((maxPods.textEdit as TextEdit).range, { start: { line, character: 0 }, end: { line, character: 4 } });
  assert.equal((maxPods.textEdit as TextEdit).newText, 'maxPods: ');
  // Inside a map field: the next resource, not the one already there.
  const inner = at('n/kubelet-config.yaml', CONFIG_HEAD + 'kubeReserved:\n  me|\n  cpu: 500m\n');
  assert.deepEqual(texts(inner).filter((t) => t.startsWith('memory')), ['memory: ']);
  assert.ok(inner.every((c) => (c.textEdit as TextEdit).range.start.line === (c.textEdit as TextEdit).range.end.line));
});
