// The npm CLI as a user gets it: `npm pack` of this repository (dist/ built by `npm run build`, which `npm test` does
// first), installed into an empty folder with the network shut off (a registry at a closed port, --offline, an empty
// cache), then `npx kubelet-lint` run there. The package has no runtime dependencies (esbuild bundles every library
// into dist/), so nothing but the tarball is needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
  bin: Record<string, string>;
};

function npm(args: string[], cwd: string, cache: string, program = 'npm') {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_cache: cache, npm_config_registry: 'http://127.0.0.1:9/', npm_config_update_notifier: 'false' };
  delete env.NO_COLOR;
  const r = spawnSync(program, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.error, undefined, `${program} ${args.join(' ')}: ${r.error?.message}`);
  return r;
}

test('the package has no runtime dependencies: every library is bundled into dist/', () => {
  assert.deepEqual(pkg.dependencies ?? {}, {});
  for (const bin of Object.values(pkg.bin)) assert.ok(existsSync(join(repoRoot, bin)), `${bin} is built (npm run build)`);
});

test('npm pack, install the tarball offline in an empty folder, npx kubelet-lint --version and PATH', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'kubelet-lint-npm-'));
  try {
    const cache = join(tmp, 'cache');
    const packed = npm(['pack', '--json', '--pack-destination', tmp, repoRoot], tmp, cache);
    assert.equal(packed.status, 0, packed.stderr);
    const info = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const files = info[0].files.map((f) => f.path);
    // What the tarball holds: the bundles, the rule pages, the schema; no sources, tests or source maps.
    assert.ok(files.includes('dist/cli.js') && files.includes('dist/server.js') && files.includes('dist/server-engine.js'), files.join(' '));
    assert.ok(files.includes('docs/rules/README.md'));
    assert.deepEqual(
      files.filter((f) => /^(server|client|test|scripts|bench|examples)\//.test(f) || f.endsWith('.map') || f.endsWith('.ts')),
      [],
    );

    const project = join(tmp, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"uses-kubelet-lint","private":true}\n');
    const install = npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(tmp, info[0].filename)], project, cache);
    assert.equal(install.status, 0, install.stdout + install.stderr);
    assert.deepEqual(
      readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.')),
      ['kubelet-config'],
      'the install brought nothing but the package',
    );

    const version = npm(['--offline', 'kubelet-lint', '--version'], project, cache, 'npx');
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout, new RegExp(`^kubelet-lint ${pkg.version.replaceAll('.', '\\.')} `));

    // A unit with a flag removed in 1.15: an error, exit status 1, the path relative as given.
    mkdirSync(join(project, 'node', 'etc', 'systemd', 'system'), { recursive: true });
    writeFileSync(join(project, 'node', 'etc', 'systemd', 'system', 'kubelet.service'), '[Service]\nExecStart=/usr/bin/kubelet --allow-privileged=true\n# kubelet-lint: kubernetes-version 1.37\n');
    const lint = npm(['--offline', 'kubelet-lint', '--format', 'json', 'node'], project, cache, 'npx');
    assert.equal(lint.status, 1, lint.stderr);
    const report = JSON.parse(lint.stdout) as { diagnostics: { file: string; severity: string; code: string }[] };
    assert.ok(
      report.diagnostics.some((d) => d.file === 'node/etc/systemd/system/kubelet.service' && d.severity === 'error' && d.code === 'flag-removed'),
      lint.stdout,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
