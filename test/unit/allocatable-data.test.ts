/** The JSON behind the editor's allocatable view and status bar (server/src/features/allocatable-data.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CAPACITY_HELP, allocatableForFile, nodeAllocatable, type AllocatableResource, type NodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { parseCapacity } from '../../server/src/node/capacity.ts';
import type { Capacity } from '../../server/src/node/model.ts';
import { CONFIG_HEAD, kubeadmNode, nodeWith, onlyNode, run, DOCS_RESERVATIONS } from '../helpers/nodes.ts';

function cap(text: string): Capacity {
  const c = parseCapacity(text);
  assert.ok(c.ok, !c.ok ? c.error : '');
  return c.capacity;
}


function data(body: string, capacity?: string): NodeAllocatable {
  const a = run({ 'n/kubelet-config.yaml': CONFIG_HEAD + body }, capacity ? { capacity: cap(capacity) } : {});
  return nodeAllocatable(onlyNode(a));
}

function res(d: NodeAllocatable, r: string): AllocatableResource {
  const found = d.resources.find((x) => x.resource === r);
  assert.ok(found, `no ${r}`);
  return found;
}

const amounts = (r: AllocatableResource) => Object.fromEntries(r.parts.map((p) => [p.kind, p.amount]));
const percentSum = (r: AllocatableResource) => r.parts.reduce((s, p) => s + (p.percent ?? 0), 0);

test('docs Example Scenario: exact base-unit strings, human text with exact bytes when rounded, bar order', () => {
  const d = data(DOCS_RESERVATIONS, 'cpu=16,memory=32Gi,ephemeral-storage=100Gi');
  assert.deepEqual(d.resources.map((r) => r.resource), ['cpu', 'memory', 'ephemeral-storage', 'pods']);
  const mem = res(d, 'memory');
  assert.deepEqual(mem.parts.map((p) => p.kind), ['kube-reserved', 'system-reserved', 'eviction-hard', 'allocatable']);
  assert.deepEqual(amounts(mem), { 'kube-reserved': '2147483648', 'system-reserved': '1073741824', 'eviction-hard': '524288000', allocatable: '30614224896' });
  assert.equal(mem.capacity, '34359738368');
  assert.equal(mem.allocatable, '30614224896');
  assert.equal(mem.allocatableText, '28.51 GiB (30614224896 bytes)');
  assert.equal(mem.parts[2].note, 'memory.available<500Mi');
  const storage = res(d, 'ephemeral-storage');
  assert.equal(storage.allocatable, '94489280352');
  assert.equal(storage.parts.find((p) => p.kind === 'eviction-hard')?.amount, '10737418400', '10% goes through float32');
  const cpu = res(d, 'cpu');
  assert.equal(cpu.unit, 'millicores');
  assert.deepEqual(cpu.parts.map((p) => p.kind), ['kube-reserved', 'system-reserved', 'allocatable'], 'cpu has no eviction term');
  assert.equal(cpu.allocatable, '14500');
  assert.deepEqual(cpu.parts.map((p) => p.percent), [6.25, 3.13, 90.63]);
  assert.equal(res(d, 'pods').allocatable, '110');
  assert.equal(d.summary, '14.5 CPU · 28.51 GiB');
  assert.equal(d.hasCapacity, true);
  for (const r of d.resources) {
    assert.equal(r.overcommitted, false);
    assert.ok(Math.abs(percentSum(r) - 100) < 0.05, `${r.resource} bar adds up to ${percentSum(r)}`);
  }
});

test('without a capacity: the reservations, no bar shares, the threshold as a percentage and how to give a capacity', () => {
  const d = data(DOCS_RESERVATIONS);
  assert.equal(d.hasCapacity, false);
  assert.equal(d.summary, 'no capacity');
  assert.ok(d.notes.includes(CAPACITY_HELP));
  const storage = res(d, 'ephemeral-storage');
  assert.equal(storage.capacity, undefined);
  assert.equal(storage.allocatable, undefined);
  assert.equal(storage.capacityText, '?');
  assert.equal(storage.missing, 'no node capacity given');
  const ev = storage.parts.find((p) => p.kind === 'eviction-hard');
  assert.equal(ev?.amount, undefined);
  assert.equal(ev?.text, '10% of capacity');
  assert.equal(amounts(res(d, 'memory'))['kube-reserved'], '2147483648');
  assert.ok(d.resources.every((r) => r.parts.every((p) => p.percent === undefined)));
});

test('reservations above the capacity: allocatable 0, the bar scaled to the sum and the capacity marked on it', () => {
  const d = data('kubeReserved:\n  memory: 6Gi\nsystemReserved:\n  memory: 4Gi\n', 'cpu=4,memory=8Gi');
  const mem = res(d, 'memory');
  assert.equal(mem.allocatable, '0');
  assert.equal(mem.overcommitted, true);
  // 6Gi + 4Gi + 100Mi (default threshold) on an 8Gi node.
  const total = 10n * 1024n ** 3n + 100n * 1024n ** 2n;
  assert.equal(mem.capacityPercent, Number(((8n * 1024n ** 3n) * 10000n + total / 2n) / total) / 100);
  assert.ok(Math.abs(percentSum(mem) - 100) < 0.05);
  assert.equal(res(d, 'cpu').overcommitted, false);
});

test('amounts past 2^53 stay exact (strings, not JSON numbers)', () => {
  const d = data('kubeReserved:\n  memory: "9007199254740993"\n', 'cpu=4,memory=16Pi');
  const mem = res(d, 'memory');
  assert.equal(mem.parts[0].amount, '9007199254740993');
  assert.equal(BigInt(mem.capacity!) - 9007199254740993n - 104857600n, BigInt(mem.allocatable!));
});

test('a default eviction threshold says so; huge pages get their own part of the memory bar', () => {
  const d = data('', 'cpu=4,memory=16Gi,hugepages-2Mi=2Gi');
  const mem = res(d, 'memory');
  assert.equal(mem.parts.find((p) => p.kind === 'eviction-hard')?.note, 'memory.available<100Mi (kubelet default)');
  assert.equal(mem.parts.find((p) => p.kind === 'hugepages')?.amount, String(2n * 1024n ** 3n));
  assert.equal(mem.allocatable, String(14n * 1024n ** 3n - 100n * 1024n ** 2n));
  assert.equal(res(d, 'ephemeral-storage').missing, 'the capacity gives no ephemeral-storage');
});

test('localStorageCapacityIsolation: false leaves ephemeral-storage without allocatable, and says why', () => {
  const d = data('localStorageCapacityIsolation: false\n', 'cpu=4,memory=16Gi,ephemeral-storage=100Gi');
  const storage = res(d, 'ephemeral-storage');
  assert.equal(storage.allocatable, undefined);
  assert.match(storage.missing ?? '', /localStorageCapacityIsolation is false/);
});

test('allocatableForFile: the nodes that read a file; none for a file of no node', () => {
  const files = { ...kubeadmNode('a', { defaults: 'KUBELET_EXTRA_ARGS="--kube-reserved=cpu=1"\n' }), 'notes/daemon.json': '{}\n' };
  const a = run(files, { capacity: cap('cpu=8,memory=16Gi') });
  const r = allocatableForFile(a, 'a/etc/default/kubelet');
  assert.equal(r.nodes.length, 1);
  assert.equal(r.nodes[0].node, nodeWith(a, 'a/etc/default/kubelet').node.id);
  assert.equal(res(r.nodes[0], 'cpu').allocatable, '7000');
  assert.deepEqual(allocatableForFile(a, 'elsewhere/kubelet-config.yaml').nodes, []);
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r, 'plain JSON');
});
