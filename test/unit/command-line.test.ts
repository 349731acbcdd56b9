import { test } from 'node:test';
import { analyze } from '../../server/src/engine.ts';
import assert from 'node:assert/strict';
import { TextMap } from '../../server/src/model/range.ts';
import type { Word } from '../../server/src/parse/types.ts';
import { normalizeFlagName, parseKubeletArgs, valueSubSpan } from '../../server/src/node/command-line.ts';

const FILE = 'kubelet.service';

/** Words of one line split on single spaces, each with its exact place on line 0. */
function words(line: string): Word[] {
  const out: Word[] = [];
  let at = 0;
  for (const text of line.split(' ')) {
    if (text !== '') {
      const map = new TextMap(FILE, [{ offset: 0, line: 0, character: at, length: text.length }]);
      out.push({ text, span: map.span(0, text.length), map });
    }
    at += text.length + 1;
  }
  return out;
}

function parse(line: string) {
  return parseKubeletArgs(words(line));
}

function flagsOf(line: string): [string, string | undefined][] {
  return parse(line).flags.map((f) => [f.name, f.value]);
}

test('--flag=value sets the value (pflag parseLongArg: split at the first "=")', () => {
  const r = parse('--cgroup-driver=systemd --node-labels=a=b');
  assert.deepEqual(r.flags.map((f) => [f.name, f.value]), [['cgroup-driver', 'systemd'], ['node-labels', 'a=b']]);
  assert.deepEqual(r.positional, []);
  assert.deepEqual(r.problems, []);
  const f = r.flags[0];
  assert.equal(f.valueOffset, '--cgroup-driver='.length);
  assert.deepEqual(f.valueSpan.range, { start: { line: 0, character: 16 }, end: { line: 0, character: 23 } });
  assert.deepEqual(f.span.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 23 } });
});

test('--flag value takes the next word as the value (pflag parseLongArg: non-bool flag without "=" consumes the next argument)', () => {
  const r = parse('--cgroup-driver systemd --max-pods 50');
  assert.deepEqual(r.flags.map((f) => [f.name, f.value]), [['cgroup-driver', 'systemd'], ['max-pods', '50']]);
  assert.deepEqual(r.positional, []);
  const f = r.flags[0];
  assert.equal(f.valueWord?.text, 'systemd');
  assert.deepEqual(f.valueSpan.range, { start: { line: 0, character: 16 }, end: { line: 0, character: 23 } });
  assert.deepEqual(f.span.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 23 } });
});

test('a bare bool flag means true (pflag: bool flags have NoOptDefVal "true")', () => {
  const r = parse('--fail-swap-on --max-pods=10');
  assert.deepEqual(r.flags.map((f) => [f.name, f.value]), [['fail-swap-on', undefined], ['max-pods', '10']]);
  assert.deepEqual(r.positional, []);
});

test('"--fail-swap-on false" leaves "false" as a positional argument (pflag: a bool flag never consumes the next word; kubelet: unknown command "false")', () => {
  const r = parse('--fail-swap-on false --max-pods=10');
  assert.deepEqual(r.flags.map((f) => [f.name, f.value]), [['fail-swap-on', undefined], ['max-pods', '10']]);
  assert.deepEqual(r.positional.map((p) => p.word.text), ['false']);
  assert.deepEqual(r.positional[0].word.span.range, { start: { line: 0, character: 15 }, end: { line: 0, character: 20 } });
});

test('"--fail-swap-on=false" sets the bool to false (pflag: only the "=" form gives a bool a value)', () => {
  assert.deepEqual(flagsOf('--fail-swap-on=false'), [['fail-swap-on', 'false']]);
});

test('"--flag value" consumes a value that starts with "-" (pflag parseLongArg takes a[0] whatever it is)', () => {
  const r = parse('--node-labels --max-pods=10');
  assert.deepEqual(r.flags.map((f) => [f.name, f.value]), [['node-labels', '--max-pods=10']]);
  assert.deepEqual(r.positional, []);
  assert.deepEqual(r.problems, []);
});

test('"--cgroup_driver" is normalised to "--cgroup-driver" (component-base cliflag.WordSepNormalizeFunc)', () => {
  const r = parse('--cgroup_driver=systemd');
  assert.equal(r.flags.length, 1);
  assert.equal(r.flags[0].name, 'cgroup-driver');
  assert.equal(r.flags[0].written, 'cgroup_driver');
  assert.equal(normalizeFlagName('kube_reserved_cgroup'), 'kube-reserved-cgroup');
  assert.equal(normalizeFlagName('max-pods'), 'max-pods');
});

test('an unknown flag is an "unknown flag" problem spanning "--name" only (pflag: failed to parse kubelet flag: unknown flag)', () => {
  const r = parse('--max-pods=10 --no-such-flag=1 --v=2');
  assert.equal(r.problems.length, 1);
  const p = r.problems[0];
  assert.equal(p.kind, 'unknown-flag');
  assert.equal(p.name, 'no-such-flag');
  assert.deepEqual(p.span.range, { start: { line: 0, character: 14 }, end: { line: 0, character: 28 } });
  // Parsing goes on past it so one typo does not hide the rest.
  assert.deepEqual(r.flags.map((f) => f.name), ['max-pods', 'v']);
});

test('a non-bool flag as the last word needs an argument (pflag: "flag needs an argument")', () => {
  const r = parse('--max-pods=10 --cgroup-driver');
  assert.equal(r.problems.length, 1);
  assert.equal(r.problems[0].kind, 'needs-argument');
  assert.equal(r.problems[0].name, 'cgroup-driver');
  assert.deepEqual(r.problems[0].span.range, { start: { line: 0, character: 14 }, end: { line: 0, character: 29 } });
  assert.deepEqual(r.flags.map((f) => f.name), ['max-pods']);
});

test('"--" ends the flags: everything after it is positional (pflag: "--" terminates flag parsing)', () => {
  const r = parse('--max-pods=10 -- --cgroup-driver=systemd extra');
  assert.deepEqual(r.flags.map((f) => f.name), ['max-pods']);
  assert.equal(r.dashDash?.text, '--');
  assert.deepEqual(r.positional.map((p) => p.word.text), ['--cgroup-driver=systemd', 'extra']);
});

test('"-v=2", "-v2" and "-v 2" are the v shorthand (pflag parseSingleShortArg)', () => {
  assert.deepEqual(flagsOf('-v=2'), [['v', '2']]);
  assert.deepEqual(flagsOf('-v2'), [['v', '2']]);
  const r = parse('-v 2 --max-pods=3');
  assert.deepEqual(r.flags.map((f) => [f.name, f.value]), [['v', '2'], ['max-pods', '3']]);
  assert.deepEqual(r.positional, []);
  assert.deepEqual(r.flags[0].valueSpan.range, { start: { line: 0, character: 3 }, end: { line: 0, character: 4 } });
  assert.deepEqual(parse('-v=2').flags[0].valueSpan.range, { start: { line: 0, character: 3 }, end: { line: 0, character: 4 } });
});

test('an unknown shorthand is an error (pflag: "unknown shorthand flag")', () => {
  const r = parse('-x 1');
  assert.equal(r.problems[0]?.kind, 'unknown-shorthand');
  assert.equal(r.problems[0].name, 'x');
});

test('"-h=false" gives the bool shorthand the value false (pflag parseSingleShortArg checks "=" before NoOptDefVal)', () => {
  assert.deepEqual(flagsOf('-h=false'), [['help', 'false']]);
  assert.deepEqual(flagsOf('-h'), [['help', undefined]]);
});

test('"---x" and "--=x" are bad flag syntax (pflag parseLongArg)', () => {
  assert.deepEqual(parse('---max-pods=1').problems.map((p) => p.kind), ['bad-syntax']);
  assert.deepEqual(parse('--=x').problems.map((p) => p.kind), ['bad-syntax']);
});

test('a single "-" and words without a dash are positional (pflag: len(s) < 2 or s[0] != "-")', () => {
  assert.deepEqual(parse('- run').positional.map((p) => p.word.text), ['-', 'run']);
});

test('repeating a scalar flag keeps every use in order (the last one wins later)', () => {
  assert.deepEqual(flagsOf('--max-pods=10 --max-pods 20'), [['max-pods', '10'], ['max-pods', '20']]);
});

test('valueSubSpan points at one entry of a map flag value', () => {
  const f = parse('--kube-reserved=cpu=1,memory=2Gi').flags[0];
  const s = valueSubSpan(f, 6, 15); // memory=2Gi -> "memory=2G" slice
  assert.deepEqual(s.range, { start: { line: 0, character: 22 }, end: { line: 0, character: 31 } });
});

test('a flag whose value comes from a variable defined above it spans only its name (never a reversed range)', () => {
  const files = [
    { path: 'n/usr/lib/systemd/system/kubelet.service', text: '[Service]\nEnvironment="KUBELET_ARGS=memory.available<100Mi"\nExecStart=/usr/bin/kubelet --eviction-hard $KUBELET_ARGS\n' },
  ];
  const a = analyze(files);
  const f = a.nodes[0]!.node.flags.find((x) => x.name === 'eviction-hard')!;
  assert.deepEqual(f.span.range, { start: { line: 2, character: 27 }, end: { line: 2, character: 42 } });
  for (const x of a.findings) {
    const r = x.range;
    assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${x.code}: reversed range`);
  }
});
