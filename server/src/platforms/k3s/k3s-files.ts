/**
 * How k3s and RKE2 read their configuration files (k3s-io/k3s pkg/configfilearg/parser.go, main at
 * f6466040, which RKE2 v1.36 embeds): the config file (`/etc/rancher/k3s/config.yaml`, RKE2's
 * `/etc/rancher/rke2/config.yaml`, or `--config`), then every `*.yaml`/`*.yml` of `<config file>.d/` in name order
 * (dotDFiles: os.ReadDir, case-insensitive suffix, no sub-folders). Per key the last file wins; a key written
 * `kubelet-arg+` adds its items to the list instead (readConfigFile). The values come before the command line's
 * own flags, so a unit's `--kubelet-arg` items come after the files' ones.
 */
import { finding, type Finding } from '../../model/finding.ts';
import { basename, dirname, resolveDirReference, resolveReference } from '../../model/paths.ts';
import type { KubeadmDoc, PlatformInfo } from '../../parse/types.ts';
import type { FileSet, NodeHooks, StandaloneRead } from '../../formats/types.ts';
import type { WrapperProgram } from '../../node/platform.ts';
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
      // Also in one file: k3s reads it as a list of key-value items, so a second kubelet-arg replaces the first.
      const at = `${basename(d.path)} line ${d.span.range.start.line + 1}`;
      const r = d.span.range;
      // The key as written, unquoted: `+` goes right after it.
      const plain = r.start.line === r.end.line && r.end.character - r.start.character === 'kubelet-arg'.length;
      const fix = { title: `Append instead: write kubelet-arg+ in ${basename(d.path)}`, edits: [{ file: d.span.file, range: { start: r.end, end: r.end }, newText: '+' }] };
      // The whole list (its key to its last item): what the fix brings back into effect.
      const last = lost.kubeletExtraArgs.at(-1)?.valueSpan.range.end;
      const where = last ? { file: lost.span.file, range: { start: lost.span.range.start, end: last } } : lost.span;
      problems.push(finding('k3s-kubelet-arg-replaced', 'warning', where,
        `This ${lost.argsLabel ?? 'kubelet-arg'} list never reaches the kubelet: the kubelet-arg list in ${at} replaces it. k3s keeps the last value of a key, within a file and across files (config.yaml, then config.yaml.d/ in name order); a key named kubelet-arg+ adds its items to the list instead.`,
        plain ? { fixes: [fix] } : undefined));
    }
    effective = [d];
  }
  return { docs: effective, problems };
}

/**
 * A k3s configuration (config.yaml and its drop-ins): the kubelet-arg lists that reach the kubelet, and the k3s
 * platform with the places of every list (for completion and fixes).
 */
function readK3s(ws: FileSet, paths: readonly string[]): StandaloneRead {
  const docs: KubeadmDoc[] = [];
  let platform: PlatformInfo | undefined;
  for (const path of paths) {
    const c = ws.get(path, 'k3s')?.config;
    if (!c) continue;
    for (const d of c.kubeadm) docs.push(d);
    if (c.platform) platform = platform ? { ...platform, args: [...(platform.args ?? []), ...(c.platform.args ?? [])] } : c.platform;
  }
  const merged = mergeK3sArgs(docs);
  return { kubeletConfigs: [], kubeadm: merged.docs, ...(platform && { platform }), files: [...paths], problems: merged.problems };
}

/** config.yaml and config.yaml.d/ are one configuration: one node, at the first file, when a file passes kubelet-arg. */
export const k3sNode: NodeHooks = {
  read(ws, path) {
    const group = k3sFiles(ws, path);
    if (group[0] !== path || !group.some((f) => ws.get(f)?.config?.platform)) return { none: true, problems: [] };
    return readK3s(ws, group);
  },
};

const SUBCOMMANDS: ReadonlySet<string> = new Set(['server', 'agent']);

/**
 * A k3s or RKE2 unit (`ExecStart=/usr/local/bin/k3s agent --kubelet-arg=max-pods=250`): its configuration file
 * (`--config`/`-c`, else /etc/rancher/<k3s|rke2>/config.yaml) and drop-ins, then its own `--kubelet-arg` items,
 * which k3s appends after the files' ones (pkg/configfilearg/parser.go Parse puts the files' values before the
 * command line's). k3s's other flags are not the kubelet's. A unit that passes the kubelet nothing is no node of its
 * own: its config.yaml is one, if it has kubelet-arg.
 */
export const k3sWrapper: WrapperProgram = {
  names: new Set(['k3s', 'rke2']),
  runsKubelet(commandLine) {
    const sub = commandLine.trim().split(/\s+/)[1]?.replace(/^['"]|['"]$/g, '');
    return sub !== undefined && SUBCOMMANDS.has(sub) && commandLine.includes('kubelet-arg');
  },
  read(ws, anchor, argv) {
    const program = basename(argv[0].text);
    if (!SUBCOMMANDS.has(argv[1]?.text ?? '')) return { kubeletConfigs: [], kubeadm: [], files: [], problems: [] };
    const args: KubeadmDoc['kubeletExtraArgs'] = [];
    let config = `/etc/rancher/${program}/config.yaml`;
    for (let i = 2; i < argv.length; i++) {
      const w = argv[i];
      // urfave/cli takes -name and --name, with the value after `=` or in the next word.
      const name = /^--?([^=]+)/.exec(w.text)?.[1];
      if (name !== 'kubelet-arg' && name !== 'config' && name !== 'c') continue;
      const eq = w.text.indexOf('=');
      const word = eq >= 0 ? w : argv[++i];
      if (!word) break;
      const from = eq >= 0 ? eq + 1 : 0;
      if (name !== 'kubelet-arg') {
        config = word.text.slice(from);
        continue;
      }
      const text = word.text.slice(from);
      const dashes = text.startsWith('--') ? 2 : text.startsWith('-') ? 1 : 0;
      const at = text.indexOf('=');
      const nameEnd = at < 0 ? text.length : at;
      args.push({
        name: text.slice(dashes, nameEnd),
        value: at < 0 ? 'true' : text.slice(at + 1),
        nameSpan: word.map.span(from + dashes, from + nameEnd),
        valueSpan: at < 0 ? word.map.span(from + nameEnd, from + nameEnd) : word.map.span(from + at + 1, from + text.length),
      });
    }
    // The --config file and its .d folder at their paths under the unit's folders, or in its root by name (issue #37).
    const base = resolveReference(config, ws.paths, anchor)?.path ?? resolveDirReference(`${config}.d`, ws.paths, anchor).paths.map((p) => p.slice(0, p.lastIndexOf('/') - 2))[0];
    const read = readK3s(ws, base ? k3sFiles(ws, base) : []);
    const platform = read.platform ?? { tool: 'k3s', span: argv[0].span, gates: [] };
    if (args.length) read.kubeadm.push({ path: anchor, apiVersion: 'k3s', kind: K3S_APPEND_KIND, argsLabel: '--kubelet-arg', kubeletExtraArgs: args, span: args[0].nameSpan });
    return { ...read, platform };
  },
};
