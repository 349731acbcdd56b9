/**
 * Generated environment files for the differential test against systemd's env-file parser (through its
 * environment.d generator, test/oracle/oracles.ts runEnvFiles), and the comparison. Debian's systemd is 252, older
 * than 254, so the engine's reading for systemd before 254 (EnvFile.before254, where it differs) must match.
 * Kept out: `$` (the generator expands variables, EnvironmentFile= does not), values with line breaks (its output is
 * one line per variable), non-characters (systemd 252's generator crashes on them: a double free).
 */
import fc from 'fast-check';
import { parseEnvFile } from '../../server/src/parse/systemd/envfile.ts';
import { runEnvFiles } from './oracles.ts';

const line = fc.oneof(
  fc.constantFrom('KLT_A=1', 'KLT_B="x y"', "KLT_C='a b'", 'KLT_D=a\\\n  b', 'KLT_M=a\\\r  b', 'KLT_E=x # not a comment', 'KLT_F= spaced  ', 'KLT_G="q\\"r"', "KLT_H='it''s'"),
  fc.constantFrom('# comment', '# comment \\', '; comment \\', '#\\', '# two \\\\', '', '   ', 'export KLT_X=1', 'KLT Y=1', 'KLT_I = 2', 'NOEQUALS', 'KLT_J=\\"q', 'KLT_K="a"b', 'KLT_L=--v=2 --x="y"'),
);

export const envFileText: fc.Arbitrary<string> = fc
  .tuple(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\n', '\r\n', '\r'), fc.boolean())
  .map(([ls, nl, end]) => ls.join(nl) + (end ? nl : ''));

/** Every file the engine reads differently from systemd 252, with both readings. */
export function compareEnvFiles(generated: readonly string[]): { text: string; diff: string }[] {
  // file i names its variables K<i>_* (one generator run reads them all)
  const texts = generated.map((t, i) => t.replaceAll('KLT', `K${i}`));
  const sd = runEnvFiles(texts);
  const out: { text: string; diff: string }[] = [];
  texts.forEach((t, i) => {
    const f = parseEnvFile('e', t);
    const engine = new Map((f.before254 ?? f).assignments.filter((a) => a.name.startsWith(`K${i}_`)).map((a) => [a.name, a.value]));
    const a = JSON.stringify([...sd[i]!].sort());
    const b = JSON.stringify([...engine].sort());
    if (a !== b) out.push({ text: t, diff: `systemd: ${a}\nengine:  ${b}` });
  });
  return out;
}
