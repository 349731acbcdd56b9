// One engine scenario in a process of its own (bench/run.mjs starts one per scenario): no scenario inherits the heap,
// young-generation size or compiled code of another. After yaml-large, the 8k scaling samples of the same process
// paid a scavenge each that they did not pay alone (kubelet-config 4k→8k 2.7-2.8× instead of 2.0×, --trace-gc).
// Usage: node bench/engine-child.mjs <bundle> <scenario>; prints the scenario's results as JSON on stdout.
import { engineScenarios } from './engine-scenarios.mjs';

const [bundle, name] = process.argv.slice(2);
const t0 = performance.now();
const log = (m) => process.stderr.write(`[bench ${name} ${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}\n`);
const results = await engineScenarios(bundle, log, (n) => n === name);
process.stdout.write(JSON.stringify(results));
