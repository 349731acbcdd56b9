/**
 * The expanded command line is bounded like execve() bounds it (fs/exec.c bprm_stack_limits(): 2 MiB of argv and
 * envp with the default 8 MiB stack limit, 6 MiB at most; include/uapi/linux/binfmts.h MAX_ARG_STRLEN: 128 KiB per
 * string). The analysis reports the excess and stops expanding at the hard limit instead of building every word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ARGV_DEFAULT_MAX, ARGV_HARD_MAX } from '../../server/src/parse/systemd/exec.ts';
import { onlyNode, run } from '../helpers/nodes.ts';
import { MAX_KUBELET_ARGS } from '../../server/src/node/build.ts';

const UNIT = 'n/etc/systemd/system/kubelet.service';
const ENV = 'n/etc/default/kubelet';

function node(execArgs: string, env: string) {
  return run({
    [UNIT]: `[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet ${execArgs}\n`,
    [ENV]: env,
  });
}

const flags = (n: number): string => Array.from({ length: n }, (_, i) => `--node-labels=a${i}=b`).join(' ');

test('$E0 ten thousand times, E0 holding 1,000 flags (10 million words): one finding, argv cut at the hard limit', () => {
  const a = node(Array(10_000).fill('$E0').join(' '), `E0=${flags(1000)}\n`);
  const f = a.findings.filter((x) => x.code === 'exec-argv-too-long');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'error');
  assert.equal(f[0].file, UNIT);
  assert.match(f[0].message, /^ExecStart= expands to more than 6 MiB of arguments; execve\(\) fails/);
  const argv = onlyNode(a).node.argv;
  // every word kept fits in the hard limit (each takes its length, a NUL and a pointer)
  const bytes = argv.reduce((n, w) => n + w.text.length + 9, 0);
  assert.ok(bytes <= ARGV_HARD_MAX + 64 * 1024, `${bytes} bytes of argv kept`);
  assert.ok(argv.length < 10_000_000 / 20);
});

test('${E0} repeated inside one word copies the variable only up to the hard limit', () => {
  const a = node('--node-labels=' + '${E0}'.repeat(5000), `E0=${'x'.repeat(100_000)}\n`);
  const f = a.findings.filter((x) => x.code === 'exec-argv-too-long');
  assert.ok(f.some((x) => /more than 6 MiB/.test(x.message)));
  assert.ok(f.some((x) => /MAX_ARG_STRLEN/.test(x.message)), 'one argument past 128 KiB');
  assert.ok(onlyNode(a).node.argv.every((w) => w.text.length <= ARGV_HARD_MAX + 100_000));
});

test('a command line past 2 MiB (the default limit) but under 6 MiB is reported with its size and expanded whole', () => {
  const n = Math.ceil(ARGV_DEFAULT_MAX / 30) + 100;
  const a = node('$E0', `E0=${flags(n)}\n`);
  const f = a.findings.filter((x) => x.code === 'exec-argv-too-long');
  assert.equal(f.length, 1);
  const bytes = Number(/expands to (\d+) bytes of arguments and environment/.exec(f[0].message)?.[1]);
  // every word counted: the program, then each flag with its NUL and pointer, and the environment
  assert.ok(bytes > ARGV_DEFAULT_MAX && bytes < ARGV_HARD_MAX, `${bytes} bytes`);
  // the kubelet arguments read are bounded (test/unit/limits.test.ts), and the bound is said
  assert.equal(onlyNode(a).node.argv.length, MAX_KUBELET_ARGS);
  assert.equal(a.findings.filter((x) => x.code === 'kubelet-args-not-checked').length, 1);
});

test('an argument of more than 128 KiB (MAX_ARG_STRLEN) is reported on that argument', () => {
  const a = node('$E0 --v=2', `E0=--node-labels=${'a'.repeat(140_000)}\n`);
  const f = a.findings.filter((x) => x.code === 'exec-argv-too-long');
  assert.equal(f.length, 1);
  assert.match(f[0].message, /^This argument expands to \d+ bytes; execve\(\) fails/);
  assert.equal(f[0].file, ENV, 'placed on the word, in the env file it came from');
});

test('an ordinary command line has no exec-argv-too-long', () => {
  const a = node('$E0', `E0=${flags(1000)}\n`);
  assert.equal(a.findings.filter((x) => x.code === 'exec-argv-too-long').length, 0);
});
