// Runs every *.test.ts under test/ with node's own test runner (TypeScript through tsx).
// When the real-editor test is among them, first installs what it needs
// (scripts/e2e-setup.sh: idempotent, seconds once done) and then requires it to
// run; KUBELET_E2E=skip opts out for a quick local run. The same for the oracle tests (scripts/oracle-setup.sh,
// KUBELET_ORACLES=skip).
import { readdirSync, statSync } from 'node:fs';
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

const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
