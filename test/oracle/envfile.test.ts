/**
 * Differential test of environment files against Debian's systemd 252: its environment.d generator reads files with
 * the same parser as EnvironmentFile= (parse_env_file_internal() in src/basic/env-file.c). systemd 252 predates 254,
 * so the engine's reading for systemd before 254 (EnvFile.before254, where it differs) must match.
 * Kept out: `$` (the generator expands variables, EnvironmentFile= does not), values with line breaks (its output is
 * one line per variable), non-characters (systemd 252's generator crashes on them: a double free).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseEnvFile } from '../../server/src/parse/systemd/envfile.ts';
import { missing, REQUIRED, runEnvFiles } from './oracles.ts';

const notReady = missing('envfile');
const skip = notReady && !REQUIRED ? notReady : false;

const CASES = 1000;

const line = fc.oneof(
  fc.constantFrom('KLT_A=1', 'KLT_B="x y"', "KLT_C='a b'", 'KLT_D=a\\\n  b', 'KLT_E=x # not a comment', 'KLT_F= spaced  ', 'KLT_G="q\\"r"', "KLT_H='it''s'"),
  fc.constantFrom('# comment', '# comment \\', '; comment \\', '#\\', '# two \\\\', '', '   ', 'export KLT_X=1', 'KLT Y=1', 'KLT_I = 2', 'NOEQUALS', 'KLT_J=\\"q', 'KLT_K="a"b', 'KLT_L=--v=2 --x="y"'),
);

const file = fc.tuple(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\n', '\r\n'), fc.boolean()).map(([ls, nl, end]) => ls.join(nl) + (end ? nl : ''));

test(`env files read as systemd 252 reads them (${CASES} generated files, seed 1; comment continuation before 254)`, { skip }, () => {
  assert.equal(notReady, undefined, notReady);
  // file i names its variables K<i>_* (one generator run reads them all)
  const texts = fc.sample(file, { numRuns: CASES, seed: 1 }).map((t, i) => t.replaceAll('KLT', `K${i}`));
  const sd = runEnvFiles(texts);
  const diffs: string[] = [];
  texts.forEach((t, i) => {
    const f = parseEnvFile('e', t);
    const engine = new Map((f.before254 ?? f).assignments.filter((a) => a.name.startsWith(`K${i}_`)).map((a) => [a.name, a.value]));
    const a = JSON.stringify([...sd[i]!].sort());
    const b = JSON.stringify([...engine].sort());
    if (a !== b) diffs.push(`${JSON.stringify(t)}\nsystemd: ${a}\nengine:  ${b}`);
  });
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES} files read differently:\n${diffs.slice(0, 5).join('\n\n')}`);
});
