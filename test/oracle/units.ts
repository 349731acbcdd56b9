/**
 * Generated services (a unit plus drop-ins) for the differential test against systemd, the engine's reading of
 * them, and the comparison. Shared by test/oracle/systemd.test.ts (a bounded number) and test/fuzz/run-long.ts.
 *
 * Deliberate differences, kept out of the generator:
 *  - specifiers other than `%%` (%n, %b, %H, ...): systemd resolves them to this machine's and this unit's values
 *    (%b is the boot id), the engine keeps them as written;
 *  - C escapes giving a newline (`\n`): systemd's dump is line-based and cannot show them;
 *  - non-ASCII text: covered by the engine's own tests; here every byte is shown the same by both.
 */
import fc from 'fast-check';
import { parseUnit } from '../../server/src/parse/systemd/unit.ts';
import { parseExecCommands } from '../../server/src/parse/systemd/exec.ts';
import { buildService } from '../../server/src/node/service.ts';
import type { ServiceCase, SystemdVerdict } from './oracles.ts';

// ---------------------------------------------------------------------------------------------
// Generator

const VARS = ['A', 'B', 'KUBELET_EXTRA_ARGS', 'X_1'];

/** One word of a command line, in the forms config_parse_exec() treats differently. */
const execWord: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('--v=2', '--config=/var/lib/kubelet/config.yaml', '--node-labels=a=b,c=d', '-x', 'plain', '=', '--a=b=c') },
  { weight: 3, arbitrary: fc.constantFrom(...VARS).chain((v) => fc.constantFrom(`$${v}`, `\${${v}}`, `--f=$${v}`, `--f=\${${v}}`, `"$${v}"`, `'$${v}'`, `$$${v}`, `\${${v}:-x}`, `$1${v}`, `\${}`)) },
  { weight: 3, arbitrary: fc.constantFrom('"two words"', "'two words'", '"a\\"b"', "'a\\'b'", '""', "''", 'a"b c"d', "x'y'z", '"x"y', '"tab\\there"', '\\x41', '\\101', '\\u00e9', '\\\\', '\\q', '"\\q"', 'a\\ b', '\\"', '%%', '--x=%%y') },
  { weight: 1, arbitrary: fc.constantFrom('\\;', ';', "'unterminated", '"unterminated', 'end\\') },
);

const execLine: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '', '', '-', '@', '-@', '+', ':'),
    fc.constantFrom('/usr/bin/kubelet', '/usr/bin/kubelet', 'kubelet', '"/usr/bin/kubelet"', '/usr/bin/', 'bin/kubelet', "'/usr/bin/kube let'"),
    fc.array(fc.tuple(execWord, fc.constantFrom(' ', ' ', ' ', '  ', '\t', ' \\\n  ', ' \\\n#c\n  ')), { maxLength: 6 }),
  )
  .map(([pre, path, words]) => `ExecStart=${pre}${path}${words.map(([w, sep]) => sep + w).join('')}`);

const envWord: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...VARS), fc.constantFrom('1', '--v=2 --x=y', '', '$A', '${B}', 'a\\x20b', '%%', 'q\\"q', "it's")).map(([n, v]) => (v.includes(' ') || v.includes("'") ? `"${n}=${v}"` : `${n}=${v}`)) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...VARS), fc.constantFrom('1 2', 'a "b" c', 'x\\ty')).map(([n, v]) => `'${n}=${v}'`) },
  { weight: 1, arbitrary: fc.constantFrom('1X=bad', 'NOEQ', '=v', '"A=unterminated', 'A-B=1', '"A=x"y', 'A=\\q') },
);

const envLine = fc.array(envWord, { minLength: 0, maxLength: 3 }).map((ws) => `Environment=${ws.join(' ')}`);

const line: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: execLine },
  { weight: 3, arbitrary: execLine.map((l) => `ExecStart=\n${l}`) },
  { weight: 1, arbitrary: fc.constant('ExecStart=') },
  { weight: 3, arbitrary: envLine },
  { weight: 1, arbitrary: fc.constantFrom('# comment', '; comment', '', 'Restart=always', 'RestartSec=10', 'Environment=', 'ExecStartPre=-/bin/true', 'ExecStartPre=', 'EnvironmentFile=') },
  { weight: 1, arbitrary: execLine.map((l) => l.replace('ExecStart=', 'ExecStartPre=')) },
  { weight: 1, arbitrary: fc.constantFrom('EnvironmentFile=/etc/default/kubelet', 'EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env', 'EnvironmentFile=- /x', 'EnvironmentFile=relative/path', 'EnvironmentFile=/a b', 'EnvironmentFile="/quoted"', 'EnvironmentFile=/p%%q', 'EnvironmentFile=-') },
  // names and paths at NAME_MAX and PATH_MAX (issue #25): 255 and 4095 bytes are read, 256 and 4096 dropped
  { weight: 1, arbitrary: fc.constantFrom(255, 256, 4095, 4096).map((n) => `EnvironmentFile=${n < 4000 ? '/' + 'n'.repeat(n) : ('/' + 'p'.repeat(200)).repeat(21).slice(0, n)}`) },
  { weight: 1, arbitrary: fc.constantFrom('# comment \\', 'Environment=A=1 \\ ', 'Environment=A=1 \\', 'ExecStart=/bin/a \\ ', '[Unit]', '[Service]', '[Bad', '[Service] x', 'Environment = B=2', ' ExecStart = /bin/b', 'NoEquals') },
);

// Line ends as read_line() takes them (src/basic/fileio.c categorize_eol): "\n", "\r\n", a lone "\r" (issue #18: CR-only
// files), and "\n\r", which is one line end there and two for an editor.
const file = fc
  .tuple(fc.array(line, { maxLength: 5 }), fc.constantFrom('\n', '\n', '\n', ''), fc.constantFrom('\n', '\n', '\n', '\r', '\r\n', '\n\r'))
  .map(([ls, end, eol]) => `[Service]\n${ls.join('\n')}${end}`.replaceAll('\n', eol));

export const serviceCase: fc.Arbitrary<ServiceCase> = fc
  // an empty or unknown Type= is ignored, the type before it stays (issue #25)
  .tuple(file, fc.array(file, { maxLength: 2 }), fc.constantFrom('', '', '', 'Type=oneshot\n', 'Type=oneshot\nType=\n', 'Type=oneshot\nType=bogus\n', 'Type=\n', 'Type=simple\n'))
  // (the type in a drop-in of its own, read before the others: a line above the unit's [Service] would be outside any section)
  // Kept out: Restart=always with Type=oneshot, which systemd 252 refuses (service_verify(): "Restart= set to either
  // always or on-success, which isn't allowed for Type=oneshot services"); the engine has no check for it yet.
  .filter(([unit, dropIns, type]) => !(type.includes('oneshot') && [unit, ...dropIns].some((t) => t.includes('Restart=always'))))
  .map(([unit, dropIns, type]) => ({
    unit,
    dropIns: [...(type ? [['05-type.conf', `[Service]\n${type}`] as [string, string]] : []), ...dropIns.map((t, i): [string, string] => [`${10 + i}-x.conf`, t])],
  }));

// ---------------------------------------------------------------------------------------------
// The engine's reading

export interface EngineVerdict {
  /** systemd refuses to load the unit (a fatal ExecStart= error, even in a line a later reset drops; or not exactly one command for Type=simple). */
  refused: boolean;
  environment: string[];
  execStart: string[][];
  execStartPre: string[][];
  environmentFiles: string[];
}

export function engineVerdict(c: ServiceCase): EngineVerdict {
  const files = [parseUnit('u.service', c.unit), ...c.dropIns.map(([n, t]) => parseUnit(`u.service.d/${n}`, t))];
  const { service } = buildService(files, [], () => undefined);
  const commands = (ds: typeof service.execStarts) => ds.flatMap((d) => parseExecCommands(d).commands.map((cmd) => cmd.words.map((w) => w.text)));
  const execStart = commands(service.execStarts);
  // systemd's environment list: a later assignment replaces an earlier one in its place (strv_env_replace_consume()),
  // which is the order of the engine's map.
  const environment = [...service.environment.values()].filter((e) => e.source === 'Environment').map((e) => `${e.assignment.name}=${e.assignment.value}`);
  return {
    // src/core/service.c service_verify(): no command, or more than one for any type but oneshot, refuses the unit.
    refused: service.refused !== undefined || execStart.length === 0 || (execStart.length > 1 && service.serviceType !== 'oneshot'),
    environment,
    execStart,
    execStartPre: commands(service.execStartPre),
    environmentFiles: service.envFileRefs.map((r) => (r.optional ? '-' : '') + r.path),
  };
}

/** Undefined when the engine agrees with systemd; else what differs. */
export function disagreement(sd: SystemdVerdict, en: EngineVerdict): string | undefined {
  const refused = sd.loadState !== 'loaded';
  if (refused !== en.refused) return `systemd: load state ${sd.loadState}; engine: ${en.refused ? 'refused' : 'loaded'}`;
  if (refused) return undefined;
  const a = JSON.stringify({ environment: sd.environment, execStart: sd.execStart, execStartPre: sd.execStartPre, environmentFiles: sd.environmentFiles });
  const b = JSON.stringify({ environment: en.environment, execStart: en.execStart, execStartPre: en.execStartPre, environmentFiles: en.environmentFiles });
  return a === b ? undefined : `systemd: ${a}\nengine:  ${b}`;
}

/** Run the cases through both; every disagreement with its case. */
export function compareServices(cases: readonly ServiceCase[], run: (cs: readonly ServiceCase[]) => SystemdVerdict[]): { case: ServiceCase; diff: string }[] {
  const out: { case: ServiceCase; diff: string }[] = [];
  const verdicts = run(cases);
  cases.forEach((c, i) => {
    const diff = disagreement(verdicts[i]!, engineVerdict(c));
    if (diff) out.push({ case: c, diff });
  });
  return out;
}
