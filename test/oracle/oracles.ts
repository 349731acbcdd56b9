/**
 * The real programs as test oracles (installed by scripts/oracle-setup.sh, which
 * test/run.mjs runs first): Debian's systemd, whose `systemd --test` loads units
 * from $SYSTEMD_UNIT_PATH and dumps each one as parsed, and .oracles/yaml-oracle,
 * sigs.k8s.io/yaml's YAMLToJSON and YAMLToJSONStrict (test/oracle/yaml-oracle.go).
 *
 * Without them the tests are skipped with the reason, unless KUBELET_ORACLES=required
 * (set by test/run.mjs after a successful setup), when they fail instead.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = path.join(ROOT, '.oracles');
export const YAML_ORACLE = path.join(DIR, 'yaml-oracle');
/** test/oracle/kubelet-oracle: k8s.io/kubelet's decode, apimachinery's ParseQuantity, Go's time.ParseDuration. */
export const KUBELET_ORACLE = path.join(DIR, 'kubelet-oracle');
export const SYSTEMD = path.join(DIR, 'systemd');
export const REQUIRED = process.env.KUBELET_ORACLES === 'required';

/** Why an oracle cannot run here (the test is skipped with this), or undefined. */
export function missing(which: 'systemd' | 'yaml' | 'envfile' | 'kubelet'): string | undefined {
  if (which === 'envfile') return fs.existsSync(ENV_GENERATOR) ? undefined : `${ENV_GENERATOR} missing (Debian's systemd package installs it)`;
  if (which === 'kubelet' && !fs.existsSync(KUBELET_ORACLE)) {
    const why = path.join(DIR, 'kubelet-oracle.skipped');
    const reason = fs.existsSync(why) ? fs.readFileSync(why, 'utf8').trim() : 'run scripts/oracle-setup.sh';
    return `${path.relative(ROOT, KUBELET_ORACLE)} missing: ${reason}`;
  }
  const bin = which === 'systemd' ? SYSTEMD : which === 'kubelet' ? KUBELET_ORACLE : YAML_ORACLE;
  if (!fs.existsSync(bin)) return `${path.relative(ROOT, bin)} missing: run scripts/oracle-setup.sh (as root: it installs Debian packages)`;
  if (which === 'systemd' && process.getuid?.() === 0 && !hasSetpriv()) return 'systemd --test refuses to run as root and setpriv is missing';
  return undefined;
}

function hasSetpriv(): boolean {
  return spawnSync('setpriv', ['--version'], { encoding: 'utf8' }).status === 0;
}

// ---------------------------------------------------------------------------------------------
// systemd

/** One service for systemd: the unit's text and its drop-ins' (file name -> text, applied in name order). */
export interface ServiceCase {
  unit: string;
  dropIns: [string, string][];
}

/** What systemd made of one service. */
export interface SystemdVerdict {
  /** Unit Load State: loaded, bad-setting, error, ... */
  loadState: string;
  /** Environment= entries in effect (NAME=value, after resets, specifiers resolved). */
  environment: string[];
  /** Each ExecStart= command in effect: argv after unquoting and escapes, before $VAR expansion. */
  execStart: string[][];
  /** The same for ExecStartPre=. */
  execStartPre: string[][];
  /** EnvironmentFile= entries in effect, `-` first for an optional one. */
  environmentFiles: string[];
}

/** Unit names given to the cases, in order: u0.service, u1.service, ... */
export const unitName = (i: number): string => `u${i}.service`;

/**
 * Load every case as units u<i>.service (wanted by one target, so one systemd run loads them all) and read the
 * dump. Runs systemd as nobody when we are root (its test mode refuses root).
 */
export function runSystemd(cases: readonly ServiceCase[]): SystemdVerdict[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubelet-oracle-'));
  try {
    fs.chmodSync(dir, 0o755);
    const units = path.join(dir, 'units');
    fs.mkdirSync(units, { mode: 0o755 });
    cases.forEach((c, i) => {
      fs.writeFileSync(path.join(units, unitName(i)), c.unit, { mode: 0o644 });
      if (c.dropIns.length) {
        const d = path.join(units, `${unitName(i)}.d`);
        fs.mkdirSync(d, { mode: 0o755 });
        for (const [name, text] of c.dropIns) fs.writeFileSync(path.join(d, name), text, { mode: 0o644 });
      }
    });
    fs.writeFileSync(path.join(units, 'oracle.target'), `[Unit]\nWants=${cases.map((_, i) => unitName(i)).join(' ')}\n`, { mode: 0o644 });
    const asNobody = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const argv = [...asNobody, SYSTEMD, '--test', '--system', '--unit=oracle.target', '--no-pager', '--log-target=console', '--log-level=warning'];
    const r = spawnSync(argv[0]!, argv.slice(1), {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SYSTEMD_UNIT_PATH: units, LANG: 'C.UTF-8' },
    });
    if (r.status !== 0) throw new Error(`systemd --test failed (${r.status ?? r.signal}):\n${r.stderr}`);
    const dumps = splitDump(r.stdout);
    return cases.map((_, i) => {
      const d = dumps.get(unitName(i));
      if (!d) throw new Error(`systemd --test did not dump ${unitName(i)}:\n${r.stderr}`);
      return d;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The dump: `\t-> Unit NAME:` then `\t\tKey: value` lines; ExecStart= commands as `\t\t\tCommand Line: ...` under `\t\t-> ExecStart:`. */
function splitDump(out: string): Map<string, SystemdVerdict> {
  const units = new Map<string, SystemdVerdict>();
  let cur: SystemdVerdict | undefined;
  let list: string[][] | undefined; // the command list being read
  for (const line of out.split('\n')) {
    const u = /^\t-> Unit (.*):$/.exec(line);
    if (u) {
      cur = { loadState: '', environment: [], execStart: [], execStartPre: [], environmentFiles: [] };
      units.set(u[1]!, cur);
      list = undefined;
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('\t\t-> ')) {
      list = line === '\t\t-> ExecStart:' ? cur.execStart : line === '\t\t-> ExecStartPre:' ? cur.execStartPre : undefined;
      continue;
    }
    if (line.startsWith('\t\t\t')) {
      if (list && line.startsWith('\t\t\tCommand Line: ')) list.push(unquoteCommandLine(line.slice('\t\t\tCommand Line: '.length)));
      continue;
    }
    list = undefined;
    if (line.startsWith('\t\tUnit Load State: ')) cur.loadState = line.slice('\t\tUnit Load State: '.length);
    else if (line.startsWith('\t\tEnvironment: ')) cur.environment.push(line.slice('\t\tEnvironment: '.length));
    else if (line.startsWith('\t\tEnvironmentFile: ')) cur.environmentFiles.push(line.slice('\t\tEnvironmentFile: '.length));
  }
  return units;
}

const C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * Undo quote_command_line() (src/basic/escape.c shell_maybe_quote(), systemd 252): words separated by a space, a word
 * needing quotes is in "..." with `"` `\` `` ` `` `$` backslash-escaped and control characters C-escaped (\n, \t, \xNN).
 */
export function unquoteCommandLine(s: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === ' ') {
      i++;
      continue;
    }
    let w = '';
    if (s[i] === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\') {
          const c = s[i + 1]!;
          if (c === 'x') {
            w += String.fromCharCode(parseInt(s.slice(i + 2, i + 4), 16));
            i += 4;
          } else {
            w += C_ESCAPES[c] ?? c;
            i += 2;
          }
        } else w += s[i++];
      }
      i++;
    } else while (i < s.length && s[i] !== ' ') w += s[i++];
    words.push(w);
  }
  return words;
}

// ---------------------------------------------------------------------------------------------
// sigs.k8s.io/yaml

export interface YamlVerdict {
  /** YAMLToJSON's output, when it succeeded. */
  json?: string;
  err?: string;
  /** YAMLToJSONStrict's error (duplicate keys, and everything YAMLToJSON refuses). */
  strictErr?: string;
}

export function runYamlOracle(docs: readonly string[]): YamlVerdict[] {
  const r = spawnSync(YAML_ORACLE, [], { input: JSON.stringify(docs), encoding: 'utf8', maxBuffer: 1 << 30, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`yaml-oracle failed (${r.status ?? r.signal}):\n${r.stderr}`);
  return JSON.parse(r.stdout) as YamlVerdict[];
}

// ---------------------------------------------------------------------------------------------
// systemd's env-file reader, through the environment.d generator

/** systemd's generator for user environments: it reads ~/.config/environment.d/*.conf with load_env_file_pairs(). */
export const ENV_GENERATOR = '/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator';

/**
 * The variables systemd reads from each env file. One generator run reads them all: file i's variables must be
 * named K<i>_* (the generator merges the files; the machine's own environment.d files add other names).
 * The generator expands `$VAR` in values, which EnvironmentFile= does not: keep `$` out of the input.
 */
export function runEnvFiles(texts: readonly string[]): Map<string, string>[] {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kubelet-oracle-env-'));
  try {
    const dir = path.join(home, '.config', 'environment.d');
    fs.mkdirSync(dir, { recursive: true });
    texts.forEach((t, i) => fs.writeFileSync(path.join(dir, `${String(i).padStart(6, '0')}.conf`), t));
    const r = spawnSync(ENV_GENERATOR, [], { encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 28, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') } });
    if (r.status !== 0) throw new Error(`environment.d generator failed (${r.status ?? r.signal}):\n${r.stderr}`);
    const out = texts.map(() => new Map<string, string>());
    for (const line of r.stdout.split('\n')) {
      const m = /^K(\d+)_[A-Za-z0-9_]*=/.exec(line);
      if (!m) continue;
      const eq = line.indexOf('=');
      out[Number(m[1])]?.set(line.slice(0, eq), unquoteCommandLine(line.slice(eq + 1)).join(' '));
    }
    return out;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The kubelet's own Go modules (test/oracle/kubelet-oracle/main.go)

/** One answer of kubelet-oracle; which fields are set depends on the mode. */
export interface KubeletOracleAnswer {
  ok: boolean;
  err?: string;
  /** decode: the strict error the lenient decode forgave. */
  lenient?: string;
  /** decode: the decoded v1beta1 object. */
  json?: unknown;
  /** quantity: q.String(), q.Value(), q.MilliValue() (int64, kept as decimal strings). */
  string?: string;
  value?: string;
  milli?: string;
  /** duration: nanoseconds (int64 as a decimal string). */
  nanos?: string;
}

/** Run kubelet-oracle in one of its modes over many inputs (one process). Big integers are kept exact as strings. */
export function runKubeletOracle(mode: 'decode' | 'quantity' | 'duration' | 'types', inputs: readonly string[]): KubeletOracleAnswer[] {
  const r = spawnSync(KUBELET_ORACLE, [mode], { input: JSON.stringify(inputs), encoding: 'utf8', maxBuffer: 1 << 30, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`kubelet-oracle ${mode} failed (${r.status ?? r.signal}):\n${r.stderr}`);
  // int64 fields as strings, so that no digit is lost
  const exact = r.stdout.replace(/"(value|milli|nanos)":(-?\d+)/g, '"$1":"$2"');
  return JSON.parse(exact) as KubeletOracleAnswer[];
}
