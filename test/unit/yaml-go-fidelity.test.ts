/**
 * Where the `yaml` library (YAML 1.2) and go-yaml v2 behind sigs.k8s.io/yaml (the kubelet's reader) part ways, the
 * engine follows go-yaml. Each fact was found and checked with sigs.k8s.io/yaml 1.3.0 + gopkg.in/yaml.v2 (Debian
 * 12's golang-k8s-sigs-yaml-dev) through test/oracle/yaml-oracle.go.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineIndex } from '../../server/src/model/range.ts';
import { parseYamlStream } from '../../server/src/parse/yaml.ts';
import type { ConfigNode } from '../../server/src/parse/types.ts';

function read(text: string) {
  const r = parseYamlStream('c.yaml', text, new LineIndex(text));
  const errors = r.problems.filter((p) => p.severity === 'error');
  return { root: r.docs[0]?.root, errors, duplicates: r.docs[0]?.duplicates ?? [] };
}

function js(n: ConfigNode | undefined): unknown {
  if (!n) return null;
  if (n.kind === 'scalar') return n.value;
  if (n.kind === 'seq') return n.items.map(js);
  return Object.fromEntries(n.entries.map((e) => [e.key, js(e.value)]));
}

/** One error, on `line` (0-based), whose message says `what`. */
function failsAt(text: string, line: number, what: RegExp): void {
  const { errors } = read(text);
  assert.equal(errors.length, 1, JSON.stringify(errors.map((e) => e.message)));
  assert.equal(errors[0]!.range.start.line, line);
  assert.match(errors[0]!.message, what);
}

function reads(text: string, want: unknown): void {
  const { root, errors } = read(text);
  assert.deepEqual(errors.map((e) => e.message), []);
  assert.deepEqual(js(root), want);
}

test('go-yaml scannerc.go: a tab starting a blank line after a plain value fails ("found a tab character that violates indentation")', () => {
  failsAt('a: 1\n\t\nb: 2\n', 1, /tab character that violates indentation/);
  failsAt('a:\n  b: 1\n  \t\n  c: 2\n', 2, /violates indentation/);
});

test('go-yaml scannerc.go: a tab starting a comment line fails, also after a quoted value ("found character that cannot start any token")', () => {
  failsAt('a: 1\n\t# note\nb: 2\n', 1, /violates indentation/);
  failsAt('a: "x"\n\t# note\nb: 2\n', 1, /cannot start any token/);
  failsAt('# head\n\t\na: 1\n', 1, /cannot start any token/);
});

test('go-yaml scannerc.go: tabs past the collection column, after a value, or inside flow and block scalars are fine', () => {
  reads('a:\n  b: 1\n   \t\n  c: 2\n', { a: { b: 1, c: 2 } });
  reads('a: x\t# c\nb:\tx\n', { a: 'x', b: 'x' });
  reads('a: [1,\t2]\nb: |\n  x\n  \ty\n', { a: [1, 2], b: 'x\n\ty\n' });
});

test('go-yaml scannerc.go: `\\/` is an unknown escape in double quotes (YAML 1.1 has no \\/); the file fails', () => {
  failsAt('a: 1\nstaticPodPath: "\\/etc/kubernetes"\n', 1, /Unknown escape `\\\/`/);
  reads('a: "\\x41\\u00e9\\t\\\\"\n', { a: 'Aé\t\\' });
});

test('go-yaml folds a double- or single-quoted scalar continued on the next line, also one starting with a tab', () => {
  reads('clusterDomain: "cluster.\n  local"\nb: \'x\n\n  y\'\n', { clusterDomain: 'cluster. local', b: 'x\ny' });
  reads('a: "x\n\t y"\nb: \'p\n\tq\'\n', { a: 'x y', b: 'p q' });
  reads('a:\n  b: "x\n  \t y"\n', { a: { b: 'x y' } });
});

test('sigs.k8s.io/yaml: .inf and .nan values fail the file (json.Marshal: "unsupported value"); as keys or quoted they are text', () => {
  failsAt('a: 1\nb: .inf\n', 1, /infinite float/);
  failsAt('a: [-.Inf]\n', 0, /infinite float/);
  failsAt('a: .NaN\n', 0, /NaN/);
  reads('.inf: 1\nb: ".nan"\n', { '.inf': 1, b: '.nan' });
  // a value that a later key replaces never reaches the JSON conversion
  reads('a: .nan\na: 1\n', { a: 1 });
});

test('sigs.k8s.io/yaml: a ~ or null key fails the file ("Unsupported map key of type: <nil>"); "null" quoted is a string', () => {
  failsAt('a: 1\n~: 2\n', 1, /null key/);
  failsAt('null: 2\n', 0, /null key/);
  reads('"null": 2\n', { null: 2 });
});

test('go-yaml resolve.go: floats past the float64 range and ints past int64/uint64 stay strings', () => {
  reads('a: 1e400\nb: -1e400\nc: 0x1ffffffffffffffff\nd: -0x8000000000000001\ne: 0xffffffffffffffff\nf: 1e-400\n', {
    a: '1e400', b: '-1e400', c: '0x1ffffffffffffffff', d: '-0x8000000000000001', e: 18446744073709551615, f: 0,
  });
});

test('go-yaml decode.go: !!binary is base64-decoded, and invalid base64 fails the file', () => {
  reads('a: !!binary aGk=\n', { a: 'hi' });
  failsAt('a: !!binary aGk\n', 0, /not base64/);
});

test('go-yaml: a block scalar at the end of a file without a final newline keeps its text', () => {
  reads('a: |\n  x', { a: 'x' });
  reads('a: >-\n  folded\n  text', { a: 'folded text' });
});

test('go-yaml decode.go (strict): a key set twice through a << merge is a duplicate too ("key already set in map")', () => {
  assert.equal(read('a: 1\n<<: {a: 2}\n').duplicates.length, 1);
  assert.equal(read('<<: [{a: 2}, {a: 3}]\n').duplicates.length, 1);
  assert.equal(read('<<: {a: 2}\nb: 1\n').duplicates.length, 0);
});
