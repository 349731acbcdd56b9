// The pre-commit hook (.pre-commit-hooks.yaml) run by the real pre-commit (Debian's package, installed by
// scripts/integrations-setup.sh, which test/run.mjs calls; KUBELET_INTEGRATIONS=skip skips this) on a fixture
// repository: `git commit` runs the hook, which reads the repository and reports on the staged files only. The hook
// repository is a local git repository holding this worktree's .pre-commit-hooks.yaml, and kubelet-lint on PATH is
// the built bundle (dist/cli.js), so nothing is downloaded: the network is shut (proxies and registry at a closed
// port).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..');
const cli = join(repoRoot, 'dist', 'cli.js');
const required = process.env.KUBELET_INTEGRATIONS === 'required';
const hasPreCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
const skip =
  process.env.KUBELET_INTEGRATIONS === 'skip'
    ? 'KUBELET_INTEGRATIONS=skip'
    : !hasPreCommit && !required
      ? 'pre-commit is not installed (scripts/integrations-setup.sh installs it)'
      : false;

const UNIT = 'node/etc/systemd/system/kubelet.service';
const DROPIN = 'node/etc/systemd/system/kubelet.service.d/20-extra.conf';
// Its ExecStart takes the flags from the drop-in's environment: the drop-in alone runs no kubelet.
const UNIT_TEXT = '[Unit]\nDescription=kubelet\n\n[Service]\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\nRestart=always\n';
// --allow-privileged was removed in 1.15: with the unit, the kubelet refuses to start.
const BAD_DROPIN = '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--allow-privileged=true"\n# kubelet-lint: kubernetes-version 1.37\n';
const GOOD_DROPIN = '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--max-pods=100"\n';
// Another node, already broken and not touched by the commits below.
const OTHER = 'other/kubelet.service';
const OTHER_TEXT = '[Service]\nExecStart=/usr/bin/kubelet --allow-privileged=true\n# kubelet-lint: kubernetes-version 1.37\n';

test('pre-commit: a commit changing a drop-in is checked with its unit, and only the changed files are reported', { skip }, () => {
  assert.ok(hasPreCommit, 'KUBELET_INTEGRATIONS=required but pre-commit is missing');
  assert.ok(existsSync(cli), `${cli} is missing: run "npm run build" first`);
  const tmp = mkdtempSync(join(tmpdir(), 'kubelet-lint-pre-commit-'));
  try {
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'kubelet-lint'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"\n`);
    chmodSync(join(bin, 'kubelet-lint'), 0o755);
    const closed = 'http://127.0.0.1:9';
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      PRE_COMMIT_HOME: join(tmp, 'pre-commit-cache'),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: join(tmp, 'gitconfig'),
      GIT_AUTHOR_NAME: 'test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      http_proxy: closed,
      https_proxy: closed,
      HTTP_PROXY: closed,
      HTTPS_PROXY: closed,
      npm_config_registry: closed,
      PIP_INDEX_URL: closed,
      NO_COLOR: '1',
    };
    writeFileSync(env.GIT_CONFIG_GLOBAL!, '[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n');
    const sh = (cwd: string, cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.error, undefined, `${cmd} ${args.join(' ')}: ${r.error?.message}`);
      return { status: r.status, out: r.stdout + r.stderr };
    };
    const ok = (cwd: string, cmd: string, ...args: string[]) => {
      const r = sh(cwd, cmd, args);
      assert.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.out}`);
      return r.out;
    };
    const write = (dir: string, path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };

    // The hook repository: this worktree's .pre-commit-hooks.yaml, committed.
    const hooks = join(tmp, 'hooks');
    mkdirSync(hooks);
    ok(hooks, 'git', 'init', '-q');
    copyFileSync(join(repoRoot, '.pre-commit-hooks.yaml'), join(hooks, '.pre-commit-hooks.yaml'));
    ok(hooks, 'git', 'add', '.');
    ok(hooks, 'git', 'commit', '-q', '-m', 'hooks');
    const rev = ok(hooks, 'git', 'rev-parse', 'HEAD').trim();

    // The fixture repository, its first commit made before the hook is installed.
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    ok(repo, 'git', 'init', '-q');
    write(repo, '.pre-commit-config.yaml', `repos:\n  - repo: ${JSON.stringify(hooks)}\n    rev: ${rev}\n    hooks:\n      - id: kubelet-lint\n`);
    write(repo, UNIT, UNIT_TEXT);
    write(repo, OTHER, OTHER_TEXT);
    write(repo, 'README.md', '# nodes\n');
    ok(repo, 'git', 'add', '.');
    ok(repo, 'git', 'commit', '-q', '-m', 'nodes');
    ok(repo, 'pre-commit', 'install');

    // The drop-in breaks the node: the commit is refused, the finding is in the drop-in, the other node is not named.
    write(repo, DROPIN, BAD_DROPIN);
    ok(repo, 'git', 'add', DROPIN);
    const refused = sh(repo, 'git', ['commit', '-m', 'extra args']);
    assert.notEqual(refused.status, 0, refused.out);
    assert.match(refused.out, /kubelet-lint\.+Failed/);
    assert.match(refused.out, new RegExp(`${DROPIN.replaceAll('.', '\\.')}\\n\\s+2:\\d+\\s+error\\s.*\\[flag-removed\\]`), refused.out);
    assert.ok(!refused.out.includes(OTHER), `the untouched node is not reported:\n${refused.out}`);
    // language: system: pre-commit clones the local hook repository and installs no environment (no download).
    assert.doesNotMatch(refused.out, /Installing environment/, refused.out);

    // Fixed, the same commit passes; a commit of a file that is no kubelet file passes too.
    write(repo, DROPIN, GOOD_DROPIN);
    ok(repo, 'git', 'add', DROPIN);
    assert.match(ok(repo, 'git', 'commit', '-m', 'extra args'), /kubelet-lint\.+Passed/);
    write(repo, 'README.md', '# nodes\n\nThe kubelet of each node.\n');
    ok(repo, 'git', 'add', 'README.md');
    assert.match(ok(repo, 'git', 'commit', '-m', 'readme'), /kubelet-lint\.+Passed/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
