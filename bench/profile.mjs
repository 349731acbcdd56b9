#!/usr/bin/env node
// CPU profile of the engine on one bench workload, summarised by self time.
//   node bench/profile.mjs [workload] [--ms=4000] [--top=25]
//   node bench/profile.mjs [workload] --alloc   (bytes allocated per call, by function)
//   node bench/profile.mjs --summarise=path/to.cpuprofile   (any profile, e.g. of dist/server.js)
// Workloads: node-typical, yaml-small, yaml-large, unit-large, envfile-8k, dropin-8k, yaml-8k, gitops-keystroke,
// workspace-keystroke, cli-stream, and any
// <dropin|envfile|yaml>-<N>k size of the scaling inputs.
// The engine is bundled like the bench bundle but not minified (readable names), and the
// profile samples are mapped back to server/src through the source map. Writes the raw
// profile next to the bundle (node_modules/.cache/kubelet-bench/<workload>.cpuprofile),
// which Chrome DevTools or VS Code can open. (Same data as `node --cpu-prof`, taken
// around the workload only, without the warm-up and bundling.)
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { SourceMap, createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBench } from './build.mjs';
import * as F from './fixtures.mjs';
import { streamText } from './cli-inputs.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith('--')) ?? 'node-typical';
const opt = (k, d) => Number(args.find((a) => a.startsWith(`--${k}=`))?.split('=')[1] ?? d);
const runMs = opt('ms', 4000);
const top = opt('top', 25);
const summariseArg = args.find((a) => a.startsWith('--summarise='));

const urlPath = (url) => (url.startsWith('file:') ? fileURLToPath(url) : url);
const maps = new Map();
/** The source map next to a bundle (`x.js.map`), if any. */
function mapOf(url) {
  if (!maps.has(url)) {
    let sm;
    try {
      const path = urlPath(url);
      if (path.startsWith('/') && existsSync(`${path}.map`)) sm = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {}
    maps.set(url, sm);
  }
  return maps.get(url);
}
/** Prints the top self-time and total-time functions of a CPU profile, mapped through the bundles' source maps. */
function summarise(profile, top) {
  // Self time per function (mapped to the TypeScript source).
  const total = profile.samples.length;
  const hits = new Map();
  for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
  const byFn = new Map();
  const byFile = new Map();
  const keyOf = new Map();
  for (const n of profile.nodes) {
    const h = hits.get(n.id) ?? 0;
    const cf = n.callFrame;
    let where = !cf.url ? '(native)' : cf.url.startsWith('file:') ? relative(ROOT, fileURLToPath(cf.url)) : cf.url.startsWith('/') ? relative(ROOT, cf.url) : cf.url;
    const sm = cf.url && cf.lineNumber >= 0 ? mapOf(cf.url) : undefined;
    if (sm) {
      const e = sm.findEntry(cf.lineNumber, cf.columnNumber);
      if (e?.originalSource) {
        const src = e.originalSource.startsWith('file:') ? fileURLToPath(e.originalSource) : join(dirname(urlPath(cf.url)), e.originalSource);
        where = `${relative(ROOT, src)}:${e.originalLine + 1}`;
      }
    }
    const key = `${cf.functionName || '(anonymous)'}  ${where}`;
    keyOf.set(n.id, key);
    if (!h) continue;
    byFn.set(key, (byFn.get(key) ?? 0) + h);
    const file = where.replace(/:\d+$/, '');
    byFile.set(file, (byFile.get(file) ?? 0) + h);
  }
  // Inclusive time: every function on a sample's stack (once per sample, recursion counted once).
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map();
  for (const sample of profile.samples) {
    const seen = new Set();
    for (let id = sample; id !== undefined; id = parent.get(id)) {
      const k = keyOf.get(id);
      if (k && !seen.has(k)) {
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + 1);
      }
    }
  }
  const pct = (h) => `${((100 * h) / total).toFixed(1).padStart(5)}%`;
  console.log('\ntop self time by function:');
  for (const [k, h] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(h)}  ${k}`);
  // Hottest source lines of the top self-time functions (V8's positionTicks).
  const lineTicks = new Map();
  for (const n of profile.nodes) {
    const k = keyOf.get(n.id);
    const sm = n.callFrame.url ? mapOf(n.callFrame.url) : undefined;
    if (!k || !sm || !n.positionTicks) continue;
    for (const t of n.positionTicks) {
      const e = sm.findEntry(t.line - 1, 0);
      if (!e?.originalSource) continue;
      const m = lineTicks.get(k) ?? new Map();
      const where = `${e.originalSource.split('/').slice(-2).join('/')}:${e.originalLine + 1}`;
      m.set(where, (m.get(where) ?? 0) + t.ticks);
      lineTicks.set(k, m);
    }
  }
  console.log('\nhottest lines of the top 6 functions (share of the function\'s self time):');
  for (const [k] of [...byFn].filter(([k]) => lineTicks.has(k)).sort((a, b) => b[1] - a[1]).slice(0, 6)) {
    const m = lineTicks.get(k);
    const sum = [...m.values()].reduce((a, b) => a + b, 0);
    console.log(`  ${k.split('  ')[0]}: ${[...m].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([w, t]) => `${w} ${((100 * t) / sum).toFixed(0)}%`).join(', ')}`);
  }
  console.log('\ntotal (inclusive) time by function, engine and yaml only:');
  for (const [k, h] of [...inclusive].filter(([k]) => /server\/src|node_modules\/yaml/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(h)}  ${k}`);
  console.log('\nself time by file:');
  for (const [k, h] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(h)}  ${k}`);
}

/** Where a call frame's code is, as `function  file:line` of the TypeScript source when a source map has it. */
function frameKey(cf) {
  let where = !cf.url ? '(native)' : cf.url.startsWith('file:') ? relative(ROOT, fileURLToPath(cf.url)) : cf.url.startsWith('/') ? relative(ROOT, cf.url) : cf.url;
  const sm = cf.url && cf.lineNumber >= 0 ? mapOf(cf.url) : undefined;
  const e = sm?.findEntry(cf.lineNumber, cf.columnNumber);
  if (e?.originalSource) {
    const src = e.originalSource.startsWith('file:') ? fileURLToPath(e.originalSource) : join(dirname(urlPath(cf.url)), e.originalSource);
    where = `${relative(ROOT, src)}:${e.originalLine + 1}`;
  }
  return `${cf.functionName || '(anonymous)'}  ${where}`;
}

/**
 * `--alloc`: bytes allocated per call by function (V8's sampling heap profiler, counting objects the
 * scavenger and mark-compact already freed), for the scaling steps, where what an analysis allocates
 * decides how often the young generation is scavenged.
 */
async function allocationProfile(fn) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  let calls = 0;
  const t1 = performance.now();
  while (performance.now() - t1 < runMs / 2) {
    fn();
    calls++;
  }
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const self = new Map();
  // A builtin (push, set, slice...) is named with its caller: "push (native)" alone says nothing.
  const walk = (n, caller) => {
    let k = frameKey(n.callFrame);
    if (!n.callFrame.url && caller) k += ` ← ${caller}`;
    self.set(k, (self.get(k) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, n.callFrame.url ? frameKey(n.callFrame) : caller);
  };
  walk(profile.head, undefined);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const kb = (b) => `${(b / calls / 1024).toFixed(0).padStart(7)} KB`;
  console.log(`workload ${name}: ${calls} calls; allocated ${(total / calls / 1048576).toFixed(2)} MB per call\n\nallocation per call by function:`);
  for (const [k, b] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${kb(b)}  ${k}`);
}

if (summariseArg) {
  // Summarise an existing profile, e.g. one of the language server taken with
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/run.mjs --only=lsp-keystroke
  summarise(JSON.parse(readFileSync(summariseArg.slice('--summarise='.length), 'utf8')), top);
  process.exit(0);
}

const bundle = await buildBench({ profile: true });
const E = createRequire(import.meta.url)(bundle);

/** shared/corpus-embedded/files in the nearest ancestor folder of the checkout. */
function corpusFiles() {
  for (let dir = ROOT; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'shared', 'corpus-embedded', 'MANIFEST.tsv'))) return join(dir, 'shared', 'corpus-embedded', 'files');
    if (dirname(dir) === dir) return undefined;
  }
}

const one = (path, text) => () => E.analyze([{ path, text }]);
const WORKLOADS = {
  'node-typical': () => { const files = F.typicalNode(); return () => E.analyze(files); },
  'yaml-small': () => one(F.PATHS.config, F.CONFIG_30),
  'yaml-large': () => one(F.PATHS.config, F.yamlConfig(10000)),
  'unit-large': () => one(F.PATHS.dropin, F.dropin(10000)),
  'envfile-8k': () => one(F.PATHS.defaultEnv, F.envFile(8000)),
  'dropin-8k': () => one(F.PATHS.dropin, F.dropin(8000)),
  'yaml-8k': () => one(F.PATHS.config, F.yamlConfig(8000)),
  // A keystroke in the 3,000-line GitOps stream of lsp-gitops, with the language server's parse cache (the text
  // alternates between two versions, so each call re-reads the edited document and reuses the others).
  'gitops-keystroke': () => {
    const dir = corpusFiles();
    if (!dir) throw new Error('shared/corpus-embedded is not beside the checkout');
    const g = F.gitopsStream(dir, 3000, { list: (d) => readdirSync(d).sort(), text: (f) => readFileSync(f, 'utf8') });
    const texts = [g.text, g.text.slice(0, g.at) + '\n      maxPods: 9' + g.text.slice(g.at)];
    const cache = new E.ParseCache();
    let i = 0;
    return () => E.analyze([{ path: 'clusters/prod/nodes.yaml', text: texts[i++ & 1] }], {}, cache);
  },
  // The CLI's analysis and fix check (bench/cli-child.mjs) over a YAML stream of 2,000 documents, a fix each.
  'cli-stream': () => {
    const files = [{ path: 'gitops/nodes.yaml', text: streamText(2000) }];
    return () => {
      const cache = new E.ParseCache();
      const analysis = E.analyze(files, {}, cache);
      cache.freeze();
      E.withSafeFixes(files, {}, analysis, (f, o) => E.analyze(f, o, cache));
    };
  },
  // A keystroke in node-0's config in a workspace of 100 typical nodes (lsp-workspace), with the parse cache.
  'workspace-keystroke': () => {
    const ws = F.workspaceNodes(100);
    const cfg = ws.find((f) => f.path === F.PATHS.config.replace(/^node\//, 'node-0/'));
    const others = ws.filter((f) => f !== cfg);
    const texts = [cfg.text, cfg.text.replace('maxPods: 100', 'maxPods: 101')];
    const cache = new E.ParseCache();
    let i = 0;
    return () => E.analyze([...others, { path: cfg.path, text: texts[i++ & 1] }], {}, cache);
  },
};
// Any size of the scaling inputs: dropin-2k, envfile-1k, yaml-4k, ... (to compare per-line costs across sizes).
const sized = /^(dropin|envfile|yaml)-(\d+)k$/.exec(name);
if (sized && !WORKLOADS[name]) {
  const [, kind, k] = sized;
  const lines = Number(k) * 1000;
  WORKLOADS[name] = () => (kind === 'dropin' ? one(F.PATHS.dropin, F.dropin(lines)) : kind === 'envfile' ? one(F.PATHS.defaultEnv, F.envFile(lines)) : one(F.PATHS.config, F.yamlConfig(lines)));
}
if (!WORKLOADS[name]) {
  console.error(`unknown workload ${name}; one of ${Object.keys(WORKLOADS).join(', ')}`);
  process.exit(2);
}
const fn = WORKLOADS[name]();
const t0 = performance.now();
while (performance.now() - t0 < Math.min(1500, runMs / 2)) fn(); // warm-up (JIT)

if (args.includes('--alloc')) {
  await allocationProfile(fn);
  process.exit(0);
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
let calls = 0;
const t1 = performance.now();
while (performance.now() - t1 < runMs) {
  fn();
  calls++;
}
const elapsed = performance.now() - t1;
const { profile } = await session.post('Profiler.stop');
session.disconnect();
const out = join(dirname(bundle), `${name}.cpuprofile`);
writeFileSync(out, JSON.stringify(profile));

console.log(`workload ${name}: ${calls} calls in ${elapsed.toFixed(0)} ms = ${(elapsed / calls).toFixed(3)} ms/call; ${profile.samples.length} samples; profile: ${relative(ROOT, out)}`);
summarise(profile, top);
