// The CLI scenarios (issues #28, #29): `kubelet-lint --format json` over generated inputs, each run in a process of
// its own (bench/cli-child.mjs: the stages of server/src/cli/main.ts with the bench bundle), wall time, CPU time and
// peak RSS. Inputs (bench/cli-inputs.mjs): kubeadm fleets of 100, 300, 1,000 and 5,000 nodes (a fixable mistake in
// every node, a second one in every tenth), a YAML stream of 20,000 documents and a cloud-config writing 10,000
// configs (a fix each), and a cloud-config writing 10,000 drop-ins of one node (no fix).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bigConfig, cloudInitDropinsText, cloudInitText, ignitionText, manyFindingsConfig, streamText, writeFleet, writeText } from './cli-inputs.mjs';
import { target } from './engine-scenarios.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const FLEETS = [100, 300, 1000, 5000];

function runChild(bundle, dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(HERE, 'cli-child.mjs'), bundle, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`the CLI run failed (exit code ${code})`));
      }
    });
  });
}

const round = (x) => Math.round(x * 10) / 10;
const figures = (r) => ({ wall_ms: round(r.wall_ms), cpu_ms: round(r.cpu_ms), max_rss_mb: round(r.max_rss_mb), files: r.files, findings: r.findings, fixes_offered: r.fixes_offered, fixes_kept: r.fixes_kept, fix_check_analyses: r.fix_check_analyses, ...Object.fromEntries(Object.entries(r.stages_ms).map(([k, v]) => [`${k}_ms`, round(v)])) });

export async function cliScenarios(bundle, log, want = () => true) {
  const out = [];
  const root = mkdtempSync(join(tmpdir(), 'kubelet-bench-cli-'));
  try {
    if (want('cli-fleet')) {
      const runs = [];
      for (const n of FLEETS) {
        const dir = join(root, `fleet-${n}`);
        log(`cli-fleet: ${n} nodes`);
        writeFleet(dir, n);
        runs.push([n, await runChild(bundle, dir)]);
        rmSync(dir, { recursive: true, force: true });
      }
      const [n0, first] = runs[0];
      const [n1, last] = runs.at(-1);
      // Linear: the CPU time per node at 5,000 nodes against 100 (which also pays the start-up, so this is lenient).
      const perNode = (r, n) => r.cpu_ms / n;
      out.push({
        scenario: 'cli-fleet',
        figures: Object.fromEntries(runs.flatMap(([n, r]) => Object.entries(figures(r)).map(([k, v]) => [`n${n}_${k}`, v]))),
        targets: [
          target(`${n1} nodes, wall`, last.wall_ms / 1000, 10, 's'),
          target(`${n1} nodes, peak RSS`, last.max_rss_mb, 1024, 'MB'),
          target(`CPU per node, ${n1} / ${n0} nodes`, perNode(last, n1) / perNode(first, n0), 1.5, '×'),
        ],
      });
    }
    const single = async (name, text, file, limits) => {
      if (!want(name)) return;
      log(name);
      const dir = join(root, name);
      writeText(join(dir, file), text);
      const r = await runChild(bundle, dir);
      rmSync(dir, { recursive: true, force: true });
      out.push({ scenario: name, figures: figures(r), targets: limits ? [target('wall', r.wall_ms / 1000, limits.s, 's'), target('peak RSS', r.max_rss_mb, limits.mb, 'MB')] : [] });
    };
    await single('cli-stream', streamText(20_000), 'gitops/nodes.yaml', { s: 5, mb: 500 });
    await single('cli-cloud-init', cloudInitText(10_000), 'user-data.yaml', { s: 5, mb: 500 });
    await single('cli-cloud-init-dropins', cloudInitDropinsText(10_000), 'user-data.yaml');
    if (want('cli-ignition')) {
      // Issue #28 point 2: an Ignition data: URL costs about what the same config costs as a plain file.
      const run = async (name, file, text) => {
        const dir = join(root, name);
        writeText(join(dir, file), text);
        const r = await runChild(bundle, dir);
        rmSync(dir, { recursive: true, force: true });
        return r;
      };
      log('cli-ignition');
      const config = bigConfig(5.5);
      const plain = await run('ign-plain', 'var/lib/kubelet/config.yaml', config);
      const b64 = await run('ign-b64', 'node.ign', ignitionText(config, true));
      const pct = await run('ign-pct', 'node.ign', ignitionText(bigConfig(2), false));
      const many = manyFindingsConfig(48_000);
      const manyPlain = await run('ign-many-plain', 'var/lib/kubelet/config.yaml', many);
      const manyB64 = await run('ign-many-b64', 'node.ign', ignitionText(many, true));
      out.push({
        scenario: 'cli-ignition',
        figures: {
          config_mib: round(config.length / 1048576),
          plain_rss_mb: round(plain.max_rss_mb),
          base64_rss_mb: round(b64.max_rss_mb),
          percent_2mib_rss_mb: round(pct.max_rss_mb),
          plain_cpu_ms: round(plain.cpu_ms),
          base64_cpu_ms: round(b64.cpu_ms),
          findings_48k_plain_ms: round(manyPlain.wall_ms),
          findings_48k_base64_ms: round(manyB64.wall_ms),
          findings_48k: manyB64.findings,
        },
        targets: [
          target('5.5 MiB base64 data URL / plain file, peak RSS', b64.max_rss_mb / plain.max_rss_mb, 3, '×'),
          target('48,000 findings in one data URL / plain file, CPU', manyB64.cpu_ms / manyPlain.cpu_ms, 3, '×'),
        ],
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return out;
}
