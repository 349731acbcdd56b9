/**
 * Node Allocatable is monotonic: more kubeReserved / systemReserved / evictionHard never yields more allocatable
 * (through analyze(...).nodes[0].allocatable, from a KubeletConfiguration and a capacity).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';
import * as P from './props.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 120;
const SEED = 20261129;

const monotonic = (extreme: boolean) =>
  fc.property(
    P.reservationsArb(extreme),
    fc.constantFrom(...P.SLOTS),
    fc.bigInt({ min: 0n, max: extreme ? 1n << 80n : 1n << 40n }),
    fc.integer({ min: 0, max: 5000 }),
    P.capacityArb(extreme),
    (r, slot, by, pct, cap) => P.allocatableMonotonicProperty(r, slot, by, pct, cap),
  );

test('allocatable is monotonic in kubeReserved, systemReserved and evictionHard (realistic magnitudes)', () => {
  fc.assert(monotonic(false), { numRuns: RUNS, seed: SEED });
});

// BUG 4 (server/src/node/allocatable.ts reservationMap / evictionBytes): reservations go through Quantity
// milliValue()/value(), which (like apimachinery's) overflow beyond int64: to 0 on the int64 path ("10E" cpu,
// "1e19" memory) and to the low 64 bits on the inf.Dec path. The kubelet subtracts exact Quantities
// (GetNodeAllocatableReservation + Sub, then clamps at 0), so a huge reservation leaves 0 allocatable.
// fast-check counterexample (seed 3, extreme magnitudes): kubeReserved cpu "0m" -> "129081091655782587432960m",
// capacity cpu 0: cpu allocatable grows from 0 to 9223372036854775808 (more than the capacity).
test('allocatable is monotonic also for reservations beyond int64', () => {
  fc.assert(monotonic(true), { numRuns: RUNS, seed: 3 });
});

test('regression (BUG 4): kubeReserved cpu "10E" / memory "1e19" must leave no allocatable, like "8Ei" does', () => {
  const cap = { cpu: 16000n, memory: 64n << 30n, 'ephemeral-storage': 200n << 30n, hugepages: new Map<string, bigint>() };
  for (const [k, v] of [['cpu', '10E'], ['cpu', '9300000000000000'], ['memory', '1e19'], ['memory', '8Ei']] as const) {
    const text = `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nkubeReserved:\n  ${k}: "${v}"\n`;
    const a = analyze([{ path: 'kubelet-config.yaml', text }], { capacity: cap });
    assert.equal(a.nodes[0]!.allocatable.lines[k].allocatable, 0n, `kubeReserved ${k}: ${v}`);
  }
});
