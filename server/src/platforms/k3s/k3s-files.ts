/**
 * How k3s and RKE2 read their configuration files (k3s-io/k3s pkg/configfilearg/parser.go, main at
 * f6466040, which RKE2 v1.36 embeds): the config file (`/etc/rancher/k3s/config.yaml`, RKE2's
 * `/etc/rancher/rke2/config.yaml`, or `--config`), then every `*.yaml`/`*.yml` of `<config file>.d/` in name order
 * (dotDFiles: os.ReadDir, case-insensitive suffix, no sub-folders). Per key the last file wins; a key written
 * `kubelet-arg+` adds its items to the list instead (readConfigFile). The values come before the command line's
 * own flags, so a unit's `--kubelet-arg` items come after the files' ones.
 */
import { finding, type Finding } from '../../model/finding.ts';
import { basename, dirname } from '../../model/paths.ts';
import type { KubeadmDoc } from '../../parse/types.ts';
import { K3S_APPEND_KIND, K3S_ARGS_KIND } from './parse-k3s.ts';

const YAML_NAME = /\.ya?ml$/i;

/** The config file a k3s config path belongs to: itself, or for a file of `<config>.d/`, that config. */
export function k3sBase(path: string): string {
  const dir = dirname(path);
  return dir.endsWith('.d') && YAML_NAME.test(dir.slice(0, -2)) && YAML_NAME.test(path) ? dir.slice(0, -2) : path;
}

/** The drop-ins of a k3s config file among `paths`, in the order k3s reads them. */
export function k3sDropins(paths: readonly string[], base: string): string[] {
  const dir = `${base}.d`;
  return paths.filter((p) => dirname(p) === dir && YAML_NAME.test(p)).sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0));
}

/** The files k3s reads as one configuration with `path`, in its order (those of the workspace). */
export function k3sFiles(ws: { paths: readonly string[]; kind(path: string): string | undefined }, path: string): string[] {
  const base = k3sBase(path);
  return [...(ws.kind(base) === 'k3s' ? [base] : []), ...k3sDropins(ws.paths, base).filter((p) => ws.kind(p) === 'k3s')];
}

/**
 * The `kubelet-arg` lists of the files (in k3s's order) that reach the kubelet, and a finding at each list a later
 * file's `kubelet-arg` replaces, with a fix that makes the later key append.
 */
export function mergeK3sArgs(docs: readonly KubeadmDoc[]): { docs: KubeadmDoc[]; problems: Finding[] } {
  let effective: KubeadmDoc[] = [];
  const problems: Finding[] = [];
  for (const d of docs) {
    if (d.kind === K3S_APPEND_KIND) {
      effective.push(d);
      continue;
    }
    if (d.kind !== K3S_ARGS_KIND) continue;
    for (const lost of effective) {
      if (lost.path === d.path) continue; // one file's own keys: config-field-duplicate's business
      const at = `${basename(d.path)} line ${d.span.range.start.line + 1}`;
      const r = d.span.range;
      // The key as written, unquoted: `+` goes right after it.
      const plain = r.start.line === r.end.line && r.end.character - r.start.character === 'kubelet-arg'.length;
      const fix = { title: `Append instead: write kubelet-arg+ in ${basename(d.path)}`, edits: [{ file: d.span.file, range: { start: r.end, end: r.end }, newText: '+' }] };
      // The whole list (its key to its last item): what the fix brings back into effect.
      const last = lost.kubeletExtraArgs.at(-1)?.valueSpan.range.end;
      const where = last ? { file: lost.span.file, range: { start: lost.span.range.start, end: last } } : lost.span;
      problems.push(finding('k3s-kubelet-arg-replaced', 'warning', where,
        `This ${lost.argsLabel ?? 'kubelet-arg'} list never reaches the kubelet: the kubelet-arg list in ${at} replaces it. k3s keeps the last file's value of a key (config.yaml, then config.yaml.d/ in name order); a key named kubelet-arg+ adds its items to the list instead.`,
        plain ? { fixes: [fix] } : undefined));
    }
    effective = [d];
  }
  return { docs: effective, problems };
}
