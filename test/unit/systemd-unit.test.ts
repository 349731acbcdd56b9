import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUnit, LONG_LINE_MAX } from '../../server/src/parse/systemd/unit.ts';
import { LineIndex, type TextMap } from '../../server/src/model/range.ts';
import type { UnitDirective, UnitFile } from '../../server/src/parse/types.ts';
import { HANG_MS } from '../helpers/hang.ts';

/** Every character of `value` maps to the same character in the file (a continuation's space maps to its `\`). */
function assertMapsExactly(file: string, value: string, map: TextMap): void {
  const idx = new LineIndex(file);
  for (let i = 0; i < value.length; i++) {
    const p = map.position(i);
    const ch = file[idx.starts[p.line] + p.character];
    const want = value[i];
    assert.ok(ch === want || (want === ' ' && ch === '\\'), `char ${i} ${JSON.stringify(want)} maps to ${JSON.stringify(ch)} at ${p.line}:${p.character}`);
  }
}

function get(u: UnitFile, key: string): UnitDirective | undefined {
  return u.directives.find((d) => d.key === key);
}

const SEED = `[Service]
ExecStart=/usr/local/bin/kubelet $KUBELET_EXTRA_ARGS \\
\t--cgroup-driver=cgroupfs \\
\t--system-reserved=cpu=6,memory=24Gi \\
\tRestart=always
StartLimitInterval=0
`;

test('a trailing backslash on the last flag line swallows Restart=always into ExecStart (conf-parser.c)', () => {
  const u = parseUnit('/k.service', SEED);
  assert.deepEqual(u.directives.map((d) => d.key), ['ExecStart', 'StartLimitInterval']);
  const d = get(u, 'ExecStart')!;
  assert.equal(
    d.value,
    '/usr/local/bin/kubelet $KUBELET_EXTRA_ARGS  \t--cgroup-driver=cgroupfs  \t--system-reserved=cpu=6,memory=24Gi  \tRestart=always',
  );
  assert.ok(d.value.endsWith('Restart=always'));
  assert.equal(get(u, 'Restart'), undefined);
  assert.equal(d.lastLine, 4);
  assert.deepEqual(d.span.range, { start: { line: 1, character: 0 }, end: { line: 4, character: 15 } });
  assert.deepEqual(d.keySpan.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 9 } });
  assert.equal(d.valueMap.segments.length, 4);
  assertMapsExactly(SEED, d.value, d.valueMap);
  assert.equal(get(u, 'StartLimitInterval')!.value, '0');
  assert.equal(u.problems.length, 0);
  assert.deepEqual(u.sections.map((s) => s.name), ['Service']);
});

test('comment line inside a continuation is skipped and the value goes on (conf-parser.c)', () => {
  const text = '[Service]\nExecStart=/bin/a \\\n# a comment\n  ; another\n  --b\nX=1\n';
  const u = parseUnit('/u', text);
  const d = get(u, 'ExecStart')!;
  assert.equal(d.value, '/bin/a    --b');
  assert.equal(d.lastLine, 4);
  assertMapsExactly(text, d.value, d.valueMap);
  assert.equal(get(u, 'X')!.value, '1');
});

test('a comment line ending in a backslash does not continue (conf-parser.c: comments are checked first)', () => {
  const u = parseUnit('/u', '[Service]\n# comment \\\nA=1\n');
  assert.equal(get(u, 'A')!.value, '1');
  assert.equal(u.problems.length, 0);
});

test('`#` or `;` later in a line is part of the value (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Service]\nA=x # not a comment ; neither\n');
  assert.equal(get(u, 'A')!.value, 'x # not a comment ; neither');
});

test('an even number of trailing backslashes (`\\\\`) does not continue (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Service]\nA=x\\\\\nB=2\n');
  assert.equal(get(u, 'A')!.value, 'x\\\\');
  assert.equal(get(u, 'B')!.value, '2');
});

test('three trailing backslashes continue; the last one becomes a space (conf-parser.c)', () => {
  const text = '[Service]\nA=x\\\\\\\nB=2\n';
  const u = parseUnit('/u', text);
  assert.equal(get(u, 'A')!.value, 'x\\\\ B=2');
  assert.equal(get(u, 'B'), undefined);
  assertMapsExactly(text, get(u, 'A')!.value, get(u, 'A')!.valueMap);
});

test('a backslash followed by trailing blanks does not continue (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Service]\nA=x \\  \nB=2\n');
  assert.equal(get(u, 'A')!.value, 'x \\');
  assert.equal(get(u, 'B')!.value, '2');
});

test('a blank line ends a continuation (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Service]\nA=x \\\n\nB=2\n');
  assert.equal(get(u, 'A')!.value, 'x');
  assert.equal(get(u, 'A')!.lastLine, 2);
  assert.equal(get(u, 'B')!.value, '2');
});

test('a continuation still pending at end of file is parsed as the last line (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Service]\nA=x \\\n  y \\');
  const d = get(u, 'A')!;
  // the last line's own trailing `\` also became a space before the EOF parse
  assert.equal(d.value, 'x    y');
  assert.equal(d.lastLine, 2);
});

test('continued lines are appended with their leading blanks (conf-parser.c strextend)', () => {
  const u = parseUnit('/u', '[Service]\nA=a\\\n   b\n');
  assert.equal(get(u, 'A')!.value, 'a    b');
});

test('a UTF-8 BOM is dropped once (conf-parser.c)', () => {
  const text = '\uFEFF[Service]\n\uFEFFA=1\n';
  const u = parseUnit('/u', text);
  assert.deepEqual(u.sections.map((s) => s.name), ['Service']);
  // the second BOM is not dropped: it is part of the key
  assert.equal(u.directives[0].key, '\uFEFFA');
});

test('a BOM before `#` hides the comment from the comment check (conf-parser.c checks comments before the BOM)', () => {
  const u = parseUnit('/u', '\uFEFF# comment\n[Service]\nA=1\n');
  assert.equal(u.problems.length, 1);
  assert.equal(u.problems[0].code, 'unit-syntax');
  assert.match(u.problems[0].message, /outside of section/);
  assert.equal(get(u, 'A')!.value, '1');
});

test('a file without a final newline keeps its last line (fileio.c read_line: EOF ends a line)', () => {
  const u = parseUnit('/u', '[Service]\nA=1');
  assert.equal(get(u, 'A')!.value, '1');
  assert.deepEqual(get(u, 'A')!.valueMap.span(0, 1).range, { start: { line: 1, character: 2 }, end: { line: 1, character: 3 } });
});

test('CRLF line ends: the \\r is not part of the value, and `\\` before CRLF continues (fileio.c read_line)', () => {
  const text = '[Service]\r\nA=1 \r\nB=x \\\r\n  y\r\nC=3';
  const u = parseUnit('/u', text);
  assert.equal(get(u, 'A')!.value, '1');
  assert.equal(get(u, 'B')!.value, 'x    y');
  assert.equal(get(u, 'B')!.lastLine, 3);
  assertMapsExactly(text, get(u, 'B')!.value, get(u, 'B')!.valueMap);
  assert.equal(get(u, 'C')!.value, '3');
});

test('a lone \\r also ends a line (fileio.c read_line: \\n, \\r, \\r\\n, \\n\\r)', () => {
  const u = parseUnit('/u', '[Service]\rA=1\rB=2\n\rC=3\n');
  assert.deepEqual(u.directives.map((d) => [d.key, d.value]), [['A', '1'], ['B', '2'], ['C', '3']]);
});

test('key and value are trimmed and split at the first `=` (conf-parser.c parse_line)', () => {
  const text = '[Service]\n  Environment =  A=b=c  \n';
  const u = parseUnit('/u', text);
  const d = u.directives[0];
  assert.equal(d.key, 'Environment');
  assert.equal(d.value, 'A=b=c');
  assert.deepEqual(d.keySpan.range, { start: { line: 1, character: 2 }, end: { line: 1, character: 13 } });
  assert.deepEqual(d.valueMap.span(0, 5).range, { start: { line: 1, character: 17 }, end: { line: 1, character: 22 } });
});

test('an empty assignment is returned as a directive with an empty value (conf-parser.c; the reset is the setting parser\'s)', () => {
  const u = parseUnit('/u', '[Service]\nExecStart=\nEnvironment=   \n');
  assert.deepEqual(u.directives.map((d) => [d.key, d.value]), [['ExecStart', ''], ['Environment', '']]);
});

test('"Missing \'=\'" is a warning placed on the last physical line of a continued line (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Service]\nfoo \\\n  bar \\\n  baz\nA=1\n');
  assert.equal(u.problems.length, 1);
  const p = u.problems[0];
  assert.equal(p.code, 'unit-syntax');
  assert.equal(p.severity, 'warning');
  assert.match(p.message, /Missing '='/);
  assert.equal(p.range.start.line, 3);
  assert.equal(p.range.end.line, 3);
  assert.equal(get(u, 'A')!.value, '1');
});

test('an empty key is a warning, not an error, in the source (conf-parser.c: "Missing key name before \'=\'")', () => {
  const u = parseUnit('/u', '[Service]\n=x\n');
  assert.equal(u.problems[0].severity, 'warning');
  assert.match(u.problems[0].message, /Missing key name/);
  assert.equal(u.directives.length, 0);
});

test('an assignment before any section is ignored with a warning (conf-parser.c)', () => {
  const u = parseUnit('/u', 'A=1\n[Service]\nB=2\n');
  assert.equal(u.problems.length, 1);
  assert.match(u.problems[0].message, /Assignment outside of section/);
  assert.deepEqual(u.problems[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } });
  assert.deepEqual(u.directives.map((d) => d.key), ['B']);
});

test('a section header without `]` is an error: systemd refuses the file (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Service\nA=1\n');
  assert.equal(u.problems[0].code, 'unit-section-header');
  assert.equal(u.problems[0].severity, 'error');
  const v = parseUnit('/u', '[Ser"vice]\n');
  assert.equal(v.problems[0].code, 'unit-section-header');
  assert.match(v.problems[0].message, /Bad characters/);
});

test('section headers are recorded with their spans and switch the section (conf-parser.c)', () => {
  const u = parseUnit('/u', '[Unit]\nDescription=x\n  [Service]  \nA=1\n');
  assert.deepEqual(u.sections.map((s) => [s.name, s.span.range.start.character, s.span.range.end.character]), [
    ['Unit', 0, 6],
    ['Service', 2, 11],
  ]);
  assert.deepEqual(u.directives.map((d) => d.section), ['Unit', 'Service']);
});

test('a line of LONG_LINE_MAX (1 MiB) bytes or more is an error, never a crash, and is fast (fileio.c read_line -ENOBUFS); systemd stops reading the file there (252)', () => {
  const long = 'A=' + 'x'.repeat(LONG_LINE_MAX + 10);
  const t0 = performance.now();
  const u = parseUnit('/u', `[Service]\n${long}\nB=2\n`);
  const ms = performance.now() - t0;
  assert.ok(ms < HANG_MS, `took ${ms} ms`);
  assert.equal(u.problems.length, 1);
  assert.equal(u.problems[0].code, 'unit-line-too-long');
  assert.equal(u.problems[0].severity, 'error');
  assert.equal(u.problems[0].range.start.line, 1);
  assert.equal(get(u, 'A'), undefined);
  assert.equal(get(u, 'B'), undefined);
  // just under the limit (counted in UTF-8 bytes) is fine
  const ok = parseUnit('/u', '[Service]\nA=' + 'x'.repeat(LONG_LINE_MAX - 3) + '\n');
  assert.equal(ok.problems.length, 0);
  const multi = parseUnit('/u', '[Service]\nA=' + 'é'.repeat(LONG_LINE_MAX / 2) + '\n');
  assert.equal(multi.problems[0]?.code, 'unit-line-too-long');
});

test('continued lines joining to over 1 MiB are an error (conf-parser.c "Continuation line too long"); nothing after it is read', () => {
  const half = 'x'.repeat(LONG_LINE_MAX / 2 + 10);
  const u = parseUnit('/u', `[Service]\nA=${half} \\\n${half}\nB=1\n`);
  assert.equal(u.problems[0].code, 'unit-line-too-long');
  assert.match(u.problems[0].message, /Continuation/);
  assert.equal(get(u, 'B'), undefined);
});

test('the 1 MiB limit of a continued line counts UTF-8 bytes, not characters, across many short pieces', () => {
  // 2,000 pieces of 200 ASCII characters: 400 kB, far below the limit, though 3 bytes per character would exceed it.
  const ascii = Array.from({ length: 2000 }, () => 'x'.repeat(200) + ' \\\n').join('');
  const a = parseUnit('/u', `[Service]\nA=${ascii}end\nB=1\n`);
  assert.deepEqual(a.problems, []);
  assert.equal(get(a, 'A')!.value.length, 2000 * 202 + 3); // each piece: 200 x, its blank, its `\` turned into a blank
  // The same number of characters as 2-byte "é" (and one more piece): over 1 MiB of UTF-8.
  const wide = Array.from({ length: 2700 }, () => 'é'.repeat(200) + ' \\\n').join('');
  const w = parseUnit('/u', `[Service]\nA=${wide}end\nB=1\n`);
  assert.equal(w.problems[0]?.code, 'unit-line-too-long');
  assert.match(w.problems[0].message, /Continuation/);
  assert.equal(get(w, 'B'), undefined);
});

test('a 5 MB unit file with a 900 kB continued line parses without hanging (linear time; measured by npm run bench)', () => {
  const line = '\t--flag-number-something=' + 'v'.repeat(60) + ' \\\n';
  const parts: string[] = ['[Service]\n', 'ExecStart=/bin/x \\\n'];
  let size = 0;
  for (let i = 0; size < 900_000; i++) {
    parts.push(line);
    size += line.length;
  }
  parts.push('\tlast\n');
  for (let i = 0; size < 5_000_000; i++) {
    const l = `Key${i}=value number ${i} # trailing\n`;
    parts.push(l);
    size += l.length;
  }
  const text = parts.join('');
  const t0 = performance.now();
  const u = parseUnit('/u', text);
  const ms = performance.now() - t0;
  assert.ok(ms < HANG_MS, `took ${ms} ms`);
  assert.equal(u.problems.length, 0);
  assert.ok(get(u, 'ExecStart')!.value.endsWith('last'));
  assert.ok(u.directives.length > 100_000);
});

test('spans computed on first read (directive, key, words) read, compare and serialise like plain spans', () => {
  const text = '[Service]\nEnvironment="A=1 2" B=3\nExecStart=/bin/x \\\n  --v=2\n';
  const u = parseUnit('/u', text);
  const env = get(u, 'Environment')!;
  const plain = (s: { file: string; range: unknown }) => ({ file: s.file, range: s.range });
  assert.deepEqual(plain(env.keySpan), { file: '/u', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 11 } } });
  assert.deepEqual(plain(env.span), { file: '/u', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 23 } } });
  // The same object on every read (callers compare ranges by identity, e.g. span === wholeWord), and JSON has both fields.
  assert.equal(env.span.range, env.span.range);
  assert.deepEqual(JSON.parse(JSON.stringify(env.keySpan)), plain(env.keySpan));
  const sub = env.valueMap.span(1, 4); // A=1 inside the quotes
  assert.deepEqual(JSON.parse(JSON.stringify(sub)), { file: '/u', range: { start: { line: 1, character: 13 }, end: { line: 1, character: 16 } } });
  // A continued directive's span runs from its first line to the end of its last.
  assert.deepEqual(get(u, 'ExecStart')!.span.range, { start: { line: 2, character: 0 }, end: { line: 3, character: 7 } });
});

// Issue #25, checked against Debian's systemd 252 (test/oracle/units.ts generates them): config_parse() ends at a line
// it cannot read. The unit file is refused; of a drop-in, what came before stays and the rest is ignored.
test('after a bad section header systemd reads no more of the file: a drop-in keeps what came before, a unit file is refused', () => {
  const d = parseUnit('/etc/systemd/system/kubelet.service.d/10-x.conf', '[Service]\nA=1\n[Service] x\nB=2\n[Service]\nC=3\n');
  assert.equal(get(d, 'A')!.value, '1');
  assert.equal(get(d, 'B'), undefined);
  assert.equal(get(d, 'C'), undefined);
  assert.equal(d.problems[0]?.code, 'unit-section-header');
  assert.match(d.problems[0]!.message, /ignores the rest of this drop-in/);
  const u = parseUnit('/etc/systemd/system/kubelet.service', '[Service]\nA=1\n[Bad\nB=2\n');
  assert.equal(get(u, 'B'), undefined);
  assert.match(u.problems[0]!.message, /refuses to load this file/);
});
