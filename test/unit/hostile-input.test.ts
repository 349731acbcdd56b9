/**
 * Hostile input: the engine never throws, finishes in bounded time, and every
 * finding's range lies inside its file. Time bounds are generous (they only
 * catch hangs and quadratic blow-ups, not slowness on a busy machine).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import { parseCapacity } from '../../server/src/node/capacity.ts';
import { assertFindingsInside } from '../helpers/ranges.ts';
import { CONFIG_HEAD, kubeadmNode, ws } from '../helpers/nodes.ts';

const BOUND_MS = 5000;
const cap = parseCapacity('cpu=16,memory=64Gi,ephemeral-storage=200Gi,hugepages-2Mi=1Gi');
assert.ok(cap.ok);

function survive(files: SourceFile[], bound = BOUND_MS): Analysis {
  const t0 = performance.now();
  let a: Analysis | undefined;
  assert.doesNotThrow(() => {
    a = analyze(files, { capacity: cap.ok ? cap.capacity : undefined });
  });
  const ms = performance.now() - t0;
  assert.ok(ms < bound, `analysis took ${Math.round(ms)} ms`);
  assertFindingsInside(new Map(files.map((f) => [f.path, f.text])), a!.findings);
  // the whole result is usable: allocatable lines and messages are strings/bigints, not exceptions waiting to happen
  for (const n of a!.nodes) JSON.stringify(n.allocatable, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  for (const f of a!.findings) assert.equal(typeof f.message, 'string');
  return a!;
}

/** Deterministic pseudo-random bytes decoded as UTF-8 with replacement characters (as an editor would hand them over). */
function junk(n: number, seed = 7): string {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return new TextDecoder('utf-8').decode(b);
}

test('binary junk named kubelet.service, config.yaml, config.toml, daemon.json and a drop-in', () => {
  survive(
    ws({
      'j/etc/systemd/system/kubelet.service': '[Service]\n' + junk(4096, 1),
      'j/etc/systemd/system/kubelet.service.d/10-kubeadm.conf': '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet ' + junk(2048, 2),
      'j/var/lib/kubelet/config.yaml': 'kind: KubeletConfiguration\n' + junk(4096, 3),
      'j/etc/containerd/config.toml': 'version = 2\n' + junk(4096, 4),
      'j/etc/docker/daemon.json': '{"exec-opts": ' + junk(4096, 5),
      'j/etc/default/kubelet': 'KUBELET_EXTRA_ARGS=' + junk(1024, 6),
      'j/etc/crio/crio.conf': '[crio.runtime]\n' + junk(2048, 8),
    }),
  );
});

test('invalid UTF-8 decoded with replacement characters inside values', () => {
  const bad = new TextDecoder().decode(new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x41]));
  survive(
    ws(
      kubeadmNode('u', {
        config: `kubeReserved:\n  cpu: "${bad}"\n  ${bad}: 1Gi\ncgroupDriver: ${bad}\n`,
        defaults: `KUBELET_EXTRA_ARGS=--kube-reserved=cpu=${bad} --${bad}=1 ${bad}\n`,
      }),
    ),
  );
});

test('a 1 MiB line (systemd LONG_LINE_MAX) in a unit, an env file and a config', () => {
  const long = 'x'.repeat(1024 * 1024);
  survive(
    ws({
      'l/etc/systemd/system/kubelet.service': `[Service]\nExecStart=/usr/bin/kubelet --node-labels=${long} $KUBELET_EXTRA_ARGS\nEnvironmentFile=-/etc/default/kubelet\n`,
      'l/etc/default/kubelet': `KUBELET_EXTRA_ARGS=--v=${long}\n`,
      'l/var/lib/kubelet/config.yaml': CONFIG_HEAD + `providerID: ${long}\n`,
    }),
  );
});

test('a 1 MiB continued ExecStart= (120,000 "\\" lines)', () => {
  const continued = '[Service]\nExecStart=/usr/bin/kubelet \\\n' + '  --v=2 \\\n'.repeat(120_000) + '  --v=3\n';
  assert.ok(continued.length > 1024 * 1024);
  survive(ws({ 'c/etc/systemd/system/kubelet.service': continued }));
});

// Spreading 150,000+ values into push() overflows V8's stack (found by test/lsp/stress.test.ts): large lists are appended in loops.
test('200,000 words in one env-file variable and 200,000 duplicate keys: no stack overflow', () => {
  survive(ws({ 'w/etc/default/kubelet': 'KUBELET_EXTRA_ARGS=' + '--v=2 '.repeat(200_000) + '\n' }), 30_000);
  survive(ws({ 'd/var/lib/kubelet/config.yaml': CONFIG_HEAD + 'maxPods: 1\n'.repeat(200_000) }), 30_000);
});

test('a 5 MB config file (comments, 20,000 feature gates, a real mistake at the end): findings still land inside it', () => {
  const big =
    CONFIG_HEAD +
    '# filler comment line for a five megabyte file ................\n'.repeat(75_000) +
    'featureGates:\n' +
    Array.from({ length: 20_000 }, (_, i) => `  Gate${i}: true\n`).join('') +
    'kubeReserved:\n  memroy: 1Gi\n';
  assert.ok(big.length > 5_000_000);
  const a = survive(ws({ 'b/var/lib/kubelet/config.yaml': big }), 30_000);
  const last = big.split('\n').length - 2;
  assert.ok(a.findings.some((f) => f.code === 'reserved-resource-unknown' && f.range.start.line === last));
});

test('a YAML billion-laughs alias bomb', () => {
  const bomb = `${CONFIG_HEAD}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
kubeReserved: *i
featureGates: *i
`;
  survive(ws({ 'y/var/lib/kubelet/config.yaml': bomb }));
});

test('10,000-deep nested YAML and JSON', () => {
  const deepYaml = CONFIG_HEAD + 'kubeReserved: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\nsystemReserved: ' + '{a: '.repeat(10_000) + '1' + '}'.repeat(10_000) + '\n';
  const deepJson = '{"kind":"KubeletConfiguration","apiVersion":"kubelet.config.k8s.io/v1beta1","kubeReserved":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
  const deepDocker = '{"exec-opts":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
  const deepToml = 'version = 2\na = ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n';
  survive(
    ws({
      'd/var/lib/kubelet/config.yaml': deepYaml,
      'd/kubelet.json': deepJson,
      'd/etc/docker/daemon.json': deepDocker,
      'd/etc/containerd/config.toml': deepToml,
    }),
  );
});

test('kubeReserved memory 1e999999 and a 10,000-digit quantity', () => {
  const digits = '9'.repeat(10_000);
  const a = survive(
    ws({
      'q/var/lib/kubelet/config.yaml':
        CONFIG_HEAD + `kubeReserved:\n  memory: 1e999999\n  cpu: "${digits}"\nsystemReserved:\n  memory: "1e999999"\n  ephemeral-storage: "${digits}Ki"\nevictionHard:\n  memory.available: "${digits}"\n  nodefs.available: "${digits}%"\nmaxPods: 1e999999\n`,
      'q/etc/default/kubelet': `KUBELET_EXTRA_ARGS=--kube-reserved=memory=${digits} --eviction-hard=memory.available<1e999999\n`,
    }),
  );
  assert.ok(a.findings.length > 0);
});

test('NUL bytes everywhere', () => {
  survive(
    ws(
      kubeadmNode('z', {
        config: 'maxPods: 1\0\nkubeReserved:\n  cpu: "1\0"\n\0\0\0\n',
        defaults: 'KUBELET_EXTRA_ARGS=--v=2\0 --max-pods\0=3\n',
        extra: { 'z/etc/containerd/config.toml': 'version = 2\0\n[plugins\0]\n' },
      }),
    ),
  );
});

test('CRLF line endings everywhere: same findings as LF, ranges inside', () => {
  const files = ws(
    kubeadmNode('r', {
      config: 'cgroupDriver: sytemd\nkubeReserved:\n  memroy: 1Gi\nenforceNodeAllocatable:\n  - pods\n  - kube-reserved\n',
      defaults: 'KUBELET_EXTRA_ARGS=--fail-swap-on false --kube-reserverd=cpu=1\n',
    }),
  );
  const lf = survive(files);
  const crlf = survive(files.map((f) => ({ ...f, text: f.text.replaceAll('\n', '\r\n') })));
  const key = (a: Analysis) => a.findings.map((f) => `${f.code} ${f.file} ${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character}`);
  assert.deepEqual(key(crlf), key(lf));
});

test('a UTF-8 BOM at the start of every file: units and YAML read as without it (conf-parser.c drops it), an env file loses its first variable (env-file.c keeps it)', () => {
  const files = ws(
    kubeadmNode('m', {
      config: 'cgroupDriver: sytemd\nkubeReserved:\n  memroy: 1Gi\n',
      defaults: 'KUBELET_EXTRA_ARGS=--kube-reserverd=cpu=1\n',
    }),
  );
  const plain = survive(files);
  const bom = survive(files.map((f) => ({ ...f, text: '\uFEFF' + f.text })));
  const codes = (a: Analysis, file: string) =>
    a.findings.filter((f) => f.file === file && f.severity !== 'hint').map((f) => `${f.code} ${f.range.start.line}:${f.range.start.character}`);
  // conf-parser.c drops the BOM of units and drop-ins; the YAML reader drops it too: same findings.
  // (The drop-in may additionally say $KUBELET_EXTRA_ARGS is now undefined: see the env file below.)
  const notUndefined = (l: string[]) => l.filter((c) => !c.startsWith('unit-variable-undefined'));
  for (const f of ['m/var/lib/kubelet/config.yaml', 'm/etc/systemd/system/kubelet.service.d/10-kubeadm.conf']) {
    assert.deepEqual(notUndefined(codes(bom, f)), notUndefined(codes(plain, f)), f);
  }
  // env-file.c does not: the BOM becomes part of the first name, which is then invalid and ignored ("Ignoring invalid environment assignment").
  assert.deepEqual(
    bom.findings.filter((f) => f.file === 'm/etc/default/kubelet').map((f) => [f.code, f.severity]),
    [['envfile-invalid-name', 'warning']],
  );
  assert.deepEqual(codes(plain, 'm/etc/default/kubelet'), ['flag-unknown 0:19']);
});

test('empty files, whitespace-only files and a lone "\\" are fine', () => {
  survive(
    ws({
      'e/etc/systemd/system/kubelet.service': '',
      'e/etc/systemd/system/kubelet.service.d/10.conf': '\\',
      'e/var/lib/kubelet/config.yaml': CONFIG_HEAD + '   \n\t\n',
      'e/etc/default/kubelet': '\\',
      'e/etc/containerd/config.toml': '',
      'e/etc/docker/daemon.json': '',
    }),
  );
});

test('self-referencing variables and references to missing files do not loop', () => {
  survive(
    ws({
      'v/etc/systemd/system/kubelet.service':
        '[Service]\nEnvironment="A=$A ${A} $B" "B=${A}$B"\nEnvironmentFile=/nonexistent\nExecStart=/usr/bin/kubelet $A ${B} --config=/nope/config.yaml --config-dir=/nope.d\n',
    }),
  );
});
