/**
 * Placeholders in config files that are not evidently final (issue #36). A value shaped like a placeholder
 * (`${POD_CIDR}`, `CGROUP_DRIVER`, `@NAME@`) in a repository file is almost always filled by something the tool does not
 * see: an envsubst or sed in a script elsewhere, a template engine, a controller. Only a file that a kubelet of the
 * workspace reads through a reference its own files state (a unit's `--config`, a `--config-dir`) is known to be used
 * as written. A carrier's payloads are not: what fills a carrier's placeholders may run before it is used (envsubst
 * over a Butane config, a Cluster API provider's controller), as the fourth and fifth first-sight batches showed.
 * Elsewhere the placeholder is a condition, not a mistake: `config-placeholder` and whatever else is reported at the
 * placeholder become information that says so.
 */
import type { Finding } from '../model/finding.ts';
import { rangesOverlap, type Range } from '../model/range.ts';
import type { NodeModel } from './model.ts';

/**
 * The files some node reads through a `--config` or `--config-dir` its own files name, at that very path under a
 * folder that holds the naming file (model/paths.ts resolveReference) (`n/var/lib/kubelet/config.yaml` for `/var/lib/kubelet/config.yaml`, not a `config/kubelet/config.yaml`
 * that an install script may copy there after its `sed`). A carrier's payload is not among them: the carrier itself
 * may be a template (a Butane config run through envsubst before butane, a Cluster API template its provider rewrites).
 */
export function filesReadAsWritten(nodes: readonly { node: NodeModel }[]): Set<string> {
  const out = new Set<string>();
  for (const { node } of nodes) {
    for (const r of node.configRefs) if (r.by === 'identity') for (const f of r.resolved ?? []) out.add(f);
  }
  return out;
}

/** The findings with those at a placeholder of a file not evidently final lowered to information. */
export function placeholdersAsConditions(findings: Finding[], finalFiles: () => ReadonlySet<string>): Finding[] {
  let places: Map<string, { range: Range; value: string }[]> | undefined;
  let final: ReadonlySet<string> | undefined;
  for (const f of findings) {
    if (f.code !== 'config-placeholder' || f.severity === 'information' || (final ??= finalFiles()).has(f.file)) continue;
    const value = /^"((?:[^"\\]|\\.)*)"/.exec(f.message)?.[1] ?? '';
    let l = (places ??= new Map()).get(f.file);
    if (!l) places.set(f.file, (l = []));
    l.push({ range: f.range, value });
  }
  if (!places) return findings;
  return findings.map((f) => {
    if (f.severity !== 'error' && f.severity !== 'warning') return f;
    // At the placeholder, or at the key of its line (a type finding names the field: `clusterDomain: {KUBE_DNS_DOMAIN}`).
    const at = places!.get(f.file)?.find((p) => rangesOverlap(p.range, f.range) || keyOf(p.range, f.range));
    if (!at) return f;
    const value = at.value.length > 40 ? `${at.value.slice(0, 39)}…` : at.value;
    const condition = `If nothing fills in "${value}" before this file is used, it is read as written.`;
    const rest = f.code === 'config-placeholder' ? `Something may (envsubst, sed or a template run elsewhere); no file here that reads this one says so. ${f.message.slice(f.message.indexOf('. ') + 2)}` : f.message;
    return { ...f, severity: 'information', message: `${condition} ${rest}` };
  });
}

function keyOf(value: Range, f: Range): boolean {
  return f.start.line === value.start.line && f.end.line === value.start.line && f.end.character <= value.start.character;
}
