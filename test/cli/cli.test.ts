// CLI contract tests: they run the built bundle (dist/cli.js, built by `npm run build`,
// which `npm test` does first) as a child process, the way a user or CI job would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { sarifValidator } from '../helpers/sarif.ts';

const repoRoot = resolve(__dirname, '..', '..');
const cli = join(repoRoot, 'dist', 'cli.js');

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

function run(args: string[], opts: { cwd?: string; timeout?: number } = {}): Run {
  assert.ok(existsSync(cli), `${cli} is missing: run "npm run build" first`);
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  const r: SpawnSyncReturns<string> = spawnSync(process.execPath, [cli, ...args], {
    cwd: opts.cwd ?? repoRoot,
    encoding: 'utf8',
    env,
    timeout: opts.timeout ?? 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

function json(args: string[], opts?: { cwd?: string; timeout?: number }): { r: Run; out: JsonReport } {
  const r = run(['--format', 'json', ...args], opts);
  assert.equal(r.error, undefined, `spawn failed or timed out: ${r.error?.message}`);
  let out: JsonReport;
  try {
    out = JSON.parse(r.stdout) as JsonReport;
  } catch (e) {
    assert.fail(`stdout is not JSON (${(e as Error).message}): ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 500)}`);
  }
  return { r, out };
}

interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  code: string;
  message: string;
}
interface JsonNode {
  files: string[];
  complete?: boolean;
  links?: { what: string; reference: string; from: string; to: string; by: string }[];
  capacity?: Record<string, number>;
  reserved: Record<string, number>;
  allocatable?: Record<string, number>;
}
interface JsonReport {
  diagnostics: JsonDiagnostic[];
  nodes: JsonNode[];
}

/** A temp dir with the given files (path -> contents); removed by the returned cleanup. */
function workspace(files: Record<string, string | Buffer>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-lint-cli-'));
  for (const [p, text] of Object.entries(files)) {
    const full = join(dir, p);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint']);
const SEED_UNIT = 'examples/seed-node/usr/lib/systemd/system/kubelet.service';
const DOCS_ALLOCATABLE = { cpu: 14500, memory: 30614224896, 'ephemeral-storage': 94489280352, pods: 110 };
// A unit whose only mistake (a flag removed in 1.15) is an error for the 1.37 kubelet its modeline states.
const BROKEN_UNIT = '[Service]\nExecStart=/usr/bin/kubelet --allow-privileged=true\n# kubelet-lint: kubernetes-version 1.37\n';

// ---------------------------------------------------------------- exit codes and usage

test('exit 0 on a clean folder (examples/docs-example)', () => {
  const r = run(['examples/docs-example']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('exit 1 on examples/ (it contains error-level findings)', () => {
  const { r, out } = json(['examples']);
  assert.equal(r.status, 1, r.stderr);
  assert.ok(out.diagnostics.some((d) => d.severity === 'error'));
  assert.equal(run(['examples']).status, 1, 'text format exits 1 as well');
});

test('exit 2 on a missing path, and stderr names the path', () => {
  const r = run(['examples/does-not-exist']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /examples\/does-not-exist/);
  assert.equal(r.stdout, '');
  const mixed = run(['examples/docs-example', 'no/such/file.yaml']);
  assert.equal(mixed.status, 2, 'one missing path among valid ones is still exit 2');
  assert.match(mixed.stderr, /no\/such\/file\.yaml/);
});

test('exit 2 on an unreadable path (stderr names it)', { skip: process.getuid?.() === 0 ? 'running as root: every file is readable' : false }, () => {
  const ws = workspace({ 'secret/kubelet.service': BROKEN_UNIT });
  try {
    const { chmodSync } = require('node:fs') as typeof import('node:fs');
    chmodSync(join(ws.dir, 'secret'), 0o000);
    const r = run([join(ws.dir, 'secret')]);
    chmodSync(join(ws.dir, 'secret'), 0o755);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /secret/);
  } finally {
    ws.cleanup();
  }
});

test('exit 2 on usage errors: unknown option, bad --format, bad --capacity, bad --kubernetes-version, missing values or PATH', () => {
  const cases: [string[], RegExp][] = [
    [['--bogus', 'examples/docs-example'], /--bogus/],
    [['-x', 'examples/docs-example'], /-x/],
    [['--format', 'xml', 'examples/docs-example'], /--format/],
    [['--format=yaml', 'examples/docs-example'], /--format/],
    [['examples/docs-example', '--format'], /--format/],
    [['--capacity', 'cpu=abc', 'examples/docs-example'], /--capacity/],
    [['--capacity', 'gpus=4', 'examples/docs-example'], /--capacity/],
    [['--capacity=16', 'examples/docs-example'], /--capacity/],
    [['examples/docs-example', '--capacity'], /--capacity/],
    [['--kubernetes-version', '2.0', 'examples/docs-example'], /--kubernetes-version/],
    [['--kubernetes-version', 'latest', 'examples/docs-example'], /--kubernetes-version/],
    [['--kubernetes-version=1', 'examples/docs-example'], /--kubernetes-version/],
    [['--rule', 'nonsense', 'examples/docs-example'], /--rule/],
    [[], /PATH/],
  ];
  for (const [args, stderr] of cases) {
    const r = run(args);
    assert.equal(r.status, 2, `kubelet-lint ${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, stderr, `kubelet-lint ${args.join(' ')}`);
    assert.match(r.stderr, /Usage: kubelet-lint/, 'usage errors print the usage');
    assert.equal(r.stdout, '', `kubelet-lint ${args.join(' ')} writes nothing to stdout`);
  }
});

test('--help and -h exit 0 and print the usage on stdout', () => {
  for (const flag of ['--help', '-h']) {
    const r = run([flag]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^Usage: kubelet-lint \[options\] PATH\.\.\./);
    for (const opt of ['--format', '--capacity', '--kubernetes-version', '--color']) assert.ok(r.stdout.includes(opt), `${flag} mentions ${opt}`);
    assert.equal(r.stderr, '');
  }
});

test('--version exits 0 and prints the package version', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const r = run(['--version']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^kubelet-lint \d+\.\d+\.\d+/);
  assert.ok(r.stdout.startsWith(`kubelet-lint ${pkg.version}`), r.stdout);
});

test('--kubernetes-version accepts 1.31, v1.31 and 1.31.2', () => {
  for (const v of ['1.31', 'v1.31', '1.31.2']) {
    const { r, out } = json(['--kubernetes-version', v, 'examples/docs-example']);
    assert.equal(r.status, 0, `${v}: ${r.stderr}`);
    assert.equal((out.nodes[0] as unknown as { kubernetesVersion: string }).kubernetesVersion, '1.31');
  }
});

test('--systemd-version 252 reads env files as systemd before 254 (a comment ending in \\ swallows the next line)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-lint-sd-'));
  try {
    mkdirSync(join(dir, 'etc/default'), { recursive: true });
    writeFileSync(join(dir, 'kubelet.service'), '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n');
    writeFileSync(join(dir, 'etc/default/kubelet'), '# flags \\\nKUBELET_EXTRA_ARGS=--max-pods=60 --cgroup-driver=nonsense\n');
    const invalid = (args: string[]) => json([...args, dir]).out.diagnostics.filter((d) => d.code === 'cgroup-driver-invalid').length;
    assert.equal(invalid([]), 1, 'the newest systemd reads the flag');
    assert.equal(invalid(['--systemd-version', '252']), 0, 'systemd 252 never sees it');
    assert.equal(run(['--systemd-version', 'old', dir]).status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- JSON format

test('--format json: one object, every diagnostic has exactly the documented keys with the right types', () => {
  const { out } = json(['examples']);
  assert.deepEqual(Object.keys(out).sort(), ['diagnostics', 'files', 'nodes']);
  assert.ok(Array.isArray(out.diagnostics) && out.diagnostics.length > 0);
  const required = ['file', 'line', 'column', 'endLine', 'endColumn', 'severity', 'code', 'message'];
  for (const d of out.diagnostics) {
    const where = JSON.stringify(d);
    for (const k of required) assert.ok(k in d, `${k} missing in ${where}`);
    // "fixes" is an optional extra; nothing else.
    for (const k of Object.keys(d)) assert.ok(required.includes(k) || k === 'fixes', `unexpected key ${k} in ${where}`);
    for (const k of ['file', 'severity', 'code', 'message'] as const) assert.equal(typeof d[k], 'string', `${k} in ${where}`);
    for (const k of ['line', 'column', 'endLine', 'endColumn'] as const) {
      assert.ok(Number.isInteger(d[k]) && d[k] >= 1, `${k} is a 1-based integer in ${where}`);
    }
    assert.ok(d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column), `end not before start in ${where}`);
    assert.ok(SEVERITIES.has(d.severity), `severity in ${where}`);
    assert.ok(d.code.length > 0 && d.message.length > 0, where);
    assert.ok(!isAbsolute(d.file) && d.file.startsWith('examples/'), `file as walked in ${where}`);
    assert.ok(existsSync(join(repoRoot, d.file)), `file exists: ${where}`);
  }
  assert.ok(Array.isArray(out.nodes) && out.nodes.length >= 3, 'one node per kubelet (3 examples)');
  for (const n of out.nodes) {
    assert.ok(Array.isArray(n.files) && n.files.every((f) => typeof f === 'string'));
    assert.equal(typeof n.reserved, 'object');
  }
});

test('--format json: line/column are 1-based (seed node Restart=always at 20:2, unit-continuation-swallows-directive)', () => {
  const { out } = json(['examples/seed-node']);
  const d = out.diagnostics.find((x) => x.code === 'unit-continuation-swallows-directive');
  assert.ok(d, 'finding present');
  assert.equal(d.file, SEED_UNIT);
  assert.equal(d.line, 20);
  assert.equal(d.column, 2);
  assert.equal(d.severity, 'error');
  // The reported range covers "Restart=always" on that line.
  const text = readFileSync(join(repoRoot, SEED_UNIT), 'utf8').split('\n')[d.line - 1];
  assert.equal(text.slice(d.column - 1, d.column - 1 + 'Restart'.length), 'Restart');
});

test('--format json: file is relative as walked for a relative argument, absolute for an absolute one', () => {
  const rel = json(['examples/seed-node']).out;
  assert.ok(rel.diagnostics.length > 0);
  for (const d of rel.diagnostics) assert.ok(d.file.startsWith('examples/seed-node/'), d.file);
  for (const f of rel.nodes[0].files) assert.ok(f.startsWith('examples/seed-node/'), f);

  const dotted = json(['./examples/seed-node']).out;
  for (const d of dotted.diagnostics) assert.ok(d.file.startsWith('examples/seed-node/'), `leading ./ is dropped: ${d.file}`);

  const fromOther = json(['seed-node'], { cwd: join(repoRoot, 'examples') }).out;
  for (const d of fromOther.diagnostics) assert.ok(d.file.startsWith('seed-node/'), `relative to the cwd: ${d.file}`);

  const absArg = join(repoRoot, 'examples', 'seed-node');
  const abs = json([absArg]).out;
  assert.equal(abs.diagnostics.length, rel.diagnostics.length);
  for (const d of abs.diagnostics) assert.ok(isAbsolute(d.file) && d.file.startsWith(absArg + '/'), d.file);
  assert.ok(abs.diagnostics.some((d) => d.file === join(repoRoot, SEED_UNIT)));
});

// ---------------------------------------------------------------- allocatable

test('docs example: allocatable is exactly {cpu 14500, memory 30614224896, ephemeral-storage 94489280352, pods 110} from its modeline', () => {
  const { r, out } = json(['examples/docs-example']);
  assert.equal(r.status, 0);
  assert.equal(out.nodes.length, 1);
  assert.deepEqual(out.nodes[0].allocatable, DOCS_ALLOCATABLE);
  for (const v of Object.values(out.nodes[0].allocatable!)) assert.ok(Number.isInteger(v));
  assert.deepEqual(out.nodes[0].capacity, { cpu: 16000, memory: 32 * 2 ** 30, 'ephemeral-storage': 100 * 2 ** 30, pods: 110 });
});

test('docs example without its modeline: --capacity gives the same allocatable; no capacity means no allocatable key', () => {
  const original = readFileSync(join(repoRoot, 'examples/docs-example/kubelet-config.yaml'), 'utf8');
  const stripped = original
    .split('\n')
    .filter((l) => !l.includes('kubelet-lint: capacity'))
    .join('\n');
  assert.notEqual(stripped, original);
  const ws = workspace({ 'kubelet-config.yaml': stripped });
  try {
    const withCap = json(['--capacity', 'cpu=16,memory=32Gi,ephemeral-storage=100Gi', ws.dir]);
    assert.equal(withCap.r.status, 0, withCap.r.stderr);
    assert.deepEqual(withCap.out.nodes[0].allocatable, DOCS_ALLOCATABLE);
    const inline = json(['--capacity=cpu=16,memory=32Gi,ephemeral-storage=100Gi,pods=110', ws.dir]);
    assert.deepEqual(inline.out.nodes[0].allocatable, DOCS_ALLOCATABLE);

    const noCap = json([ws.dir]);
    assert.equal(noCap.r.status, 0);
    assert.equal(noCap.out.nodes.length, 1);
    assert.ok(!('allocatable' in noCap.out.nodes[0]), JSON.stringify(noCap.out.nodes[0]));
    assert.ok(!('capacity' in noCap.out.nodes[0]));
  } finally {
    ws.cleanup();
  }
});

test('seed node: allocatable is kubelet-exact for its modeline capacity (cpu=32, memory=128Gi, ephemeral-storage=500Gi)', () => {
  // Worked by hand from examples/seed-node:
  //  - capacity comes from the modeline on line 4 of kubelet.service;
  //  - ExecStart carries --kube-reserved=cpu=2,memory=8Gi and --system-reserved=cpu=6,memory=24Gi
  //    (no ephemeral-storage reservation), and no --config / --eviction-hard, so the kubelet's
  //    default hard eviction applies: memory.available<100Mi, nodefs.available<10%;
  //  - allocatable = capacity - kube-reserved - system-reserved - hard eviction threshold (cpu has none);
  //  - a percentage threshold is float32 in the kubelet (evictionapi.ThresholdValue.Percentage) and
  //    is applied as int64(float64(capacity) * float64(float32(0.1))). float32(0.1) is exactly
  //    13421773 / 2^27 (0.100000001490116...), so 10% of 500Gi is 500*2^30*13421773/2^27 =
  //    4000*13421773 = 53687092000 bytes, 800 bytes more than a decimal 10%;
  //  - pods: maxPods defaults to 110, and the kubelet reports pods capacity = allocatable = maxPods.
  const Gi = 1n << 30n;
  const Mi = 1n << 20n;
  const cpuMilli = 32n * 1000n - 2n * 1000n - 6n * 1000n; // 24000
  const memory = 128n * Gi - 8n * Gi - 24n * Gi - 100n * Mi; // 96Gi - 100Mi
  const storageCap = 500n * Gi;
  const float32TenthNum = 13421773n; // float32(0.1) * 2^27
  assert.equal((storageCap * float32TenthNum) % (1n << 27n), 0n, 'the float64 product is exact here');
  const nodefsEviction = (storageCap * float32TenthNum) / (1n << 27n); // 53687092000
  const storage = storageCap - nodefsEviction;
  const expected = { cpu: Number(cpuMilli), memory: Number(memory), 'ephemeral-storage': Number(storage), pods: 110 };
  assert.deepEqual(expected, { cpu: 24000, memory: 102974357504, 'ephemeral-storage': 483183820000, pods: 110 });

  const { out } = json(['examples/seed-node']);
  assert.equal(out.nodes.length, 1);
  const node = out.nodes[0];
  assert.deepEqual(node.files.slice().sort(), [
    'examples/seed-node/etc/systemd/system/kubelet.service.d/10-kubelet.conf',
    SEED_UNIT,
  ]);
  assert.deepEqual(node.capacity, { cpu: 32000, memory: Number(128n * Gi), 'ephemeral-storage': Number(storageCap), pods: 110 });
  assert.deepEqual(node.allocatable, expected);
  assert.deepEqual(node.reserved, {
    cpu: 8000,
    memory: Number(8n * Gi + 24n * Gi + 100n * Mi),
    'ephemeral-storage': Number(nodefsEviction),
  });
});

// ---------------------------------------------------------------- text format

const ANSI = /\x1b\[[0-9;]*m/;

const SUMMARY = /^\d+ errors?, \d+ warnings?, \d+ info, \d+ hints?( \(shown with --hints\))? in \d+ files?; \d+ nodes?$/;

test('text format (--hints): findings grouped by file (path line first), allocatable table per node, summary line last', () => {
  const r = run(['--hints', 'examples']);
  assert.equal(r.status, 1);
  const { out } = json(['examples']);
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  const files = new Set(out.diagnostics.map((d) => d.file));
  // Rebuild (file, line:col, code) from the text and compare with the JSON findings.
  const seen: string[] = [];
  const headers: string[] = [];
  let current: string | undefined;
  for (const l of lines) {
    if (files.has(l)) {
      assert.ok(!headers.includes(l), `${l} has one group, not several`);
      headers.push(l);
      current = l;
      continue;
    }
    const m = /^ {2}(\d+):(\d+)\s+(error|warning|information|hint)\s+.*\[([a-z0-9-]+)\]$/.exec(l);
    if (m) {
      assert.ok(current, `finding before any file line: ${l}`);
      seen.push(`${current} ${m[1]}:${m[2]} ${m[3]} ${m[4]}`);
    } else if (!l.startsWith('  ')) current = undefined;
  }
  const expected = out.diagnostics.map((d) => `${d.file} ${d.line}:${d.column} ${d.severity} ${d.code}`);
  assert.deepEqual(seen.slice().sort(), expected.slice().sort());
  assert.deepEqual(headers.slice().sort(), [...files].sort());
  assert.ok(seen.includes(`${SEED_UNIT} 20:2 error unit-continuation-swallows-directive`));

  const nodeLines = lines.filter((l) => /^Node \S/.test(l));
  assert.equal(nodeLines.length, out.nodes.length, 'one table per node');
  const headerRows = lines.filter((l) => /^\s+resource\s+capacity\s+kube-reserved\s+system-reserved\s+eviction-hard\s+allocatable$/.test(l));
  assert.equal(headerRows.length, out.nodes.length);
  // Tables come after all file groups.
  const firstNode = lines.findIndex((l) => /^Node \S/.test(l));
  for (const h of headers) assert.ok(lines.indexOf(h) < firstNode);

  const last = lines[lines.length - 1];
  assert.match(last, SUMMARY);
  const errors = out.diagnostics.filter((d) => d.severity === 'error').length;
  assert.ok(last.startsWith(`${errors} error`), last);
});

test('text format without --hints: hint-level findings are counted in the summary but not listed', () => {
  const { out } = json(['examples/seed-node']);
  const hints = out.diagnostics.filter((d) => d.severity === 'hint');
  assert.ok(hints.length > 0, 'the seed node has deprecated flags');
  const r = run(['examples/seed-node']);
  assert.equal(r.status, 1);
  assert.doesNotMatch(r.stdout, /^ {2}\d+:\d+\s+hint\s/m);
  assert.match(r.stdout, /^ {2}20:2\s+error\s.*\[unit-continuation-swallows-directive\]$/m);
  const last = r.stdout.trimEnd().split('\n').pop()!;
  assert.match(last, SUMMARY);
  assert.match(last, new RegExp(`, ${hints.length} hints? \\(shown with --hints\\) in `));
  assert.match(run(['--hints', 'examples/seed-node']).stdout, /^ {2}13:2\s+hint\s/m);
});

test('text format: the docs example table shows capacity and allocatable; no ANSI escapes without a TTY', () => {
  const r = run(['examples/docs-example']);
  assert.equal(r.status, 0);
  assert.doesNotMatch(r.stdout, ANSI);
  assert.match(r.stdout, /^Node examples\/docs-example\/kubelet-config\.yaml$/m);
  assert.match(r.stdout, /^\s+cpu\s+16 CPU\s.*\s14\.5 CPU$/m);
  assert.match(r.stdout, /^\s+pods\s+110\s+110$/m);
  assert.match(r.stdout, /\n0 errors, [^\n]*; 1 node\n$/);
  const errs = run(['examples']);
  assert.doesNotMatch(errs.stdout, ANSI);
  assert.doesNotMatch(run(['--no-color', 'examples']).stdout, ANSI);
});

test('text format: --color forces ANSI escapes even without a TTY', () => {
  const r = run(['--color', 'examples']);
  assert.equal(r.status, 1);
  assert.match(r.stdout, ANSI);
  // Colouring does not change the text.
  assert.equal(r.stdout.replace(/\x1b\[[0-9;]*m/g, ''), run(['examples']).stdout);
});

// ---------------------------------------------------------------- SARIF

interface SarifLog {
  $schema?: string;
  version: string;
  runs: {
    tool: { driver: { name: string; version?: string; rules?: { id: string }[] } };
    results: {
      ruleId: string;
      ruleIndex?: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[];
    }[];
  }[];
}

test('--format sarif: valid SARIF 2.1.0 (official schema), rules unique, ruleIndex and locations consistent with the findings', () => {
  const validate = sarifValidator();
  const r = run(['--format', 'sarif', 'examples']);
  assert.equal(r.status, 1, 'exit status does not depend on the format');
  const log = JSON.parse(r.stdout) as SarifLog;
  const ok = validate(log);
  assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 10), null, 2));
  assert.equal(log.version, '2.1.0');
  assert.equal(log.runs.length, 1);
  const run0 = log.runs[0];
  assert.equal(run0.tool.driver.name, 'kubelet-lint');
  const rules = run0.tool.driver.rules ?? [];
  assert.equal(new Set(rules.map((x) => x.id)).size, rules.length, 'rule ids are unique');

  const { out } = json(['examples']);
  assert.equal(run0.results.length, out.diagnostics.length);
  const level: Record<string, string> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };
  const fromSarif = run0.results.map((res) => {
    assert.ok(['none', 'note', 'warning', 'error'].includes(res.level));
    assert.ok(res.message.text.length > 0);
    if (res.ruleIndex !== undefined) assert.equal(rules[res.ruleIndex]?.id, res.ruleId, 'ruleIndex points at the rule');
    assert.ok(rules.some((x) => x.id === res.ruleId), `rule ${res.ruleId} is described`);
    const loc = res.locations[0].physicalLocation;
    assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1);
    return `${decodeURI(loc.artifactLocation.uri)} ${loc.region.startLine}:${loc.region.startColumn} ${res.level} ${res.ruleId}`;
  });
  const fromJson = out.diagnostics.map((d) => `${d.file} ${d.line}:${d.column} ${level[d.severity]} ${d.code}`);
  assert.deepEqual(fromSarif.slice().sort(), fromJson.slice().sort());
});

test('--format sarif: valid SARIF 2.1.0 with no findings (empty results)', () => {
  const validate = sarifValidator();
  const ws = workspace({ 'empty/.keep': '' });
  try {
    const empty = run(['--format', 'sarif', join(ws.dir, 'empty')]);
    assert.equal(empty.status, 0);
    const clean = JSON.parse(empty.stdout) as SarifLog;
    assert.ok(validate(clean), JSON.stringify(validate.errors));
    assert.deepEqual(clean.runs[0].results, []);
    assert.equal(clean.runs[0].tool.driver.name, 'kubelet-lint');
  } finally {
    ws.cleanup();
  }
});

test(
  '--format sarif: artifact URIs escape characters that are not path characters ("#", "?", " ") and decode back to the file',
  () => {
  const validate = sarifValidator();
  const ws = workspace({ 'my node #1/kubelet.service': BROKEN_UNIT, 'what?/kubelet.service': BROKEN_UNIT });
  try {

    const r = run(['--format', 'sarif', 'my node #1', 'what?'], { cwd: ws.dir });
    assert.equal(r.status, 1);
    const log = JSON.parse(r.stdout) as SarifLog;
    assert.ok(validate(log), JSON.stringify(validate.errors));
    const uris = log.runs[0].results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri);
    assert.ok(uris.length >= 2);
    for (const uri of uris) {
      assert.doesNotMatch(uri, /[ #?]/, `uri is escaped: ${uri}`);
      // Resolved as a URI reference, it must name the file, not a fragment or query of another one.
      const u = new URL(uri, 'file:///ws/');
      assert.equal(u.hash + u.search, '', uri);
      assert.ok(['/ws/my node #1/kubelet.service', '/ws/what?/kubelet.service'].includes(decodeURIComponent(u.pathname)), uri);
    }
  } finally {
    ws.cleanup();
  }
  },
);

// ---------------------------------------------------------------- walking

test('walking skips .git and node_modules folders (a broken unit there is not reported)', () => {
  const ws = workspace({
    'node_modules/some-pkg/kubelet.service': BROKEN_UNIT,
    'sub/node_modules/kubelet.service': BROKEN_UNIT,
    '.git/kubelet.service': BROKEN_UNIT,
    'control/kubelet.service': BROKEN_UNIT,
  });
  try {
    const control = json([join(ws.dir, 'control')]);
    assert.equal(control.r.status, 1, 'the unit is broken where it is walked');
    assert.ok(control.out.diagnostics.some((d) => d.severity === 'error'));

    rmSync(join(ws.dir, 'control'), { recursive: true });
    const { r, out } = json([ws.dir]);
    assert.equal(r.status, 0, JSON.stringify(out.diagnostics));
    assert.deepEqual(out.diagnostics, []);
    assert.deepEqual(out.nodes, []);
  } finally {
    ws.cleanup();
  }
});

test('two path arguments form one workspace: a unit under one reads the --config at its path under the other (the same node root); a file of another root is not linked (issue #37)', () => {
  const ws = workspace({
    'n/usr/lib/systemd/system/kubelet.service':
      '[Unit]\nDescription=kubelet\n\n[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\nRestart=always\n\n[Install]\nWantedBy=multi-user.target\n',
    'n/var/lib/kubelet/config.yaml':
      '# kubelet-lint: capacity cpu=8,memory=16Gi,ephemeral-storage=100Gi\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\nkubeReserved:\n  cpu: 700m\n',
    'other/var/lib/kubelet/config.yaml': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 250\n',
  });
  try {
    const alone = json(['n/usr'], { cwd: ws.dir }).out;
    assert.ok(
      alone.diagnostics.some((d) => d.code === 'reference-unresolved'),
      `alone, the config is missing: ${JSON.stringify(alone.diagnostics)}`,
    );
    // Another machine's file at the same path is not this unit's.
    const apart = json(['n/usr', 'other'], { cwd: ws.dir }).out;
    assert.ok(apart.diagnostics.some((d) => d.code === 'reference-unresolved'), JSON.stringify(apart.diagnostics));

    const { r, out } = json(['n/usr', 'n/var'], { cwd: ws.dir });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!out.diagnostics.some((d) => d.code === 'reference-unresolved'), JSON.stringify(out.diagnostics));
    assert.equal(out.nodes.length, 1, 'one kubelet, one node');
    assert.deepEqual(out.nodes[0].files, ['n/usr/lib/systemd/system/kubelet.service', 'n/var/lib/kubelet/config.yaml']);
    assert.deepEqual(out.nodes[0].links, [{ what: '--config', reference: '/var/lib/kubelet/config.yaml', from: 'n/usr/lib/systemd/system/kubelet.service:5', to: 'n/var/lib/kubelet/config.yaml', by: 'identity' }]);
    assert.equal(out.nodes[0].complete, true);
    // The config's kubeReserved and the modeline in it drive the node of the unit.
    assert.deepEqual(out.nodes[0].allocatable, {
      cpu: 8000 - 700,
      memory: 16 * 2 ** 30 - 100 * 2 ** 20,
      'ephemeral-storage': 100 * 2 ** 30 - 10737418400, // 10% as float32, see the seed node test
      pods: 110,
    });
  } finally {
    ws.cleanup();
  }
});

// ---------------------------------------------------------------- robustness

test('binary junk and 6 MB files in the workspace: no crash, exit 0 or 1, valid JSON', () => {
  const lorem = 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n';
  const ws = workspace({
    'etc/systemd/system/kubelet.service': randomBytes(200_000),
    'etc/systemd/system/kubelet.service.d/10-junk.conf': randomBytes(50_000),
    'etc/default/kubelet': randomBytes(10_000),
    'var/lib/kubelet/config.yaml': randomBytes(50_000),
    'var/lib/kubelet/kubeadm-flags.env': Buffer.from([0xff, 0xfe, 0x00, 0x4b, 0x00, 0x0a, 0xc3, 0x28, 0x0a]),
    'etc/containerd/config.toml': randomBytes(20_000),
    'blob.bin': randomBytes(6 * 1024 * 1024),
    'notes.txt': lorem.repeat(Math.ceil((6 * 1024 * 1024) / lorem.length)),
    'empty.yaml': '',
  });
  try {
    const { r } = json([ws.dir], { timeout: 60_000 });
    assert.equal(r.signal, null);
    assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr.slice(0, 1000)}`);
    assert.doesNotMatch(r.stderr, /TypeError|RangeError|ReferenceError|SyntaxError|at .*\(.*\.js:\d+/);
    const text = run([ws.dir], { timeout: 60_000 });
    assert.ok(text.status === 0 || text.status === 1);
  } finally {
    ws.cleanup();
  }
});

test(
  'a 6 MB kubelet.service (150k Environment= lines) is analysed without hanging (regression: lists were copied per directive, O(n^2))',
  () => {
    const lines = ['[Service]\nExecStart=/usr/bin/kubelet $KUBELET_X1\n'];
    for (let i = 0; i < 150_000; i++) lines.push(`Environment="KUBELET_X${i}=--v=${i}"\n`);
    const ws = workspace({ 'kubelet.service': lines.join('') });
    try {
      const r = run(['--format', 'json', ws.dir], { timeout: 60_000 });
      assert.equal(r.error, undefined, `did not finish: ${r.error?.message}`);
      assert.ok(r.status === 0 || r.status === 1);
      JSON.parse(r.stdout);
    } finally {
      ws.cleanup();
    }
  },
);

const corpus = resolve(repoRoot, '../shared/corpus/files');
test('the shared corpus (../shared/corpus/files) runs with --format json: exit 0 or 1, valid JSON, completes', { skip: existsSync(corpus) ? false : 'corpus absent' }, () => {
  const { r, out } = json(['../shared/corpus/files'], { timeout: 120_000 });
  assert.equal(r.signal, null);
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr.slice(0, 1000)}`);
  assert.ok(Array.isArray(out.diagnostics) && Array.isArray(out.nodes));
  assert.ok(out.nodes.length > 0);
  for (const d of out.diagnostics) {
    assert.ok(d.file.startsWith('../shared/corpus/files/'), d.file);
    assert.ok(SEVERITIES.has(d.severity) && d.line >= 1 && d.column >= 1, JSON.stringify(d));
  }
});
