/**
 * Translating the kubelet's validation test tables into configuration files:
 * a base KubeletConfiguration (the upstream `successConfig`) whose top-level
 * keys a case replaces or deletes, analysed as a kubeadm node, with the
 * verdict read back as "error findings on this line" or "no error at all".
 */
import assert from 'node:assert/strict';
import type { Finding } from '../../server/src/model/finding.ts';
import { kubeadmNode, run } from './nodes.ts';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';

/** Top-level key -> YAML text after `key:` (a leading newline starts a block). */
export type ConfigKeys = Record<string, string>;

export interface Case {
  name: string;
  /** Keys replaced (string) or deleted (null) in the base. */
  set?: Record<string, string | null>;
  /** KUBELET_KUBEADM_ARGS, for cases whose value comes from a flag. */
  flags?: string;
  /** Target version when the default one would change the verdict (a gate locked there, ...). */
  version?: string;
  /** A line of the config (or of kubeadm-flags.env) that must carry an error; absent: the kubelet accepts it. */
  errorAt?: string;
  /** The error codes allowed on the errorAt line (when one refusal must not be reported twice). */
  onlyCodes?: string[];
  /** Why the file differs from the upstream case (defaulting, renamed field, ...). */
  note?: string;
}

export function configText(base: ConfigKeys, set: Record<string, string | null> = {}): string {
  const keys: ConfigKeys = { ...base };
  for (const [k, v] of Object.entries(set)) {
    if (v === null) delete keys[k];
    else keys[k] = v;
  }
  return Object.entries(keys).map(([k, v]) => `${k}:${v.startsWith('\n') ? v : ` ${v}`}\n`).join('');
}

const CHECKED_WORDING = new Set(['config-value-invalid', 'config-needs-feature-gate', 'reserved-memory-invalid', 'enforce-reservation-empty']);

const ROOT = 'n';
const CONFIG = `${ROOT}/var/lib/kubelet/config.yaml`;
const FLAGS = `${ROOT}/var/lib/kubelet/kubeadm-flags.env`;

function show(fs: Finding[]): string {
  return fs.map((f) => `  ${f.severity} ${f.code} ${f.file}:${f.range.start.line + 1} ${f.message}`).join('\n') || '  (none)';
}

/** Runs one case against the engine and asserts the kubelet's verdict. */
export function checkCase(base: ConfigKeys, c: Case): void {
  const config = configText(base, c.set);
  const files = kubeadmNode(ROOT, { config, kubeadmFlags: c.flags !== undefined ? `KUBELET_KUBEADM_ARGS="${c.flags}"\n` : undefined });
  // The verdicts are the newest release's unless the row names another (a stated version, as a user would give it).
  const a = run(files, { kubernetesVersion: c.version ?? NEWEST_VERSION });
  const errors = a.findings.filter((f) => f.severity === 'error');
  if (c.errorAt === undefined) {
    assert.deepEqual(errors, [], `the kubelet accepts this configuration, but errors were reported:\n${show(errors)}\n--- config.yaml\n${files[CONFIG]}`);
    return;
  }
  const inFlags = c.flags !== undefined && files[FLAGS].includes(c.errorAt);
  const file = inFlags ? FLAGS : CONFIG;
  const lines = files[file].split('\n');
  const line = lines.findIndex((l) => l.includes(c.errorAt!));
  assert.ok(line >= 0, `"${c.errorAt}" is not a line of ${file}`);
  const here = errors.filter((f) => f.file === file && f.range.start.line === line);
  assert.ok(here.length > 0, `the kubelet refuses this configuration: expected an error on ${file}:${line + 1} (${lines[line].trim()}), got:\n${show(a.findings)}\n--- ${file}\n${files[file]}`);
  if (c.onlyCodes) assert.deepEqual([...new Set(here.map((f) => f.code))].sort(), [...c.onlyCodes].sort(), show(here));
  // House rule: the first sentence is the point, at most 120 characters (checked for the rules this suite added).
  for (const f of here.filter((x) => CHECKED_WORDING.has(x.code))) {
    const first = /^.*?[.!?](?=\s|$)/.exec(f.message)?.[0] ?? f.message;
    assert.ok(first.length <= 120, `${f.code}: first sentence has ${first.length} characters: ${first}`);
  }
}
