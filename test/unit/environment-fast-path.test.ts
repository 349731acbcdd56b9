/**
 * Two common forms are read without the general extract_first_word() port: Environment="NAME=value" (one
 * double-quoted word without a backslash, inner quote or "%", server/src/parse/systemd/environment.ts) and a
 * variable's value of one flag split into words (splitVariable, exec.ts). Each must give what that reader gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseUnit } from '../../server/src/parse/systemd/unit.ts';
import { parseEnvironmentDirective, envNameIsValid } from '../../server/src/parse/systemd/environment.ts';
import { EXTRACT_CUNESCAPE, EXTRACT_RELAX, EXTRACT_UNQUOTE, extractFirstWord, toWord } from '../../server/src/parse/systemd/words.ts';
import { splitVariable } from '../../server/src/parse/systemd/exec.ts';

/** What the general reader makes of the directive's one word: the assignment's parts and places, or the problem. */
function viaReader(d: ReturnType<typeof parseUnit>['directives'][number]) {
  const res = extractFirstWord(d.value, 0, EXTRACT_CUNESCAPE | EXTRACT_UNQUOTE);
  assert.equal(res.kind, 'word');
  if (res.kind !== 'word') return undefined;
  assert.equal(res.next, null, 'one word');
  const w = toWord(res, d);
  const eq = w.text.indexOf('=');
  if (eq === -1 || !envNameIsValid(w.text.slice(0, eq))) return { problem: w.span.range };
  return {
    name: w.text.slice(0, eq),
    value: w.text.slice(eq + 1),
    nameSpan: w.map.span(0, eq).range,
    valueMap: w.map.slice(eq + 1, w.text.length).segments,
    span: w.span.range,
  };
}

test('Environment="NAME=value" read directly equals the general reader: assignment, spans, value map, or the invalid-name problem', () => {
  const inner = fc.array(fc.constantFrom('A', 'b', '_', '9', '=', ' ', '\t', '-', '.', '/', "'", 'é', ':', ','), { minLength: 1, maxLength: 24 }).map((cs) => cs.join(''));
  const indent = fc.constantFrom('', ' ', '\t  ');
  fc.assert(
    fc.property(inner, indent, (s, pad) => {
      const u = parseUnit('u.service', `[Service]\n${pad}Environment=${pad}"${s}"${pad}\n`);
      const d = u.directives[0];
      const want = viaReader(d)!;
      const got = parseEnvironmentDirective(d);
      if ('problem' in want) {
        assert.equal(got.assignments.length, 0);
        assert.deepEqual(got.problems.map((p) => [p.code, p.range]), [['environment-invalid', want.problem]]);
        return;
      }
      assert.deepEqual(got.problems, []);
      const [a] = got.assignments;
      assert.deepEqual(
        { name: a.name, value: a.value, nameSpan: a.nameSpan.range, valueMap: a.valueMap.segments, span: a.span.range },
        want,
      );
    }),
    { numRuns: 3000, seed: 20261130 },
  );
});

test('what the direct read leaves to the general reader: "", a backslash, an inner quote, a specifier, two words', () => {
  const read = (v: string) => parseEnvironmentDirective(parseUnit('u.service', `[Service]\nEnvironment=${v}\n`).directives[0]);
  assert.deepEqual(read('""').problems.map((p) => p.code), ['environment-invalid']);
  assert.deepEqual(read('"A=x\\ty"').assignments.map((a) => a.value), ['x\ty']);
  assert.deepEqual(read('"A=1" "B=2"').assignments.map((a) => a.name), ['A', 'B']);
  assert.deepEqual(read('"A=%%"').assignments.map((a) => a.value), ['%']);
  assert.deepEqual(read('"A=%Z"').problems.map((p) => p.code), ['environment-specifier']);
});

test('a variable value of one flag is split into itself directly: the same word, span and map as the general reader', () => {
  const chars = fc.constantFrom('-', 'a', 'Z', '=', '9', '_', '.', '/', ',', ':', '%', '$', '{', 'é', ' ', '"', "'", '\\');
  fc.assert(
    fc.property(fc.array(chars, { minLength: 1, maxLength: 30 }).map((cs) => cs.join('')), (v) => {
      const d = parseUnit('u.service', `[Service]\nEnvironment="K=${v.replace(/["\\]/g, '\\$&')}"\n`).directives[0];
      const [a] = parseEnvironmentDirective(d).assignments;
      if (!a) return;
      const via = { variable: 'K', span: a.nameSpan };
      const got = splitVariable(a, via).map((w) => [w.text, w.span.range, w.map.segments, w.via?.variable]);
      // The general reader, word by word.
      const want: unknown[] = [];
      let p: number | null = 0;
      for (;;) {
        const res = extractFirstWord(a.value, p, EXTRACT_RELAX | EXTRACT_UNQUOTE);
        if (res.kind !== 'word') break;
        const w = toWord(res, a);
        want.push([w.text, w.span.range, w.map.segments, 'K']);
        p = res.next;
      }
      assert.deepEqual(got, want);
    }),
    { numRuns: 3000, seed: 20261130 },
  );
});

test('envNameIsValid is env_name_is_valid() (src/basic/env-util.c): a letter or "_", then letters, digits and "_" (ASCII only)', () => {
  // systemd's definition, character by character: valid_bash_env_name_char() and no leading digit.
  const reference = (name: string): boolean => {
    if (name.length === 0 || (name[0] >= '0' && name[0] <= '9')) return false;
    for (const c of name) if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_')) return false;
    return true;
  };
  const chars = fc.constantFrom('A', 'z', '_', '0', '9', '-', '.', ' ', '\n', '=', 'é', 'ſ', 'K', '$');
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 12 }), (cs) => {
      const name = cs.join('');
      // Also as a slice of a longer string, which is how the readers pass names.
      const sliced = `x${name}\n`.slice(1, name.length + 1);
      assert.equal(envNameIsValid(name), reference(name));
      assert.equal(envNameIsValid(sliced), reference(name));
    }),
    { numRuns: 5000, seed: 20261130 },
  );
  assert.equal(envNameIsValid('KUBELET_EXTRA_ARGS\n'), false, 'no trailing newline, unlike a Perl "$"');
});
