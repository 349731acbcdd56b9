import { parseKubernetesVersion, parseSystemdVersion } from '../catalog/version.ts';
import { parseCapacityOrType } from '../node/instance-capacity.ts';
import type { Capacity } from '../node/model.ts';
import type { Severity } from '../model/finding.ts';

export interface CliOptions {
  format: 'text' | 'json' | 'sarif';
  capacity?: Capacity;
  /** What an instance type name in --capacity stood for. */
  capacitySource?: string;
  kubernetesVersion?: string;
  systemdVersion?: number;
  color?: boolean;
  /** --rule id=severity|off */
  ruleSeverity: Map<string, Severity | 'off'>;
  /** Show hint-level findings in text output (JSON and SARIF always carry them). */
  hints: boolean;
  /** --list-files: text output starts with every file and the format it was read as (JSON always has them). */
  listFiles: boolean;
  paths: string[];
  help: boolean;
  version: boolean;
}

export class UsageError extends Error {}

export const USAGE = `Usage: kubelet-lint [options] PATH...

Reads kubelet systemd units, drop-ins, environment files, KubeletConfiguration,
kubeadm and container runtime configs exactly as systemd and the kubelet do,
reports what would stop or mislead the kubelet, and computes Node Allocatable.
PATHs are files or folders (searched recursively); together they form one workspace.

Options:
  --format text|json|sarif    output format (default: text)
  --capacity LIST             node capacity, e.g. cpu=16,memory=64Gi,ephemeral-storage=200Gi,pods=110,
                              or an instance type (m5.large, Standard_D4s_v5) with optional overrides
                              (a "# kubelet-lint: capacity ..." modeline in a node's file overrides it)
  --kubernetes-version X.Y    target kubelet version (default: what the files state, else the newest known)
  --systemd-version N         target systemd version, e.g. 252 (default: the newest); env files
                              differ before 254 (a "# kubelet-lint: systemd-version N" modeline overrides it)
  --rule ID=SEVERITY          change a rule's severity (off, hint, information, warning, error); repeatable
  --hints                     also list hint-level findings in text output (deprecated flags, ...)
  --list-files                start text output with every file and the format it was read as, or why
                              it was not read (JSON output always has them, under "files")
  --color / --no-color        force or disable colours in text output
  -h, --help                  show this help
  --version                   print the version

Silence a finding with a comment on the line before it:
  # kubelet-lint-disable-next-line RULE-ID[,RULE-ID]
or, in YAML and TOML, at the end of its line: # kubelet-lint-disable-line RULE-ID

Exit status: 0 no errors, 1 at least one error-level finding, 2 usage error or unreadable path.`;

export function parseArgs(argv: readonly string[]): CliOptions {
  const o: CliOptions = { format: 'text', paths: [], help: false, version: false, hints: false, listFiles: false, ruleSeverity: new Map() };
  const value = (i: number, name: string): string => {
    const v = argv[i];
    if (v === undefined) throw new UsageError(`${name} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let inline: string | undefined;
    if (a.startsWith('--') && a.includes('=')) {
      inline = a.slice(a.indexOf('=') + 1);
      a = a.slice(0, a.indexOf('='));
    }
    const take = () => inline ?? value(++i, a);
    switch (a) {
      case '-h':
      case '--help':
        o.help = true;
        break;
      case '--version':
        o.version = true;
        break;
      case '--format': {
        const f = take();
        if (f !== 'text' && f !== 'json' && f !== 'sarif') throw new UsageError(`--format must be text, json or sarif, not "${f}"`);
        o.format = f;
        break;
      }
      case '--capacity': {
        const c = parseCapacityOrType(take());
        if (!c.ok) throw new UsageError(`--capacity: ${c.error}`);
        o.capacity = c.capacity;
        if (c.source) o.capacitySource = `${c.source}, --capacity`;
        break;
      }
      case '--kubernetes-version': {
        const text = take();
        const v = parseKubernetesVersion(text);
        if (!v) throw new UsageError(`--kubernetes-version must look like 1.31, not "${text}"`);
        o.kubernetesVersion = v;
        break;
      }
      case '--systemd-version': {
        const v = take();
        const n = parseSystemdVersion(v);
        if (n === undefined) throw new UsageError(`--systemd-version must look like 252, not "${v}"`);
        o.systemdVersion = n;
        break;
      }
      case '--rule': {
        const spec = take();
        const m = /^([a-z][a-z0-9-]*)=(off|hint|information|warning|error)$/.exec(spec);
        if (!m) throw new UsageError(`--rule takes id=off|hint|information|warning|error, not "${spec}"`);
        o.ruleSeverity.set(m[1], m[2] as Severity | 'off');
        break;
      }
      case '--list-files':
        o.listFiles = true;
        break;
      case '--hints':
        o.hints = true;
        break;
      case '--color':
        o.color = true;
        break;
      case '--no-color':
        o.color = false;
        break;
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${argv[i]}`);
        o.paths.push(argv[i]);
    }
  }
  if (!o.help && !o.version && o.paths.length === 0) throw new UsageError('no PATH given');
  return o;
}
