/**
 * Generated environment files for the differential test against systemd's env-file parser (through its
 * environment.d generator, test/oracle/oracles.ts runEnvFiles), and the comparison. Debian's systemd is 252, older
 * than 254, so the engine's reading for systemd before 254 (EnvFile.before254, where it differs) must match. A NUL byte
 * anywhere makes systemd read nothing of the file.
 * Kept out: `$` (the generator expands variables, EnvironmentFile= does not), values with line breaks (its output is
 * one line per variable), non-characters and invalid UTF-8 in a value (systemd 252's generator aborts on them, and the
 * engine sees invalid bytes only as U+FFFD, which a file may also hold as a character).
 */
import fc from 'fast-check';
import { parseEnvFile } from '../../server/src/parse/systemd/envfile.ts';
import { runEnvFiles } from './oracles.ts';

const line = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('KLT_A=1', 'KLT_B="x y"', "KLT_C='a b'", 'KLT_D=a\\\n  b', 'KLT_M=a\\\r  b', 'KLT_E=x # not a comment', 'KLT_F= spaced  ', 'KLT_G="q\\"r"', "KLT_H='it''s'") },
  { weight: 20, arbitrary: fc.constantFrom('# comment', '# comment \\', '; comment \\', '#\\', '# two \\\\', '', '   ', 'export KLT_X=1', 'KLT Y=1', 'KLT_I = 2', 'NOEQUALS', 'KLT_J=\\"q', 'KLT_K="a"b', 'KLT_L=--v=2 --x="y"') },
  // a NUL byte, in a value or a comment: systemd reads nothing of the file (issue #25)
  { weight: 1, arbitrary: fc.constantFrom('KLT_N=a\0b', '# c\0', 'KLT_O="\0"') },
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
