/**
 * The long fuzz run: `npm run fuzz` (node --import tsx test/fuzz/run-long.ts).
 * Runs the same properties as test/fuzz/*.test.ts with many more cases: FUZZ_RUNS scales them (default 100000 cases in
 * total), FUZZ_SEED picks the seed (default: time-based, printed so a failure can be replayed), FUZZ_TIME_BOUND_MS the
 * per-case time bound (default here 100 ms: the contract; a slow case is timed twice before it counts).
 * Prints the cases per property, failures with their shrunk counterexample and seed, the max time per case, and
 * the quick-fix statistics. Exit status 1 when any property failed.
 * Then the differential runs against the real programs (test/oracle; scripts/oracle-setup.sh installs them):
 * FUZZ_ORACLE_CASES generated services through systemd --test, as many env files through its environment.d
 * generator, as many documents through sigs.k8s.io/yaml and as many KubeletConfiguration files (and files of several
 * such documents) through the kubelet's own decode, as many quantities and durations through apimachinery's ParseQuantity and time.ParseDuration
 * (test/oracle/kubelet-oracle) (default 20000 each), in batches with seeds from FUZZ_SEED; skipped with the
 * reason when they are not installed.
 */
import fc from 'fast-check';

process.env.FUZZ_TIME_BOUND_MS ??= '100';

const main = async () => {
  const P = await import('./props.ts');
  const G = await import('./gen.ts');
  const H = await import('./hardening.ts');
  const E = await import('./fix-effect.ts');
  const FG = await import('./fix-groups.ts');
  const DK = await import('./duplicate-keys.ts');
  const SC = await import('./suppress-carriers.ts');
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
    // issue #18's classes (test/fuzz/hardening.ts, test/fuzz/fix-effect.ts); the regex growth check and the CLI/server
    // equality run in test/unit/regex-growth.test.ts and test/lsp/cli-server-equality.test.ts
    ['fixes and refactors: effect (mutated corpus file)', 0.006, fc.property(nat, G.mutations, (i, m) => void E.fixEffectProperty([{ path: corpus[i]!.name, text: G.mutate(corpus[i]!.bytes, m) }]))],
    ['fixes and refactors: effect (generated workspace)', 0.006, fc.property(P.workspaceWithOptions, ([f, o]) => void E.fixEffectProperty(f, o))],
    // issue #28: the CLI's fix check in groups keeps exactly the fixes checked one by one
    ['fixes: checked in groups = checked alone (generated fleets)', 0.002, fc.property(FG.fleet, (f) => void FG.fixGroupProperty(f))],
    ['expansion size', 0.001, fc.property(H.expansion, (x) => H.expansionProperty(x))],
    ['stale code actions', 0.01, fc.property(H.staleEdit, (x) => H.staleCodeActionProperty(x))],
    ['links: CLI walk', 0.003, fc.property(H.linkTree, (t) => H.linkProperty(t))],
    // issue #28 point 9: repeated keys as each platform's decoder takes them; point 4: disable actions in carriers
    ['duplicate keys: platform files', 0.005, fc.property(DK.repeatedKeys, (x) => DK.repeatedKeysProperty(x))],
    ['duplicate keys: Ignition and Butane contents', 0.002, fc.property(DK.repeatedContents, (x) => DK.repeatedContentsProperty(x))],
    ['disable actions in carriers', 0.002, fc.property(SC.suppressionCase, (c) => void SC.suppressionCaseProperty(c))],
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
  console.log(`fix effect: ${E.effectStats.fixes} fixes and ${E.effectStats.refactors} refactors checked; held back by the verifier: ${JSON.stringify(Object.fromEntries(E.effectStats.dropped))}`);
  failed += await oracleRuns(seed);
  process.exitCode = failed ? 1 : 0;
};

/** The differential runs against systemd and sigs.k8s.io/yaml; the number of runs with disagreements. */
async function oracleRuns(seed: number): Promise<number> {
  const O = await import('../oracle/oracles.ts');
  const U = await import('../oracle/units.ts');
  const Y = await import('../oracle/yaml-docs.ts');
  const E = await import('../oracle/env-files.ts');
  const K = await import('../oracle/kubelet-docs.ts');
  const Q = await import('../oracle/quantities.ts');
  const total = Number(process.env.FUZZ_ORACLE_CASES ?? 20000);
  const BATCH = 2000;
  let failed = 0;
  const runs: [string, 'systemd' | 'yaml' | 'envfile' | 'kubelet', (n: number, s: number) => { shown: string; count: number }][] = [
    ['oracle: services through systemd --test', 'systemd', (n, s) => {
      const d = U.compareServices(fc.sample(U.serviceCase, { numRuns: n, seed: s }), O.runSystemd);
      return { count: d.length, shown: d.slice(0, 3).map((x) => `${JSON.stringify(x.case)}\n  ${x.diff}`).join('\n  ') };
    }],
    ['oracle: env files through systemd\'s environment.d generator', 'envfile', (n, s) => {
      const d = E.compareEnvFiles(fc.sample(E.envFileText, { numRuns: n, seed: s }));
      return { count: d.length, shown: d.slice(0, 3).map((x) => `${JSON.stringify(x.text)}\n  ${x.diff}`).join('\n  ') };
    }],
    ['oracle: documents through sigs.k8s.io/yaml', 'yaml', (n, s) => {
      const d = Y.compareYaml(fc.sample(Y.yamlDoc, { numRuns: n, seed: s }), O.runYamlOracle);
      return { count: d.length, shown: d.slice(0, 3).map((x) => `${JSON.stringify(x.doc)}\n  ${x.diff}`).join('\n  ') };
    }],
    ['oracle: KubeletConfiguration files through the kubelet\'s decode (k8s.io/kubelet)', 'kubelet', (n, s) => {
      const d = K.compareDecodes(fc.sample(K.kubeletDoc, { numRuns: n, seed: s }), (x) => O.runKubeletOracle('decode', x));
      return { count: d.length, shown: d.slice(0, 3).map((x) => `${JSON.stringify(x.doc)}\n  ${x.diff}`).join('\n  ') };
    }],
    ['oracle: files of several KubeletConfiguration documents through the kubelet\'s decode', 'kubelet', (n, s) => {
      const d = K.compareDecodes(fc.sample(K.kubeletStream, { numRuns: n, seed: s }), (x) => O.runKubeletOracle('decode', x));
      return { count: d.length, shown: d.slice(0, 3).map((x) => `${JSON.stringify(x.doc)}\n  ${x.diff}`).join('\n  ') };
    }],
    ['oracle: quantities through apimachinery\'s ParseQuantity', 'kubelet', (n, s) => {
      const xs = fc.sample(Q.quantityString, { numRuns: n, seed: s });
      const d = Q.compareQuantities(xs, O.runKubeletOracle('quantity', xs));
      return { count: d.length, shown: d.slice(0, 3).map((x) => `${JSON.stringify(x.input)}\n  ${x.diff}`).join('\n  ') };
    }],
    ['oracle: durations through Go\'s time.ParseDuration', 'kubelet', (n, s) => {
      const xs = fc.sample(Q.durationString, { numRuns: n, seed: s });
      const d = Q.compareDurations(xs, O.runKubeletOracle('duration', xs));
      return { count: d.length, shown: d.slice(0, 3).map((x) => `${JSON.stringify(x.input)}\n  ${x.diff}`).join('\n  ') };
    }],
  ];
  for (const [name, which, run] of runs) {
    const why = O.missing(which);
    if (why) {
      console.log(`skip ${name}: ${why}`);
      continue;
    }
    const t0 = performance.now();
    let cases = 0;
    let count = 0;
    let shown = '';
    for (let b = 0; cases < total; b++) {
      const n = Math.min(BATCH, total - cases);
      const r = run(n, seed + b);
      cases += n;
      count += r.count;
      if (r.count && !shown) shown = `seed ${seed + b}: ${r.shown}`;
    }
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    if (count) {
      failed++;
      console.log(`FAIL ${name}: ${count} of ${cases} cases disagree (${s} s)\n  ${shown}`);
    } else console.log(`ok   ${name}: ${cases} cases agree (${s} s)`);
  }
  return failed;
}

void main();
