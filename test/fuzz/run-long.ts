/**
 * The long fuzz run: `npm run fuzz` (node --import tsx test/fuzz/run-long.ts).
 * Runs the same properties as test/fuzz/*.test.ts with many more cases: FUZZ_RUNS scales them (default 100000 cases in
 * total), FUZZ_SEED picks the seed (default: time-based, printed so a failure can be replayed), FUZZ_TIME_BOUND_MS the
 * per-case time bound (default here 100 ms: the contract; a slow case is timed twice before it counts).
 * Prints the cases per property, failures with their shrunk counterexample and seed, the max time per case, and
 * the quick-fix statistics. Exit status 1 when any property failed.
 */
import fc from 'fast-check';

process.env.FUZZ_TIME_BOUND_MS ??= '100';

const main = async () => {
  const P = await import('./props.ts');
  const G = await import('./gen.ts');
  const total = Number(process.env.FUZZ_RUNS ?? 100000);
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
  const corpus = G.loadCorpus();
  const nat = fc.nat(Math.max(0, corpus.length - 1));

  // weights: share of the total per property (cheap properties get more cases)
  const props: [string, number, fc.IProperty<any>][] = [
    ['quantity: reference math', 0.15, fc.property(P.qspec, (q) => P.quantityReferenceProperty(q))],
    ['quantity: arithmetic', 0.15, fc.property(P.qspec, P.qspec, (a, b) => P.quantityArithmeticProperty(a, b))],
    ['quantity: canonical round-trip', 0.15, fc.property(fc.oneof(G.quantityText, P.qspec.map(P.qText), fc.string({ maxLength: 12 })), (t) => P.quantityRoundTripProperty(t))],
    ['allocatable: monotonic', 0.1, fc.property(P.reservationsArb(false), fc.constantFrom(...P.SLOTS), fc.bigInt({ min: 0n, max: 1n << 40n }), fc.integer({ min: 0, max: 5000 }), P.capacityArb(false), (r, s, by, pct, cap) => P.allocatableMonotonicProperty(r, s, by, pct, cap))],
    ['engine: single generated file', 0.12, fc.property(P.singleWithOptions, ([f, o]) => void P.engineProperty(f, o))],
    ['engine: generated workspace', 0.06, fc.property(P.workspaceWithOptions, ([f, o]) => void P.engineProperty(f, o))],
    ['engine: edits reusing the previous analysis', 0.03, fc.property(P.editedWorkspace, (x) => P.incrementalProperty(x))],
    ['engine: mutated corpus file', 0.12, fc.property(nat, G.mutations, (i, m) => void P.engineProperty([{ path: corpus[i]!.name, text: G.mutate(corpus[i]!.bytes, m) }]))],
    ['quick fixes: mutated corpus file', 0.08, fc.property(nat, G.mutations, (i, m) => void P.quickFixProperty([{ path: corpus[i]!.name, text: G.mutate(corpus[i]!.bytes, m) }]))],
    ['quick fixes: generated workspace', 0.07, fc.property(P.workspaceWithOptions, ([f, o]) => void P.quickFixProperty(f, o))],
  ];

  P.warmUp();
  console.log(`fuzz: ${total} cases in total, seed ${seed}, time bound ${P.TIME_BOUND_MS} ms per case, corpus ${corpus.length} files`);
  let failed = 0;
  let cases = 0;
  for (const [name, w, prop] of props) {
    const runs = Math.max(1, Math.round(total * w));
    const t0 = performance.now();
    const r = fc.check(prop, { numRuns: runs, seed });
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    cases += r.numRuns;
    if (r.failed) {
      failed++;
      const err = r.errorInstance instanceof Error ? r.errorInstance.message : String(r.errorInstance);
      console.log(`FAIL ${name}: after ${r.numRuns} cases (${s} s), seed ${r.seed}, path ${r.counterexamplePath}\n  counterexample: ${fc.stringify(r.counterexample)}\n  ${err.split('\n').slice(0, 12).join('\n  ')}`);
    } else console.log(`ok   ${name}: ${r.numRuns} cases, ${r.numSkips} skipped (${s} s)`);
  }
  const t = P.timing;
  console.log(`cases run: ${cases}; properties failed: ${failed}`);
  console.log(`analysis time: ${t.cases} timed analyses, max ${t.maxMs.toFixed(1)} ms (${t.maxWhat}); over ${P.CONTRACT_MS} ms: ${t.overContract} first time, ${t.overContractAfterRetry} after a retry`);
  console.log(`quick fixes: ${JSON.stringify(P.fixStats)}; ranges moved for known BUG 3: ${P.rangeStats.knownNewlineEnd}`);
  process.exitCode = failed ? 1 : 0;
};

void main();
