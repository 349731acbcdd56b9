// What GitHub code scanning needs of an uploaded SARIF file (docs.github.com, "SARIF support for code scanning"):
// a result's ruleId, message.text and a location whose artifactLocation.uri is relative to the repository root
// (with a uriBaseId that originalUriBaseIds defines) and whose region has a startLine; partialFingerprints, so one
// finding is one alert across commits; and rules that describe themselves (shortDescription, helpUri). The CLI runs
// as a CI job runs it: from the checkout's root, on the built bundle (dist/cli.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { sarifValidator } from '../helpers/sarif.ts';

const repoRoot = resolve(__dirname, '..', '..');
const cli = join(repoRoot, 'dist', 'cli.js');

interface Location {
  physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number; startColumn?: number } };
}
interface Result {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: Location[];
  relatedLocations?: Location[];
  partialFingerprints?: Record<string, string>;
}
interface Rule {
  id: string;
  shortDescription?: { text: string };
  fullDescription?: { text: string };
  helpUri?: string;
  help?: { text: string; markdown?: string };
  defaultConfiguration?: { level: string };
}
interface Sarif {
  version: string;
  runs: { tool: { driver: { name: string; rules: Rule[] } }; originalUriBaseIds?: Record<string, { uri: string }>; results: Result[] }[];
}

function sarif(args: string[], cwd: string): Sarif {
  assert.ok(existsSync(cli), `${cli} is missing: run "npm run build" first`);
  const r = spawnSync(process.execPath, [cli, '--format', 'sarif', ...args], { cwd, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });
  assert.equal(r.error, undefined);
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  const log = JSON.parse(r.stdout) as Sarif;
  const validate = sarifValidator();
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5)));
  return log;
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-lint-sarif-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

const UNIT = 'etc/systemd/system/kubelet.service';
// A flag removed in 1.15: an error for every recent kubelet.
const BROKEN = '[Service]\nExecStart=/usr/bin/kubelet --allow-privileged=true\n# kubelet-lint: kubernetes-version 1.37\n';

/** Every location of every result, the primary ones and the related ones. */
const locations = (log: Sarif) => log.runs[0].results.flatMap((r) => [...r.locations, ...(r.relatedLocations ?? [])]);

test('code scanning: every result has a ruleId, a message, a relative %SRCROOT% location with a start line, a fingerprint', () => {
  const log = sarif(['examples'], repoRoot);
  const run = log.runs[0];
  assert.ok(run.results.length > 20, 'the examples have findings');
  assert.deepEqual(run.originalUriBaseIds, { '%SRCROOT%': { uri: pathToFileURL(repoRoot).href + '/' } });
  for (const r of run.results) {
    assert.match(r.ruleId, /^[a-z][a-z0-9-]*$/);
    assert.ok(r.message.text.length > 0);
    assert.equal(r.locations.length, 1);
  }
  for (const l of locations(log)) {
    const { artifactLocation: a, region } = l.physicalLocation;
    assert.equal(a.uriBaseId, '%SRCROOT%');
    assert.doesNotMatch(a.uri, /^[a-z]+:|^\//, `relative: ${a.uri}`);
    assert.ok(existsSync(join(repoRoot, decodeURIComponent(a.uri))), `names a file of the repository: ${a.uri}`);
    assert.ok(Number.isInteger(region.startLine) && region.startLine >= 1);
  }
  const prints = run.results.map((r) => r.partialFingerprints?.['kubeletLint/v1']);
  for (const p of prints) assert.match(String(p), /^[0-9a-f]{32}:\d+$/);
  assert.equal(new Set(prints).size, prints.length, 'no two results share a fingerprint');
});

test('code scanning: each rule has a description and a helpUri to its page (docs/rules/<id>.md); --rule-docs-url moves them', () => {
  const log = sarif(['examples'], repoRoot);
  const rules = log.runs[0].tool.driver.rules;
  assert.deepEqual(rules.map((r) => r.id), [...new Set(log.runs[0].results.map((r) => r.ruleId))].sort());
  for (const r of rules) {
    assert.ok(r.shortDescription?.text && r.fullDescription?.text && r.help?.text, r.id);
    assert.ok(r.helpUri && URL.canParse(r.helpUri) && r.helpUri.startsWith('https://'), `${r.id}: ${r.helpUri}`);
    assert.ok(r.helpUri.endsWith(`/docs/rules/${r.id}.md`), r.helpUri);
    assert.ok(existsSync(join(repoRoot, 'docs', 'rules', `${r.id}.md`)), `the page of ${r.id} exists`);
    assert.ok(['error', 'warning', 'note'].includes(String(r.defaultConfiguration?.level)), r.id);
  }
  const moved = sarif(['--rule-docs-url', 'https://docs.example.com/kubelet-lint/rules', 'examples'], repoRoot);
  for (const r of moved.runs[0].tool.driver.rules) assert.equal(r.helpUri, `https://docs.example.com/kubelet-lint/rules/${r.id}.md`);
});

test('code scanning: a fingerprint stays when lines above the finding change, and changes when the flagged text does', () => {
  const dir = workspace({ [UNIT]: BROKEN });
  try {
    const print = (log: Sarif) => {
      const r = log.runs[0].results.find((x) => x.ruleId === 'flag-removed');
      assert.ok(r, JSON.stringify(log.runs[0].results.map((x) => x.ruleId)));
      return { line: r.locations[0].physicalLocation.region.startLine, print: r.partialFingerprints?.['kubeletLint/v1'] };
    };
    const before = print(sarif(['etc'], dir));
    writeFileSync(join(dir, UNIT), '# the node\'s kubelet\n[Unit]\nDescription=kubelet\n\n' + BROKEN);
    const moved = print(sarif(['etc'], dir));
    assert.equal(moved.line, before.line + 4, 'the finding moved down');
    assert.equal(moved.print, before.print, 'and is the same finding');
    // Named by an absolute path under the working folder: the same relative location, the same fingerprint.
    const absolute = sarif([join(dir, 'etc')], dir);
    assert.equal(absolute.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, UNIT);
    assert.equal(print(absolute).print, before.print);

    writeFileSync(join(dir, UNIT), BROKEN.replace('=true', '=false'));
    assert.notEqual(print(sarif(['etc'], dir)).print, before.print, 'another value is another finding');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('code scanning: a file outside the working folder is a file:// URI with no uriBaseId', () => {
  const dir = workspace({ [UNIT]: BROKEN, 'elsewhere/.keep': '' });
  try {
    const log = sarif([join(dir, 'etc')], join(dir, 'elsewhere'));
    const a = log.runs[0].results[0].locations[0].physicalLocation.artifactLocation;
    assert.equal(a.uriBaseId, undefined);
    assert.equal(a.uri, pathToFileURL(join(dir, UNIT)).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the example workflow (docs/integrations/github-actions.yml) runs kubelet-lint as SARIF and uploads that file', () => {
  const wf = parseYaml(readFileSync(join(repoRoot, 'docs', 'integrations', 'github-actions.yml'), 'utf8')) as {
    permissions: Record<string, string>;
    jobs: Record<string, { steps: { uses?: string; run?: string; if?: string; with?: Record<string, string> }[] }>;
  };
  assert.equal(wf.permissions['security-events'], 'write');
  const steps = Object.values(wf.jobs)[0].steps;
  const lint = steps.find((s) => s.run?.includes('kubelet-lint'));
  const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
  assert.ok(lint && upload);
  const m = /--package kubelet-config@(\S+) -- kubelet-lint --format sarif \. > (\S+)$/.exec(lint.run!.trim());
  assert.ok(m, lint.run);
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
  assert.equal(m[1], pkg.version, 'the pinned version is this one');
  assert.ok(pkg.name === 'kubelet-config' && 'kubelet-lint' in pkg.bin);
  assert.equal(upload.with?.sarif_file, m[2]);
  assert.match(String(upload.if), /!cancelled\(\)/, 'the upload runs when the lint step fails on an error finding');
});
