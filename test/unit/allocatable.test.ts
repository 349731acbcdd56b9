import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCapacity } from '../../server/src/node/capacity.ts';
import type { Capacity } from '../../server/src/node/model.ts';
import { CONFIG_HEAD, kubeadmNode, onlyNode, run, DOCS_RESERVATIONS } from '../helpers/nodes.ts';

function cap(text: string): Capacity {
  const c = parseCapacity(text);
  assert.ok(c.ok, !c.ok ? c.error : '');
  return c.capacity;
}

const GI = 1024n ** 3n;
const MI = 1024n ** 2n;

/** Allocatable of a standalone KubeletConfiguration (body after apiVersion/kind) on a given capacity. */
function alloc(body: string, capacity = 'cpu=16,memory=32Gi,ephemeral-storage=100Gi') {
  return onlyNode(run({ 'n/kubelet-config.yaml': CONFIG_HEAD + body }, { capacity: cap(capacity) })).allocatable;
}


test('docs Example Scenario: cpu 14500m, memory 30614224896, ephemeral-storage 94489280352 (node_container_manager_linux.go; kubelet-facts §1)', () => {
  const a = alloc(DOCS_RESERVATIONS);
  assert.equal(a.lines.cpu.allocatable, 14500n);
  assert.equal(a.lines.memory.allocatable, 30614224896n);
  assert.equal(a.lines['ephemeral-storage'].allocatable, 94489280352n);
  assert.equal(a.lines.memory.eviction, 524288000n);
  assert.equal(a.lines['ephemeral-storage'].eviction, 10737418400n);
  assert.equal(a.lines.cpu.eviction, 0n, 'cpu has no eviction term');
  assert.equal(a.pods, 110n);
});

test('the docs scenario written as flags gives the same figures (--kube-reserved, --system-reserved, --eviction-hard)', () => {
  const files = kubeadmNode('n', {
    defaults:
      'KUBELET_EXTRA_ARGS="--kube-reserved=cpu=1,memory=2Gi,ephemeral-storage=1Gi --system-reserved=cpu=500m,memory=1Gi,ephemeral-storage=1Gi --eviction-hard=memory.available<500Mi,nodefs.available<10%"\n',
  });
  const a = onlyNode(run(files, { capacity: cap('docs-example') })).allocatable;
  assert.equal(a.lines.cpu.allocatable, 14500n);
  assert.equal(a.lines.memory.allocatable, 30614224896n);
  assert.equal(a.lines['ephemeral-storage'].allocatable, 94489280352n);
});

test('only hard memory.available and nodefs.available lower allocatable; imagefs, inodes and pid do not (hardEvictionReservation)', () => {
  const a = alloc(`evictionHard:
  imagefs.available: 50%
  nodefs.inodesFree: 50%
  imagefs.inodesFree: 50%
  pid.available: 50%
evictionSoft:
  memory.available: 10Gi
evictionSoftGracePeriod:
  memory.available: 1m
`);
  assert.equal(a.lines.memory.allocatable, 32n * GI);
  assert.equal(a.lines['ephemeral-storage'].allocatable, 100n * GI);
});

test('a percentage goes through float32: 10% of 100Gi = 10737418400 bytes (parsePercentage ParseFloat(s, 32); GetThresholdQuantity)', () => {
  const a = alloc('evictionHard:\n  nodefs.available: "10%"\n  memory.available: "10%"\n', 'cpu=1,memory=100Gi,ephemeral-storage=100Gi');
  assert.equal(a.lines['ephemeral-storage'].eviction, 10737418400n);
  assert.equal(a.lines.memory.eviction, 10737418400n);
  assert.equal(a.lines.memory.allocatable, 100n * GI - 10737418400n);
});

test('"0%" and "100%" create no threshold at all (parseThresholdStatement drops them)', () => {
  const a = alloc('evictionHard:\n  memory.available: "100%"\n  nodefs.available: "0%"\n');
  assert.equal(a.lines.memory.eviction, 0n);
  assert.equal(a.lines.memory.allocatable, 32n * GI);
  assert.equal(a.lines['ephemeral-storage'].eviction, 0n);
  assert.equal(a.lines['ephemeral-storage'].allocatable, 100n * GI);
});

test('hugepages capacity is subtracted from allocatable memory (setters.go MachineInfo)', () => {
  const a = alloc('evictionHard:\n  memory.available: 100Mi\n', 'cpu=4,memory=16Gi,hugepages-2Mi=1Gi,hugepages-1Gi=2Gi');
  assert.equal(a.lines.memory.hugepages, 3n * GI);
  assert.equal(a.lines.memory.allocatable, 16n * GI - 100n * MI - 3n * GI);
});

test('allocatable is clamped at 0, also after the hugepages subtraction (MachineInfo: negative -> 0)', () => {
  const a = alloc('kubeReserved:\n  cpu: "8"\n  memory: 20Gi\n', 'cpu=4,memory=16Gi,hugepages-1Gi=1Gi');
  assert.equal(a.lines.cpu.allocatable, 0n);
  assert.equal(a.lines.memory.allocatable, 0n);
  const b = alloc('evictionHard:\n  memory.available: 1Gi\n', 'cpu=4,memory=4Gi,hugepages-1Gi=4Gi');
  assert.equal(b.lines.memory.allocatable, 0n);
});

test('--experimental-allocatable-ignore-eviction drops hard thresholds from allocatable (node_container_manager_linux.go)', () => {
  const files = kubeadmNode('n', {
    config: 'evictionHard:\n  memory.available: 1Gi\n  nodefs.available: 10%\n',
    defaults: 'KUBELET_EXTRA_ARGS=--experimental-allocatable-ignore-eviction\n',
  });
  const a = onlyNode(run(files, { capacity: cap('cpu=4,memory=16Gi,ephemeral-storage=100Gi') })).allocatable;
  assert.equal(a.ignoreEviction, true);
  assert.equal(a.lines.memory.allocatable, 16n * GI);
  assert.equal(a.lines['ephemeral-storage'].allocatable, 100n * GI);
  const off = kubeadmNode('n', {
    config: 'evictionHard:\n  memory.available: 1Gi\n',
    defaults: 'KUBELET_EXTRA_ARGS=--experimental-allocatable-ignore-eviction=false\n',
  });
  assert.equal(onlyNode(run(off, { capacity: cap('cpu=4,memory=16Gi') })).allocatable.lines.memory.allocatable, 15n * GI);
});

test('reservedSystemCPUs replaces the cpu of both kubeReserved and systemReserved (server.go getReservedCPUs)', () => {
  const a = alloc('reservedSystemCPUs: "0-1,8"\nkubeReserved:\n  cpu: "2"\nsystemReserved:\n  cpu: "3"\n');
  assert.equal(a.lines.cpu.kubeReserved + a.lines.cpu.systemReserved, 3000n);
  assert.equal(a.lines.cpu.allocatable, 13000n);
});

test('pods = maxPods, or min(cores * podsPerCore, maxPods) (setters.go MachineInfo)', () => {
  assert.equal(alloc('maxPods: 50\n').pods, 50n);
  assert.equal(alloc('maxPods: 110\npodsPerCore: 2\n').pods, 32n);
  assert.equal(alloc('maxPods: 20\npodsPerCore: 10\n').pods, 20n);
  assert.equal(alloc('').pods, 110n);
});

test('localStorageCapacityIsolation: false drops ephemeral-storage from allocatable (GetNodeAllocatableReservation)', () => {
  const a = alloc('localStorageCapacityIsolation: false\nkubeReserved:\n  ephemeral-storage: 1Gi\n');
  assert.equal(a.localStorage, false);
  assert.equal(a.lines['ephemeral-storage'].allocatable, undefined);
});

test('a pid reservation is not in allocatable; it only lowers kubepods pids.max (kubelet-facts §1)', () => {
  const a = alloc('kubeReserved:\n  pid: "1000"\nsystemReserved:\n  pid: "500"\n');
  assert.deepEqual(a.pid, { kubeReserved: 1000n, systemReserved: 500n });
  assert.equal(a.lines.memory.allocatable, 32n * GI - 100n * MI);
  assert.equal(a.lines.cpu.allocatable, 16000n);
});

test('default hard eviction (memory.available 100Mi, nodefs.available 10%) applies when evictionHard is unset', () => {
  const a = alloc('maxPods: 110\n');
  assert.equal(a.lines.memory.eviction, 100n * MI);
  assert.equal(a.lines['ephemeral-storage'].eviction, 10737418400n);
});

test('kubepods limit = capacity - system - kube (no eviction term) when enforcing pods (node_container_manager_linux.go)', () => {
  const a = alloc(DOCS_RESERVATIONS);
  assert.equal(a.kubepodsEnforced, true);
  assert.equal(a.lines.memory.kubepodsLimit, 29n * GI);
  assert.ok(a.lines.cpu.kubepodsLimit !== undefined);
  // ephemeral-storage has no cgroup controller: no kubepods cgroup limit (ResourceConfig holds cpu, memory, hugepages, pids).
  assert.equal(a.lines['ephemeral-storage'].kubepodsLimit, undefined);
  const b = alloc(DOCS_RESERVATIONS + 'enforceNodeAllocatable: []\n');
  assert.equal(b.kubepodsEnforced, false);
  assert.equal(b.lines.memory.kubepodsLimit, undefined);
});

test('without capacity nothing is computed', () => {
  const { allocatable } = onlyNode(run({ 'n/kubelet-config.yaml': CONFIG_HEAD + DOCS_RESERVATIONS }));
  assert.equal(allocatable.hasCapacity, false);
  assert.equal(allocatable.lines.memory.allocatable, undefined);
});

test('a capacity modeline overrides the capacity option (parse/modeline.ts; engine applyModelines)', () => {
  const text = '# kubelet-lint: capacity cpu=4,memory=8Gi\n' + CONFIG_HEAD + 'evictionHard:\n  memory.available: 1Gi\n';
  const r = onlyNode(run({ 'n/kubelet-config.yaml': text }, { capacity: cap('cpu=64,memory=256Gi') }));
  assert.equal(r.allocatable.lines.memory.capacity, 8n * GI);
  assert.equal(r.allocatable.lines.memory.allocatable, 7n * GI);
  assert.equal(r.allocatable.lines.cpu.allocatable, 4000n);
  assert.match(r.node.capacitySource ?? '', /modeline in n\/kubelet-config.yaml line 1/);
});

test('an invalid capacity modeline is a modeline-invalid warning at its value, and the option stays in force', () => {
  const text = '# kubelet-lint: capacity cpu=lots\n' + CONFIG_HEAD;
  const a = run({ 'n/kubelet-config.yaml': text }, { capacity: cap('cpu=2,memory=4Gi') });
  const f = a.findings.filter((x) => x.code === 'modeline-invalid');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'warning');
  assert.deepEqual(f[0].range, { start: { line: 0, character: 25 }, end: { line: 0, character: 33 } });
  assert.equal(onlyNode(a).allocatable.lines.cpu.capacity, 2000n);
});

test('a kubernetes-version modeline that is not a version is a modeline-invalid warning', () => {
  const a = run({ 'n/kubelet-config.yaml': '# kubelet-lint: kubernetes-version banana\n' + CONFIG_HEAD });
  assert.deepEqual(a.findings.filter((f) => f.code !== 'reservations-missing').map((f) => [f.code, f.severity]), [['modeline-invalid', 'warning']]);
});
