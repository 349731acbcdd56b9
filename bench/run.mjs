#!/usr/bin/env node
// The performance benchmark: `npm run bench [-- --json] [-- --only=name,name]`.
// Scenarios 1-5 run the engine bundled by bench/build.mjs, each in a process of its own (bench/engine-child.mjs);
// 6-9 use dist/server.js and dist/client.js (built by `npm run build`, which the npm script runs first).
// Prints a table; --json also writes bench/results.json. Exits 0 whether or not targets are met; non-zero only
// if the bench breaks.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBench } from './build.mjs';
import { stageTable } from './stages.mjs';
import { spawn } from 'node:child_process';
import { SHIPPED_ENV, SHIPPED_NODE_FLAGS } from './lsp-client.mjs';
import { cliScenarios } from './cli-scenarios.mjs';
import { bundleScenario, coldStartScenario, envfileLargeScenario, gitopsKeystrokeScenario, keystrokeScenario, memoryScenario, serverProblem, workspaceKeystrokeScenario } from './lsp-scenarios.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
// BENCH_SERVER: another server bundle to measure (default dist/server.js).
const SERVER = process.env.BENCH_SERVER ?? join(ROOT, 'dist', 'server.js');
const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;
const want = (name) => !only || only.has(name);
const cyclesArg = args.find((a) => a.startsWith('--cycles='));
const cycles = cyclesArg ? Number(cyclesArg.slice('--cycles='.length)) : 10000;

const t0 = performance.now();
const log = (m) => process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}\n`);

function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpu;
  } catch {}
  let load;
  try {
    load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {}
  const env = process.env.BENCH_SERVER_NODE_ARGS;
  const serverFlags = env === undefined ? SHIPPED_NODE_FLAGS : env.split(' ').filter((x) => x && x !== '-');
  const serverEnv = process.env.BENCH_SERVER_ENV === '-' ? {} : SHIPPED_ENV;
  return { cpu, cores: cpus().length, node: process.version, platform: `${process.platform} ${process.arch}`, loadavg_at_start: load, server_node_flags: serverFlags, server_env: serverEnv };
}

const fmt = (v) => (typeof v !== 'number' ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3));

function table(results, mach) {
  const rows = [['scenario', 'figure', 'value', 'target', 'ratio', 'pass']];
  for (const r of results) {
    if (r.skipped) {
      rows.push([r.scenario, 'skipped', r.skipped, '', '', 'SKIP']);
      continue;
    }
    for (const t of r.targets) rows.push([r.scenario, t.figure, `${fmt(t.value)} ${t.unit}`, `≤ ${t.limit} ${t.unit}`, fmt(t.ratio), t.pass ? 'pass' : 'FAIL']);
  }
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 2 || i === 4 ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ');
  const out = [
    `machine: ${mach.cpu}, ${mach.cores} cores, node ${mach.node}, ${mach.platform}${mach.loadavg_at_start ? `, load average ${mach.loadavg_at_start.join(' ')}` : ''}`,
    `language server node flags: ${mach.server_node_flags.join(' ') || '(none)'} (${process.env.BENCH_SERVER_NODE_ARGS !== undefined ? 'BENCH_SERVER_NODE_ARGS, not the shipped ones' : 'as the extension starts it'})`,
    `language server environment: ${Object.entries(mach.server_env).map(([k, v]) => `${k}=${v}`).join(' ') || '(nothing added)'} (${process.env.BENCH_SERVER_ENV === '-' ? 'BENCH_SERVER_ENV=-, not the shipped one' : 'as the extension starts it'})`,
    '',
    line(rows[0]),
    w.map((n) => '-'.repeat(n)).join('  '),
    ...rows.slice(1).map(line),
    '',
    'figures:',
  ];
  for (const r of results) {
    if (r.figures) out.push(`  ${r.scenario}: ${Object.entries(r.figures).map(([k, v]) => `${k}=${fmt(v)}`).join(' ')}`);
  }
  const stages = results.find((r) => r.stages);
  if (stages) out.push('', 'per-stage split (µs per call, share; bench/stages.mjs):', stageTable(stages.stages));
  return out.join('\n');
}

/** One engine scenario, run by bench/engine-child.mjs in a process of its own. */
function engineScenarioApart(bundle, name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(HERE, 'engine-child.mjs'), bundle, name], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(out));
      } catch {
        resolve([{ scenario: name, skipped: `the scenario's process failed (exit code ${code})` }]);
      }
    });
  });
}

async function main() {
  const mach = machine();
  const results = [];
  const engineNames = ['node-typical', 'yaml-small-vs-peers', 'yaml-large', 'unit-large', 'scaling', 'stages'];
  if (engineNames.some(want)) {
    log('bundling the bench entry (bench/build.mjs)');
    let bundle;
    try {
      bundle = await buildBench();
    } catch (e) {
      log(`bundling failed: ${e?.message ?? e}`);
      for (const n of engineNames.filter(want)) results.push({ scenario: n, skipped: `the engine does not bundle: ${String(e?.message ?? e).split('\n')[0]}` });
    }
    if (bundle) for (const name of engineNames.filter(want)) for (const r of await engineScenarioApart(bundle, name)) results.push(r);
  }
  const cliNames = ['cli-fleet', 'cli-stream', 'cli-cloud-init', 'cli-cloud-init-dropins', 'cli-ignition'];
  if (cliNames.some(want)) {
    log('bundling the bench entry for the CLI scenarios (bench/build.mjs)');
    try {
      for (const r of await cliScenarios(await buildBench(), log, want)) results.push(r);
    } catch (e) {
      log(`CLI scenarios failed: ${e?.stack ?? e}`);
      for (const n of cliNames.filter(want)) results.push({ scenario: n, skipped: `failed: ${String(e?.message ?? e).split('\n')[0]}` });
    }
  }
  const lspNames = ['lsp-keystroke', 'lsp-gitops', 'lsp-workspace', 'lsp-envfile-large', 'cold-start', 'memory'];
  if (lspNames.some(want)) {
    log('checking dist/server.js');
    const problem = await serverProblem(SERVER);
    if (problem) log(`language server unusable: ${problem}`);
    const run = async (name, fn) => {
      if (!want(name)) return;
      if (problem) return results.push({ scenario: name, skipped: problem });
      try {
        results.push(await fn());
      } catch (e) {
        // The server breaking mid-scenario is a finding about the server, not a broken bench.
        results.push({ scenario: name, skipped: `the server failed: ${e.message.split('\n')[0]}` });
      }
    };
    await run('lsp-keystroke', () => keystrokeScenario(SERVER, log));
    await run('lsp-gitops', () => gitopsKeystrokeScenario(SERVER, log));
    await run('lsp-workspace', () => workspaceKeystrokeScenario(SERVER, log));
    await run('lsp-envfile-large', () => envfileLargeScenario(SERVER, log));
    await run('cold-start', () => coldStartScenario(SERVER, log));
    if (want('bundle')) results.push(bundleScenario(ROOT));
    await run('memory', () => memoryScenario(SERVER, log, { cycles }));
  } else if (want('bundle')) results.push(bundleScenario(ROOT));

  const seconds = (performance.now() - t0) / 1000;
  log(`done in ${seconds.toFixed(1)} s`);
  const targets = results.flatMap((r) => (r.targets ?? []).map((t) => ({ scenario: r.scenario, ...t })));
  const summary = { targets: targets.length, passed: targets.filter((t) => t.pass).length, failed: targets.filter((t) => !t.pass).length, skipped: results.filter((r) => r.skipped).map((r) => r.scenario) };
  console.log(table(results, mach));
  console.log(`\n${summary.passed}/${summary.targets} targets met${summary.skipped.length ? `, skipped: ${summary.skipped.join(', ')}` : ''}; bench took ${seconds.toFixed(1)} s`);
  if (json) {
    const file = join(HERE, 'results.json');
    const doc = { date: new Date().toISOString(), machine: mach, duration_s: seconds, summary, scenarios: results, pass: Object.fromEntries(targets.map((t) => [`${t.scenario}: ${t.figure}`, t.pass])) };
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}

main().catch((e) => {
  console.error(`bench failed: ${e?.stack ?? e}`);
  process.exit(2);
});
