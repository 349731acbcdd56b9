// One CLI run over a generated input, in a process of its own (bench/cli-scenarios.mjs): the stages of
// server/src/cli/main.ts (walk, analyze, fix check, JSON output) timed one by one, then the process's CPU time and
// peak RSS. Prints one JSON object.
import { createRequire } from 'node:module';

const [bundle, dir] = process.argv.slice(2);
const E = createRequire(import.meta.url)(bundle);
const t0 = performance.now();
const stages = {};
let t = t0;
const lap = (name) => {
  const now = performance.now();
  stages[name] = now - t;
  t = now;
};
const { files } = E.walk([dir]);
lap('walk');
// As server/src/cli/main.ts: one parse cache for the analysis and the fix check's analyses of the fixed texts.
const cache = new E.ParseCache();
const analysis = E.analyze(files, {}, cache);
cache.freeze();
lap('analyze');
let analyses = 0;
const checked = E.withSafeFixes(files, {}, analysis, (f, o) => (analyses++, E.analyze(f, o, cache)));
cache.retain(new Set()); // as server/src/cli/main.ts
lap('fix_check');
// As server/src/cli/main.ts: the report made a part at a time, in blocks of about 64 KiB (counted, not printed).
let outputBytes = 0;
let block = '';
for (const chunk of E.jsonChunks(checked)) {
  block += chunk;
  if (block.length >= 65536) {
    outputBytes += block.length;
    block = '';
  }
}
outputBytes += block.length + 1;
lap('output');
const u = process.resourceUsage();
const fixes = checked.findings.reduce((n, f) => n + (f.fixes?.length ?? 0), 0);
const offered = analysis.findings.reduce((n, f) => n + (f.fixes?.length ?? 0), 0);
console.log(JSON.stringify({ files: files.length, findings: checked.findings.length, fixes_offered: offered, fixes_kept: fixes, fix_check_analyses: analyses, output_bytes: outputBytes, wall_ms: performance.now() - t0, cpu_ms: (u.userCPUTime + u.systemCPUTime) / 1000, max_rss_mb: u.maxRSS / 1024, stages_ms: stages }));
