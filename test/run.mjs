// Runs every *.test.ts under test/ with node's own test runner (TypeScript through tsx).
// When the real-editor test is among them, first installs what it needs
// (scripts/e2e-setup.sh: idempotent, seconds once done) and then requires it to
// run; KUBELET_E2E=skip opts out for a quick local run. The same for the oracle tests (scripts/oracle-setup.sh,
// KUBELET_ORACLES=skip), and for the integration tests that drive pre-commit and Chromium (scripts/integrations-setup.sh,
// KUBELET_INTEGRATIONS=skip).
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const only = process.argv.slice(2);
const files = only.length ? only : walk('test', []);
const env = { ...process.env };

if (files.some((f) => f.replaceAll('\\', '/').includes('test/e2e/')) && env.KUBELET_E2E !== 'skip') {
  const setup = spawnSync('bash', ['scripts/e2e-setup.sh'], { stdio: 'inherit' });
  if (setup.status === 0) env.KUBELET_E2E = 'required';
  else console.error('\n::warning:: the real-editor test could not be set up (see above); it will be skipped with the reason\n');
}

// The differential tests against the real systemd and YAML decoder (test/oracle): scripts/oracle-setup.sh installs
// them (Debian packages as root, a Go program built once); KUBELET_ORACLES=skip opts out.
if (files.some((f) => f.replaceAll('\\', '/').includes('test/oracle/')) && env.KUBELET_ORACLES !== 'skip') {
  const setup = spawnSync('bash', ['scripts/oracle-setup.sh'], { stdio: 'inherit' });
  if (setup.status === 0) env.KUBELET_ORACLES = 'required';
  else console.error('\n::warning:: the oracle tests could not be set up (see above); they will be skipped with the reason\n');
}

// The integrations with other programs (test/integrations: pre-commit on a fixture repository, the web worker
// server in Chromium):
// scripts/integrations-setup.sh installs them (Debian packages as root); KUBELET_INTEGRATIONS=skip opts out.
if (files.some((f) => f.replaceAll('\\', '/').includes('test/integrations/')) && env.KUBELET_INTEGRATIONS !== 'skip') {
  const setup = spawnSync('bash', ['scripts/integrations-setup.sh'], { stdio: 'inherit' });
  if (setup.status === 0) env.KUBELET_INTEGRATIONS = 'required';
  else console.error('\n::warning:: the integration tests could not be set up (see above); they will be skipped with the reason\n');
}

const run = (list, report) => {
  // A second copy of the report goes to a file, so a failure can be shown again at the end (see below).
  const copy = report ? ['--test-reporter=spec', `--test-reporter-destination=${report}`] : [];
  const args = ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', ...copy, ...list];
  return spawnSync(process.execPath, args, { stdio: 'inherit', env }).status ?? 1;
};

/** The "failing tests" part of a spec report, cut short: the lines a reader of the end of the output needs. */
function failures(report, max = 60) {
  let text = '';
  try {
    text = readFileSync(report, 'utf8');
  } catch {
    return `(no report at ${report})`;
  }
  const at = text.lastIndexOf('failing tests:');
  // Stack frames say nothing here; the test's own "# " notes (screenshots, the code-server log's place) do.
  const part = (at >= 0 ? text.slice(at) : text).split('\n').filter((l) => !/^\s+at /.test(l));
  const notes = text.slice(0, at >= 0 ? at : 0).split('\n').filter((l) => /^\s*# (e2e failed|screenshots|\s+\S+failure-)/.test(l));
  const lines = [...part, ...notes];
  return lines.slice(0, max).join('\n') + (lines.length > max ? `\n… ${lines.length - max} more lines in ${report}` : '');
}

// The real-editor test drives a browser through code-server; its Problems panel now and then leaves a row undrawn
// ("Showing 1 of 20" with no row; seen before this change too, cause not found). It runs first and on its own, and once more when it
// fails, saying so; a second failure fails the run. The other tests run after it, and then the real-editor failures, if any.
const EDITOR = 'test/e2e/editor.test.ts';
const editor = files.filter((f) => f.replaceAll('\\', '/').endsWith(EDITOR));
const rest = files.filter((f) => !editor.includes(f));
let status = 0;
const failed = [];
if (editor.length) {
  mkdirSync('.e2e', { recursive: true });
  for (let attempt = 1; attempt <= 2; attempt++) {
    const report = join('.e2e', `editor-report-${attempt}.txt`);
    status = run(editor, report);
    if (status === 0) break;
    failed.push(report);
    if (env.KUBELET_E2E !== 'required') break;
    if (attempt === 1) console.error(`\n::warning:: ${EDITOR} failed; running it once more (a second failure fails the run)\n`);
  }
}
if (rest.length) status = run(rest) || status;
// The real-editor failures scroll far away under the other tests' output: say them again, last, where a reader of the
// end of a CI log sees them (a passing second attempt still shows what the first one hit).
for (const report of failed) console.log(`\n# ${EDITOR}: what ${report} reported\n${failures(report)}`);
process.exit(status);
