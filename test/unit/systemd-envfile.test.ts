import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnvFile } from '../../server/src/parse/systemd/envfile.ts';
import { LineIndex, type TextMap } from '../../server/src/model/range.ts';
import type { EnvFile } from '../../server/src/parse/types.ts';
import { HANG_MS } from '../helpers/hang.ts';

function vars(f: EnvFile): [string, string][] {
  return f.assignments.map((a) => [a.name, a.value]);
}

/** Every character of `value` maps to the file character it was copied from. */
function assertMapsExactly(file: string, value: string, map: TextMap): void {
  const idx = new LineIndex(file);
  for (let i = 0; i < value.length; i++) {
    const p = map.position(i);
    assert.equal(file[idx.starts[p.line] + p.character], value[i], `char ${i} of ${JSON.stringify(value)}`);
  }
}

test('quotes are special only at the start of a value: A=--x=\'y\' keeps them (env-file.c VALUE state)', () => {
  const text = `A=--x='y'\nB="x y"\nC='a b'\n`;
  const f = parseEnvFile('/e', text);
  assert.deepEqual(vars(f), [['A', "--x='y'"], ['B', 'x y'], ['C', 'a b']]);
  for (const a of f.assignments) assertMapsExactly(text, a.value, a.valueMap);
  assert.equal(f.problems.length, 0);
});

test('after a closing quote the value may go on: A="a b" c gives "a bc" (env-file.c: quote ends in PRE_VALUE)', () => {
  const f = parseEnvFile('/e', `A="a b" c\nB='x'"y"\n`);
  assert.deepEqual(vars(f), [['A', 'a bc'], ['B', 'xy']]);
});

test('inside double quotes a backslash escapes " \\ ` $ and newline, and is kept before anything else (env-file.c)', () => {
  const text = 'A="q\\"b\\\\c\\$d\\`e\\nf"\n';
  const f = parseEnvFile('/e', text);
  assert.deepEqual(vars(f), [['A', 'q"b\\c$d`e\\nf']]);
  assertMapsExactly(text, f.assignments[0].value, f.assignments[0].valueMap);
});

test('a backslash-newline inside double quotes is eaten; a plain newline is kept (env-file.c)', () => {
  const text = 'A="one \\\ntwo\nthree"\nB=1\n';
  const f = parseEnvFile('/e', text);
  assert.deepEqual(vars(f), [['A', 'one two\nthree'], ['B', '1']]);
  const a = f.assignments[0];
  assertMapsExactly(text, a.value, a.valueMap);
  assert.deepEqual(a.valueMap.span(4, 7).range, { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } });
});

test('single quotes take everything literally, backslashes included (env-file.c SINGLE_QUOTE_VALUE)', () => {
  const f = parseEnvFile('/e', "A='a\\nb \\'\n");
  // the backslash does not escape the quote: the value ends at the second quote
  assert.deepEqual(vars(f), [['A', 'a\\nb \\']]);
});

test('an unquoted backslash-newline continues the value on the next line, leading blanks kept (env-file.c VALUE_ESCAPE)', () => {
  const text = 'A=--a=1 \\\n  --b=2\nB=x\n';
  const f = parseEnvFile('/e', text);
  assert.deepEqual(vars(f), [['A', '--a=1   --b=2'], ['B', 'x']]);
  const a = f.assignments[0];
  assertMapsExactly(text, a.value, a.valueMap);
  assert.equal(a.valueMap.segments.length, 2);
  assert.deepEqual(a.span.range, { start: { line: 0, character: 0 }, end: { line: 1, character: 7 } });
});

test('an unquoted backslash before another character gives that character (env-file.c VALUE_ESCAPE)', () => {
  const f = parseEnvFile('/e', 'A=a\\ b\\"c\n');
  assert.deepEqual(vars(f), [['A', 'a b"c']]);
});

test('leading and trailing blanks of an unquoted value are removed, inner blanks kept (env-file.c last_value_whitespace)', () => {
  const text = 'A=   x  y   \nB= \t\nC=" x "  \n';
  const f = parseEnvFile('/e', text);
  assert.deepEqual(vars(f), [['A', 'x  y'], ['B', ''], ['C', ' x ']]);
  assert.deepEqual(f.assignments[0].valueMap.span(0, 4).range, { start: { line: 0, character: 5 }, end: { line: 0, character: 9 } });
});

test('an escaped trailing blank is kept (env-file.c: a backslash resets last_value_whitespace)', () => {
  const f = parseEnvFile('/e', 'A=x\\  \n');
  assert.deepEqual(vars(f), [['A', 'x ']]);
});

test('# and ; start comment lines only where a key could start; later they are part of the value (env-file.c)', () => {
  const f = parseEnvFile('/e', '# c\n  ; c2\nA=b # not a comment\nB=1;2\n');
  assert.deepEqual(vars(f), [['A', 'b # not a comment'], ['B', '1;2']]);
  assert.equal(f.problems.length, 0);
});

test('a comment ending in a backslash does not swallow the next line (env-file.c COMMENT_ESCAPE, since v254)', () => {
  const f = parseEnvFile('/e', '# comment \\\nA=1\n');
  assert.deepEqual(vars(f), [['A', '1']]);
});

test('`export FOO=bar` is not understood: the key "export FOO" is invalid and dropped (env-file.c + execute.c strv_env_clean_with_callback)', () => {
  const f = parseEnvFile('/e', 'export FOO=bar\nBAR=1\n');
  assert.deepEqual(vars(f), [['BAR', '1']]);
  assert.equal(f.problems.length, 1);
  assert.equal(f.problems[0].code, 'envfile-invalid-name');
  assert.match(f.problems[0].message, /export/);
  assert.deepEqual(f.problems[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 10 } });
});

test('invalid names (leading digit, dash, empty) are dropped with a warning (env-util.c env_name_is_valid)', () => {
  const f = parseEnvFile('/e', '1A=x\nA-B=y\n==z\n_OK9=1\n');
  assert.deepEqual(vars(f), [['_OK9', '1']]);
  assert.equal(f.problems.filter((p) => p.code === 'envfile-invalid-name').length, 3);
});

test('a line starting with `=` has no `=` for the parser: PRE_KEY takes the first `=` as part of the key (env-file.c)', () => {
  const f = parseEnvFile('/e', '=z\nA=1\n');
  assert.deepEqual(vars(f), [['A', '1']]);
  assert.equal(f.problems.length, 1);
  assert.equal(f.problems[0].code, 'envfile-syntax');
});

test('blanks around the key are removed: "  A  =b" sets A (env-file.c last_key_whitespace)', () => {
  const text = '  A  =b\n';
  const f = parseEnvFile('/e', text);
  assert.deepEqual(vars(f), [['A', 'b']]);
  assert.deepEqual(f.assignments[0].nameSpan.range, { start: { line: 0, character: 2 }, end: { line: 0, character: 3 } });
});

test('a line without `=` is dropped (env-file.c KEY state at newline)', () => {
  const f = parseEnvFile('/e', 'JUSTAKEY\nA=1\nTAIL');
  assert.deepEqual(vars(f), [['A', '1']]);
  assert.equal(f.problems.filter((p) => p.code === 'envfile-syntax').length, 2);
});

test('an empty value is an empty string; the last line needs no newline (env-file.c: push at EOF)', () => {
  const f = parseEnvFile('/e', 'A=\nB=2');
  assert.deepEqual(vars(f), [['A', ''], ['B', '2']]);
});

test('CRLF: \\r ends the value, and a backslash before CRLF does not continue (env-file.c: NEWLINE is "\\n\\r")', () => {
  const f = parseEnvFile('/e', 'A=1 \r\nB=x\\\r\nC=3\r\n');
  assert.deepEqual(vars(f), [['A', '1'], ['B', 'x'], ['C', '3']]);
});

test('an unclosed quote runs to the end of the file and is reported (env-file.c: push at EOF in DOUBLE_QUOTE_VALUE)', () => {
  const f = parseEnvFile('/e', 'A="x\nB=2\n');
  assert.deepEqual(vars(f), [['A', 'x\nB=2\n']]);
  assert.equal(f.problems[0].code, 'envfile-unterminated-quote');
  assert.deepEqual(f.problems[0].range.start, { line: 0, character: 2 });
});

test('duplicate names are all returned in file order; the last one wins for the caller (env-file.c strv_env_replace_consume)', () => {
  const f = parseEnvFile('/e', 'A=1\nA=2\n');
  assert.deepEqual(vars(f), [['A', '1'], ['A', '2']]);
});

test('a 5 MB env file parses without hanging', () => {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < 5_000_000; i++) {
    const l = i % 3 === 0 ? `K${i}="quoted value \\" ${i}"\n` : i % 3 === 1 ? `K${i}=--flag=${i}  \\\n  --more\n` : `# comment ${i}\n`;
    parts.push(l);
    size += l.length;
  }
  const text = parts.join('');
  const t0 = performance.now();
  const f = parseEnvFile('/e', text);
  const ms = performance.now() - t0;
  assert.ok(ms < HANG_MS, `took ${ms} ms`);
  assert.ok(f.assignments.length > 50_000);
  assert.equal(f.problems.length, 0);
});

test('assignment spans are computed on first read and serialise like plain spans (a CRLF line end stays outside)', () => {
  const env = parseEnvFile('/e', 'A=1\r\nBB="x y"\r\n');
  const b = env.assignments[1];
  assert.deepEqual(JSON.parse(JSON.stringify(b.nameSpan)), { file: '/e', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } } });
  assert.deepEqual(b.span.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 8 } });
  assert.equal(b.span.range, b.span.range);
});

// Checked against Debian's systemd 252 through its environment.d generator (test/oracle/envfile.test.ts); the change
// is in src/basic/env-file.c, whose COMMENT_ESCAPE state ends the comment at a line break only since v254.
test('a comment ending in `\\` swallows the next line before systemd 254 (EnvFile.before254), not since; flagged', () => {
  const f = parseEnvFile('e', 'A=1\n# note \\\nB=2\nC=3\n');
  assert.deepEqual(vars(f), [['A', '1'], ['B', '2'], ['C', '3']]);
  assert.deepEqual(vars(f.before254!), [['A', '1'], ['C', '3']]);
  const w = f.problems.filter((p) => p.code === 'envfile-comment-continuation');
  assert.equal(w.length, 1);
  assert.deepEqual(w[0]!.range, { start: { line: 1, character: 7 }, end: { line: 1, character: 8 } });
  // a blank or comment line next, or a CRLF file (the `\` eats only the \r), reads the same to both: no second reading
  for (const same of ['# note \\\n\nB=2\n', '# note \\\n# more\nB=2\n', '# note \\\r\nB=2\r\n', '# note \\\\\nB=2\n']) {
    const g = parseEnvFile('e', same);
    assert.equal(g.before254, undefined, JSON.stringify(same));
    assert.equal(g.problems.length, 0, JSON.stringify(same));
  }
});

test('a non-character or lone surrogate in a name or value: systemd refuses the whole file (utf8.c unichar_is_valid)', () => {
  for (const bad of ['A=1\nB=x\ufffey\n', 'A=1\nB=\ufdd0\n', 'A=\ud83f\udfff\n', 'A=x\ud800\n']) {
    const f = parseEnvFile('e', bad);
    assert.deepEqual(vars(f), [], JSON.stringify(bad));
    assert.deepEqual(f.problems.map((p) => [p.code, p.severity]), [['envfile-invalid-text', 'error']], JSON.stringify(bad));
  }
  // in a comment, or a valid astral character, it is fine
  assert.deepEqual(vars(parseEnvFile('e', '# \ufffe\nA=\ud83d\ude00\n')), [['A', '\ud83d\ude00']]);
});
