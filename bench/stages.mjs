// Where an analysis spends its time, by pipeline stage (issue 29): a CPU profile of the workload (V8's sampling
// profiler through the inspector), each sample given to the innermost stage on its stack. A frame's stage is the
// stage of its TypeScript source file (through the bundle's source map), so minified bundles are read as well as
// readable ones; files that belong to no stage (engine.ts, catalog/, quantity/, model/ helpers) count for the stage
// that called them, and samples under no stage at all are the engine's own work (grouping results, suppressions,
// severities, dedupe: "engine").
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { Session } from 'node:inspector/promises';
import { median, perCall } from './stats.mjs';

export const STAGES = ['detection', 'parse', 'node build', 'rules', 'allocatable', 'findings to LSP', 'engine', 'gc'];

/** The stage a source file belongs to, or undefined when it is a helper of whichever stage calls it. */
function stageOfFile(src) {
  if (/server\/src\/registry\.ts$/.test(src)) return 'detection';
  if (/server\/src\/node\/parse-files\.ts$/.test(src)) return 'parse';
  if (/server\/src\/(rules|platforms\/[^/]+\/rules)\//.test(src) || /server\/src\/platforms\/[^/]+\/rule[^/]*\.ts$/.test(src)) return 'rules';
  if (/server\/src\/node\/allocatable\.ts$/.test(src)) return 'allocatable';
  if (/server\/src\/features\/diagnostics\.ts$/.test(src)) return 'findings to LSP';
  if (/server\/src\/node\/(build|group|runtimes|modelines|read|command-line|effective)\.ts$/.test(src)) return 'node build';
  return undefined;
}

function fileOf(bundle) {
  const sm = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));
  const memo = new Map();
  return (cf) => {
    const key = `${cf.url}:${cf.lineNumber}:${cf.columnNumber}`;
    if (!memo.has(key)) memo.set(key, cf.url && cf.lineNumber >= 0 ? sm.findEntry(cf.lineNumber, cf.columnNumber)?.originalSource ?? cf.url : cf.url || cf.functionName);
    return memo.get(key);
  };
}

/** Shares of each stage (0..1) in a CPU profile of the bundle `bundle` (which must have its `.map` beside it). */
export function stageShares(profile, bundle) {
  const file = fileOf(bundle);
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stageOfNode = new Map();
  const stageOf = (id) => {
    if (stageOfNode.has(id)) return stageOfNode.get(id);
    const n = byId.get(id);
    let s;
    if (n.callFrame.functionName === '(garbage collector)') s = 'gc';
    else if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') s = null;
    else s = stageOfFile(file(n.callFrame) ?? '') ?? (parent.has(id) ? stageOf(parent.get(id)) : 'engine');
    stageOfNode.set(id, s);
    return s;
  };
  const counts = Object.fromEntries(STAGES.map((s) => [s, 0]));
  let total = 0;
  for (const id of profile.samples) {
    const s = stageOf(id);
    if (s === null) continue;
    counts[s]++;
    total++;
  }
  return Object.fromEntries(STAGES.map((s) => [s, total ? counts[s] / total : 0]));
}

/**
 * The time one call of `fn` takes, split by stage (µs): the median of plain timed calls gives the scale, a CPU profile
 * of `ms` milliseconds of calls the shares (a sampling profiler slows calls down, but the stages alike).
 */
export async function stageSplit(fn, bundle, { ms = 1500, warmMs = 2000 } = {}) {
  // Warm (the JIT, the young generation), then as many timed calls as fit in about `ms`.
  const t = median(perCall(fn, { runs: 5, warmMs })) / 1e6;
  const us = median(perCall(fn, { runs: Math.max(20, Math.min(1000, Math.round(ms / t))), warmMs: 0 })) / 1e3;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  while (performance.now() - t0 < ms) fn();
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const shares = stageShares(profile, bundle);
  return { us, split: Object.fromEntries(STAGES.map((s) => [s, shares[s] * us])) };
}

/** The per-stage table the bench prints: one row per workload, µs per stage and its share. */
export function stageTable(rows) {
  const head = ['workload', 'µs/call', ...STAGES];
  const cell = (us, total) => `${us >= 100 ? us.toFixed(0) : us.toFixed(1)} (${((100 * us) / (total || 1)).toFixed(0)}%)`;
  const body = rows.map((r) => [r.workload, r.us >= 100 ? r.us.toFixed(0) : r.us.toFixed(1), ...STAGES.map((s) => cell(r.split[s], r.us))]);
  const all = [head, ...body];
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ')).join('\n');
}
