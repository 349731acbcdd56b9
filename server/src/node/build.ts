/** Seed -> NodeModel: assemble the command line, load what it references, compute the effective settings. */
import type { Finding } from '../model/finding.ts';
import { finding } from '../model/finding.ts';
import type { Span } from '../model/range.ts';
import { TextMap } from '../model/range.ts';
import type { EnvAssignment, EnvFile, KubeadmDoc, KubeletConfigDoc, UnitDirective, Word } from '../parse/types.ts';
import { isKubeletPatch } from '../parse/kubeadm-patch.ts';
import { parseSystemdVersion } from '../catalog/version.ts';
import { compareVersions } from '../catalog/flags.ts';
import {
  ARG_STRLEN_MAX,
  ARGV_DEFAULT_MAX,
  ARGV_HARD_MAX,
  execBytes,
  expandExecArgv,
  parseExecCommands,
  parseExecDirective,
  splitVariable,
  type ArgvSize,
} from '../parse/systemd/exec.ts';
import { runScratch } from '../parse/systemd/words.ts';
import { fmtCount } from '../parse/yaml.ts';
import { resolveDirReference, resolveReference, basename, dirname, nodeRoot, withoutTrailingSlashes, type Resolved } from '../model/paths.ts';
import { parseKubeletArgs, type ArgProblem } from './command-line.ts';
import { readablePath } from '../embed/payload.ts';
import { effectiveSettings, type ConfigSource } from './effective.ts';
import type { NodeSeed } from './group.ts';
import type { StandaloneRead } from '../formats/types.ts';
import { buildService } from './service.ts';
import { unusedVariables } from './unused-variables.ts';
import { platformBase, type PlatformSemantics } from './platform.ts';
import { containerKubelet } from './container-run.ts';
import { versionMention } from '../model/version-mention.ts';
import type { ConfigRef, FlagUse, NodeLink, NodeModel, Setting, UnreadFile } from './model.ts';
import type { Workspace } from './parse-cache.ts';
import { joinTemplateWords, TemplatePlaces, templatePlaces } from './template.ts';
import { inTerraformTemplate, terraformPlaces } from './terraform.ts';
import type { NodeSettings } from './modelines.ts';
import type { AttachedRuntime } from './runtimes.ts';

/**
 * What the files of the node's seed make of it. The analysis completes it into the NodeModel (engine.ts): the
 * runtime configs joined to it (node/runtimes.ts) and its capacity and version (node/modelines.ts).
 */
export type NodeBuild = Omit<NodeModel, 'runtimes' | 'capacity' | 'capacitySource' | 'capacityCandidates' | 'kubernetesVersion' | 'kubernetesVersionSource' | 'kubernetesVersionStated' | 'kubernetesVersionAssumed'>;

export interface BuiltNode {
  readonly node: NodeBuild;
  readonly argProblems: ArgProblem[];
  readonly problems: Finding[];
}

/**
 * The systemd version the node's files are read for: a `systemd-version` modeline in the unit, a drop-in or the env
 * file, else the analysis option; undefined is the newest behaviour.
 */
function systemdVersionFor(ws: Workspace, paths: readonly string[], option: number | undefined): number | undefined {
  let v = option;
  for (const p of paths) for (const m of ws.get(p)?.modelines ?? []) if (m.setting === 'systemd-version') v = parseSystemdVersion(m.value) ?? v;
  return v;
}

/** An env file as the target systemd reads it (before 254 a comment ending in `\` swallows the next line). */
function envFor(env: EnvFile, systemdVersion: number | undefined): EnvFile {
  return systemdVersion !== undefined && systemdVersion < 254 && env.before254 ? env.before254 : env;
}

/** The one empty map of nodes without flag-only flags or shadowed settings (most): a Map is 100 bytes even empty. */
const NONE_SHADOWED: ReadonlyMap<string, Setting> = new Map();
const NONE_FLAG_ONLY: ReadonlyMap<string, FlagUse> = new Map();

/** The one empty list of the node model's lists (frozen: the model is never changed after buildNode). */
const NONE: never[] = Object.freeze([]) as never[];
const exact = <T>(xs: T[]): T[] => (xs.length === 0 ? NONE : xs.slice());

/** The build while buildNode fills it in (the only place a node's fields are written). */
type Draft = { -readonly [K in keyof NodeBuild]: NodeBuild[K] };

/**
 * `links`: 'identity' leaves a reference that only a name alike would resolve unresolved: the node as it is if that
 * guess is wrong, against which the engine checks the findings that rest on the guess (engine.ts).
 */
export function buildNode(ws: Workspace, seed: NodeSeed, systemdVersion?: number, links: 'any' | 'identity' = 'any'): BuiltNode {
  const files = new Set<string>([seed.anchor]);
  const problems: Finding[] = [];
  const linked: NodeLink[] = [];
  const resolve = (ref: string, near: string): Resolved | undefined => {
    const r = resolveReference(ref, ws.paths, near);
    return r && (links === 'any' || r.by === 'identity') ? r : undefined;
  };
  const node: Draft = {
    id: seed.anchor,
    files: [],
    argv: [],
    flags: [],
    positional: [],
    configRefs: [],
    kubeletConfigs: [],
    kubeadm: [],
    settings: new Map(),
    shadowed: NONE_SHADOWED,
    flagOnly: NONE_FLAG_ONLY,
  };
  // A kubelet run in a container: its arguments, and the version its image's tag states (quay.io/poseidon/kubelet:v1.36.1).
  const runsImage = (run: { image: Word; args: Word[] } | undefined) => {
    if (!run) return;
    node.argv = run.args;
    // `${KUBELET_IMAGE}`: the tag is written where the variable is set.
    const via = run.image.via && node.service?.environment.get(run.image.via.variable)?.assignment;
    const image = versionMention(via ? via.name : 'kubelet image', run.image.text, via ? via.span : run.image.span, true);
    if (image) node.kubeletImage = image;
  };
  let argProblems: ArgProblem[] = [];
  const kubeadmFlags: FlagUse[] = [];
  // kubeadm patches of the kubelet's configuration: applied over the configuration kubeadm writes.
  const patchDocs = new Set<KubeletConfigDoc>();
  // What a platform's file (or wrapper program) gives the kubelet.
  const take = (r: { kubeletConfigs: readonly KubeletConfigDoc[]; kubeadm: readonly KubeadmDoc[] }) => {
    for (const x of r.kubeletConfigs) node.kubeletConfigs.push(x);
    for (const x of r.kubeadm) node.kubeadm.push(x);
  };
  // What a platform's hook read: its files, and its problems, which are the node's (a file's own parse problems are
  // reported by the engine for the file).
  const takeRead = (r: StandaloneRead) => {
    take(r);
    for (const f of r.files) files.add(f);
    for (const x of r.problems) problems.push(x);
  };

  if (seed.units.length > 0) {
    for (const u of seed.units) files.add(u.path);
    for (const u of seed.units) if (u.template) (node.templates ??= []).push(u.template);
    const { service, problems: sp } = buildService(seed.units, seed.masked, (ref, from) => {
      const hit = resolve(ref, from);
      const path = hit?.path;
      const env = path ? ws.get(path, 'envfile')?.env : undefined;
      if (env?.template && !node.templates?.includes(env.template)) (node.templates ??= []).push(env.template);
      return path && env ? { path, env: envFor(env, systemdVersionFor(ws, [...seed.units.map((u) => u.path), path], systemdVersion)), by: hit.by } : undefined;
    });
    for (const x of sp) problems.push(x);
    node.service = service;
    for (const r of service.envFileRefs) {
      const span = r.directive.valueMap.span(0, r.directive.value.length);
      if (r.resolved) {
        files.add(r.resolved);
        linked.push({ what: 'EnvironmentFile=', ref: r.path, span, to: r.resolved, by: r.by ?? 'name' });
      } else problems.push(unresolved(span, r.path, r.optional ? 'EnvironmentFile=-' : 'EnvironmentFile='));
    }
    // systemd refuses a unit whose ExecStartPre= cannot be parsed, so those commands are checked too.
    // (A fatal error is reported by buildService(), which knows whether the line is in the unit file or a drop-in.)
    for (const d of service.execStartPre) {
      const parsed = parseExecCommands(d);
      for (const x of parsed.problems) if (x !== parsed.fatal) problems.push(x);
    }
    // Template expressions of the units (`{{ bin_dir }}/kubelet`, a Terraform `${ join(" ", flags) }`) are one word each.
    const unitTemplates = node.templates?.slice() ?? [];
    const unitTerraform = terraformPlaces(ws, seed.units.map((u) => u.path));
    if (unitTerraform) unitTemplates.push(unitTerraform);
    const execWords = (d: UnitDirective) => joinTemplateWords(parseExecDirective(d), unitTemplates);
    const execOpts = (d: UnitDirective) => ({ terraform: inTerraformTemplate(ws, d.span.file) });
    if (service.execStart) {
      const cmd = execWords(service.execStart);
      const fatal = parseExecCommands(service.execStart).fatal;
      for (const x of cmd.problems) if (x !== fatal) problems.push(x);
      const { argv, references, size } = expandExecArgv(cmd, (name) => service.environment.get(name)?.assignment, execOpts(service.execStart));
      for (const x of argvSizeProblems(service.execStart, size, service.environment.values())) problems.push(x);
      node.execReferences = references;
      node.program = argv[0];
      const wrapper = node.program && ws.registry.wrapper(basename(node.program.text));
      if (wrapper) {
        const read = wrapper.wrapper.read(ws, seed.anchor, argv);
        takeRead(read);
        node.platform ??= read.platform;
      } else if (node.program && basename(node.program.text).includes('kubelet')) {
        node.argv = argv.slice(1);
        const unused = unusedVariables(service, new Set(references.map((r) => r.variable)));
        if (unused.list.length > 0) node.unusedVariables = unused.list;
        if (unused.more) node.unusedVariablesMore = unused.more;
      } else runsImage(containerKubelet(argv));
    }
    // `docker run -d <kubelet image>` in ExecStartPre= while ExecStart= follows its logs.
    if (!node.argv.length && !node.platform && !(node.program && basename(node.program.text).includes('kubelet'))) {
      for (const d of service.execStartPre) {
        const { argv } = expandExecArgv(execWords(d), (name) => service.environment.get(name)?.assignment, execOpts(d));
        runsImage(containerKubelet(argv));
      }
    }
  }
  // A standalone file; or, with units, the NodeConfig whose kubelet.service is the AMI's and only its drop-ins are in
  // the workspace (node/group.ts nodeadmConfigAt).
  if (seed.standalone) {
    const p = ws.get(seed.standalone)!;
    if (p.env?.template) (node.templates ??= []).push(p.env.template);
    if (p.platform) node.platform = p.platform;
    if (p.env) {
      // An env file nobody references: read its variables that hold flags as kubelet arguments, in file order. One
      // without any (`KUBELET_ROLE=worker`, `NODEPOOL_NAME=...` beside them) is no argument list: nothing says a
      // unit passes it to the kubelet, and reading it as one would only make positional-argument errors.
      const env = envFor(p.env, systemdVersionFor(ws, [seed.standalone], systemdVersion));
      const scratch = runScratch();
      for (const a of lastAssignments(env.assignments)) {
        // (one word past the bound tells that there are more, and where they start)
        if (HOLDS_FLAG.test(a.value) && node.argv.length <= MAX_KUBELET_ARGS) splitVariable(a, { variable: a.name, span: a.nameSpan }, node.argv, scratch, Infinity, MAX_KUBELET_ARGS + 1);
      }
    }
    // A platform's file may read more than itself (node hooks: a talhelper node's `@file` patches, k3s's drop-ins).
    const hooked = ws.registry.formatOf(p.kind).node?.read(ws, seed.standalone);
    const own = hooked && !('none' in hooked) ? hooked : p.config;
    // A KubeletConfiguration file of its own is the kubelet's --config (a kubeadm patch file is kubeadm's: it applies
    // every document, patches.go createPatchSet).
    const byKubelet = own === p.config && p.kind === 'kubelet-config' && own && !own.platform && !isKubeletPatch(basename(seed.standalone)) ? { ...own, kubeletConfigs: readByKubelet(own.kubeletConfigs, problems) } : own;
    const read = byKubelet && !byKubelet.platform ? readByKubeadmJoin(byKubelet, problems) : byKubelet;
    if (read) {
      if (read === hooked) takeRead(hooked);
      else take(read);
      if (read.platform) node.platform = read.platform;
      for (const path of kubeadmPatches(ws, node.kubeadm, seed.standalone)) {
        files.add(path);
        for (const doc of ws.get(path, 'kubelet-config', { fragment: true })?.config?.kubeletConfigs ?? []) {
          node.kubeletConfigs.push(doc);
          patchDocs.add(doc);
        }
      }
    }
  }

  if (node.argv.length > MAX_KUBELET_ARGS) {
    problems.push(tooManyArgs(node.argv));
    node.argv = node.argv.slice(0, MAX_KUBELET_ARGS);
  }
  const parsed = parseKubeletArgs(node.argv);
  node.flags = parsed.flags;
  node.positional = parsed.positional;
  argProblems = parsed.problems;

  for (const k of node.kubeadm) {
    const extra = parseKubeletArgs(kubeadmExtraArgWords(k), 'kubeadm-extra-args');
    for (const x of extra.flags) {
      // a FlagUse may read its spans lazily (a class with getters): labelled in place, not copied
      if (k.argsLabel) x.argsLabel = k.argsLabel;
      kubeadmFlags.push(x);
    }
    for (const x of extra.problems) argProblems.push(x);
  }

  // --config and --config-dir (last one wins, like any scalar flag).
  // The platform that writes this kubelet's configuration: its semantics, stated in its own folder.
  const spec = node.platform ? platformSpec(ws, node.platform.tool) : undefined;
  if (spec) node.platformSpec = spec;
  const configFlag = node.flags.filter((f) => f.name === 'config').at(-1);
  const configDirFlag = node.flags.filter((f) => f.name === 'config-dir').at(-1);
  const sources: ConfigSource[] = [];
  if (configFlag?.value) {
    const ref: ConfigRef = { flag: 'config', path: configFlag.value, span: configFlag.valueSpan };
    const hit = resolve(configFlag.value, configFlag.valueSpan.file);
    if (hit) {
      const path = hit.path;
      ref.resolved = [path];
      ref.by = hit.by;
      linked.push({ what: '--config', ref: configFlag.value, span: configFlag.valueSpan, to: path, by: hit.by });
      files.add(path);
      const cfg = ws.get(path, 'kubelet-config')?.config;
      for (const doc of readByKubelet(cfg?.kubeletConfigs ?? [], problems)) {
        node.kubeletConfigs.push(doc);
        sources.push({ doc, how: 'config' });
      }
    } else problems.push(unresolved(configFlag.valueSpan, configFlag.value, '--config'));
    node.configRefs.push(ref);
  } else {
    // nodeadm writes the user's kubelet.config as a --config-dir drop-in over its own config; the OpenShift MCO
    // merges spec.kubeletConfig over its template with mergo (maps key by key, the rest replaced): the same rule;
    // eksctl's kubeletExtraConfig is nodeadm's kubelet.config.
    const rule = spec?.source;
    const how = rule?.how ?? 'config';
    const label = node.platform?.configLabel ?? rule?.label;
    node.kubeletConfigs.forEach((doc, i) => {
      // A kubeadm strategic or merge patch merges maps key by key and replaces the rest, like a --config-dir drop-in.
      if (patchDocs.has(doc)) sources.push({ doc, how: 'config-dir', label: 'a kubeadm patch' });
      // Later blocks of one machine (its patches), when the platform merges them unlike the first.
      else if (rule?.later && i > 0) sources.push({ doc, how: rule.later.how, label: rule.later.label });
      else sources.push(label ? { doc, how, label } : { doc, how });
    });
  }
  if (configDirFlag?.value) {
    const ref: ConfigRef = { flag: 'config-dir', path: configDirFlag.value, span: configDirFlag.valueSpan };
    // The kubelet reads only *.conf files of the folder, in lexical order.
    const dir = resolveDirReference(configDirFlag.value, ws.paths, configDirFlag.valueSpan.file);
    const found = links === 'any' || dir.by === 'identity' ? dir.paths.filter((p) => p.endsWith('.conf')) : [];
    ref.resolved = found;
    if (found.length) ref.by = dir.by;
    for (const to of found) linked.push({ what: '--config-dir', ref: configDirFlag.value, span: configDirFlag.valueSpan, to, by: dir.by });
    for (const path of found) {
      files.add(path);
      for (const doc of readByKubelet(ws.get(path, 'kubelet-config', { fragment: true })?.config?.kubeletConfigs ?? [], problems)) {
        node.kubeletConfigs.push(doc);
        sources.push({ doc, how: 'config-dir' });
      }
    }
    if (found.length === 0) problems.push(unresolved(configDirFlag.valueSpan, configDirFlag.value, '--config-dir'));
    node.configRefs.push(ref);
  }

  const terraform = terraformPlaces(ws, [...files]);
  if (terraform) (node.templates ??= []).push(terraform);
  const allFlags = [...kubeadmFlags, ...node.flags];
  const places = templatePlaces(node);
  const eff = effectiveSettings(sources, allFlags, spec && node.platform ? platformBase(spec, node.platform) : undefined, places && new TemplatePlaces(places));
  if (node.platform) node.platformReplaced = exact(eff.replaced);
  node.settings = eff.settings;
  node.flagOnly = eff.flagOnly.size ? eff.flagOnly : NONE_FLAG_ONLY;
  node.shadowed = eff.shadowed.size ? eff.shadowed : NONE_SHADOWED;
  node.flags = allFlags;
  for (const x of eff.problems) problems.push(x);
  node.files = [...files];
  if (linked.length) node.links = linked;
  const unread = unreadFiles(ws, seed, node);
  if (unread.length) node.unread = unread;
  // A stream of 20,000 documents holds a node each, twice over in the CLI's fix check (issue #28): a list grown a push
  // at a time keeps 17 slots for the usual one item (an exact copy), and an empty one is the one shared empty list.
  node.kubeletConfigs = exact(node.kubeletConfigs);
  node.kubeadm = exact(node.kubeadm);
  node.argv = exact(node.argv);
  node.flags = exact(node.flags);
  node.positional = exact(node.positional);
  node.configRefs = exact(node.configRefs);
  return { node, argProblems, problems };
}

/** The settings without the platform defaults the platform sets only for newer kubelets than this one (Provenance.since). */
function forVersion(settings: ReadonlyMap<string, Setting>, version: string): ReadonlyMap<string, Setting> {
  let out: Map<string, Setting> | undefined;
  for (const [k, s] of settings) {
    if (s.from.how !== 'platform' || s.from.since === undefined || compareVersions(version, s.from.since) >= 0) continue;
    (out ??= new Map(settings)).delete(k);
  }
  return out ?? settings;
}

/**
 * The node model: the build, the runtime configs joined to it (their paths end `files`) and its capacity and
 * version. Nothing changes it afterwards.
 */
export function completeNode(b: NodeBuild, files: readonly string[], runtimes: readonly AttachedRuntime[], settings: NodeSettings): NodeModel {
  const { capacity, capacitySource, capacityCandidates, kubernetesVersion, kubernetesVersionSource, kubernetesVersionStated, kubernetesVersionAssumed } = settings;
  const withCpu = b.platform && b.platformSpec?.capacitySettings ? b.platformSpec.capacitySettings(b.platform, b.settings, capacity) : undefined;
  // One copy, added to in place before anyone sees it: spreading the build (its optional fields vary from node to
  // node) twice was the analysis's costliest line in a long stream.
  const node: { -readonly [K in keyof NodeModel]: NodeModel[K] } = Object.assign({}, b, { settings: forVersion(withCpu ?? b.settings, kubernetesVersion), files: files === b.files ? b.files : [...files], runtimes: runtimes.length ? runtimes.map((r) => r.driver) : NONE, capacity, capacitySource, kubernetesVersion, kubernetesVersionSource });
  if (kubernetesVersionStated) node.kubernetesVersionStated = kubernetesVersionStated;
  if (kubernetesVersionAssumed) node.kubernetesVersionAssumed = true;
  if (capacityCandidates) node.capacityCandidates = capacityCandidates;
  return node;
}

/**
 * The kubelet arguments one node's analysis reads. Every flag costs objects, checks and often a finding: a legal
 * 7.5 MB env file of 1.3 million flags took seconds and gigabytes per analysis, on every keystroke (issue #18). Real
 * command lines hold tens of flags; the rest is reported once, as not checked.
 */
export const MAX_KUBELET_ARGS = 10_000;

function tooManyArgs(argv: readonly Word[]): Finding {
  return finding('kubelet-args-not-checked', 'information', argv[MAX_KUBELET_ARGS].span,
    `Only the first ${fmtCount(MAX_KUBELET_ARGS)} kubelet arguments are checked; this one and those after it are not.` +
      ' Their flags are neither checked nor part of the effective settings, allocatable or hovers. No real command line is this long: a generated or repeated list of flags is the usual cause.');
}

/** A word starting with `-` (no nested quantifier: one character class, one alternative). */
const HOLDS_FLAG = /(?:^|[ \t\n"'])-/;

/**
 * execve()'s limits on the expanded command line (see ARGV_DEFAULT_MAX in parse/systemd/exec.ts); the unit's
 * environment block is copied by the same execve() and counts too.
 */
function argvSizeProblems(d: UnitDirective, size: ArgvSize, env: Iterable<{ assignment: EnvAssignment }>): Finding[] {
  const out: Finding[] = [];
  const span = d.valueMap.span(0, d.value.length);
  let bytes = size.bytes;
  for (const { assignment: a } of env) bytes += execBytes(a.name) + execBytes(a.value) - 8;
  if (size.truncated || bytes > ARGV_DEFAULT_MAX) {
    const how = size.truncated ? `more than ${mib(ARGV_HARD_MAX)} of arguments` : `${bytes} bytes of arguments and environment`;
    out.push(
      finding('exec-argv-too-long', 'error', span,
        `${d.key}= expands to ${how}; execve() fails with "Argument list too long".` +
          ` Linux copies at most ${mib(ARGV_DEFAULT_MAX)} of them with the default 8 MiB stack limit, never more than` +
          ` ${mib(ARGV_HARD_MAX)}.` + (size.truncated ? ` The analysis reads only the first ${mib(ARGV_HARD_MAX)}.` : '')),
    );
  }
  if (size.tooLong) {
    out.push(
      finding('exec-argv-too-long', 'error', size.tooLong.span,
        `This argument expands to ${size.tooLong.bytes} bytes; execve() fails with "Argument list too long".` +
          ` Linux takes one argument of at most ${ARG_STRLEN_MAX} bytes (MAX_ARG_STRLEN), its final NUL included.`),
    );
  }
  return out;
}

const mib = (n: number): string => `${n / (1024 * 1024)} MiB`;

function lastAssignments(list: readonly EnvAssignment[]): EnvAssignment[] {
  const byName = new Map<string, EnvAssignment>();
  for (const a of list) {
    byName.delete(a.name);
    byName.set(a.name, a);
  }
  return [...byName.values()];
}

/**
 * Files of the node the tool saw but could not read: drop-ins of its unit at its root, and files its references name
 * by identity (issue #37). A carrier records them (embed/expand.ts): a drop-in written by an unquoted here-document is
 * there on the machine, with contents only the running shell knows.
 */
function unreadFiles(ws: Workspace, seed: NodeSeed, node: Draft): UnreadFile[] {
  if (ws.unread.size === 0) return [];
  const out: UnreadFile[] = [];
  const add = (path: string) => {
    const u = ws.unread.get(path);
    if (u && !out.some((x) => x.path === path)) out.push({ path, shown: readablePath(path), why: u.why });
  };
  const main = seed.units[0]?.path;
  if (main) {
    const root = nodeRoot(main);
    const name = main.includes('.service.d/') ? basename(dirname(main)).slice(0, -2) : basename(main);
    for (const path of ws.unread.keys()) if (path.endsWith('.conf') && basename(dirname(path)) === `${name}.d` && nodeRoot(path) === root) add(path);
  }
  const unresolvedRefs: { ref: string; near: string }[] = [];
  for (const r of node.service?.envFileRefs ?? []) if (!r.resolved) unresolvedRefs.push({ ref: r.path, near: r.directive.keySpan.file });
  for (const r of node.configRefs) if (!r.resolved?.length) unresolvedRefs.push({ ref: r.path, near: r.span.file });
  const paths = [...ws.unread.keys()];
  for (const { ref, near } of unresolvedRefs) {
    const hit = resolveReference(ref, paths, near);
    if (hit?.by === 'identity') add(hit.path);
  }
  return out;
}

/** A document's first line (`apiVersion: ...` as a rule), where a finding about the whole document sits. */
function headSpan(doc: KubeletConfigDoc): Span {
  const root = doc.root;
  const head = root.kind === 'map' && root.entries.length ? root.entries[0] : undefined;
  return head ? { file: doc.span.file, range: { start: head.keySpan.range.start, end: (head.value.span ?? head.keySpan).range.end } } : doc.span;
}

/**
 * A file for `kubeadm join --config`: a JoinConfiguration and no InitConfiguration or ClusterConfiguration. kubeadm join
 * decodes only the JoinConfiguration of it (cmd/kubeadm/app/util/config/joinconfiguration.go
 * documentMapToJoinConfiguration skips every other kind, read in k8s.io/kubernetes v1.31.0); a joining kubelet takes the
 * cluster's kubelet-config ConfigMap, which `kubeadm init` wrote. A KubeletConfiguration beside it reaches no kubelet.
 */
function readByKubeadmJoin<R extends { kubeletConfigs: readonly KubeletConfigDoc[]; kubeadm: readonly KubeadmDoc[] }>(read: R, problems: Finding[]): R {
  if (!read.kubeletConfigs.length || !read.kubeadm.some((d) => d.kind === 'JoinConfiguration')) return read;
  if (read.kubeadm.some((d) => d.kind === 'InitConfiguration' || d.kind === 'ClusterConfiguration')) return read;
  for (const doc of read.kubeletConfigs) {
    const span = headSpan(doc);
    problems.push(
      finding(
        'kubeadm-join-ignores-config',
        'warning',
        span,
        'kubeadm join ignores this KubeletConfiguration: none of its settings reach the kubelet. ' +
          "kubeadm join decodes only the JoinConfiguration of its --config file; a joining node takes the cluster's kubelet-config ConfigMap, written by kubeadm init. " +
          "Put cluster-wide settings in kubeadm init's file, per-node ones in nodeRegistration.kubeletExtraArgs or a kubeadm patch.",
      ),
    );
  }
  return { ...read, kubeletConfigs: [] };
}

/**
 * The documents of a config file the kubelet reads (--config, a --config-dir drop-in): the first one only, and it says
 * nothing of the rest. It decodes the whole file as one object (codec.go DecodeKubeletConfiguration, through
 * sigs.k8s.io/yaml YAMLToJSON to go-yaml's Unmarshal, which parses one document and stops); checked with the kubelet
 * v1.33.13 and v1.37.2 loaders (configfiles.go Load, LoadIntoJSON): maxPods 50 of a 50 / 70 stream, and invalid YAML
 * in the second document is never seen. A file whose first document is no KubeletConfiguration is left as read.
 */
function readByKubelet(docs: readonly KubeletConfigDoc[], problems: Finding[]): readonly KubeletConfigDoc[] {
  if (docs.length < 2 || docs[0].docIndex !== 0) return docs;
  const later = docs.slice(1);
  const span = headSpan(later[0]);
  const line = span.range.start.line + 1;
  problems.push(
    finding(
      'config-document-ignored',
      'warning',
      span,
      `The kubelet reads only the first document of this file: ${later.length === 1 ? `the KubeletConfiguration from line ${line} has` : `the ${later.length} KubeletConfigurations from line ${line} on have`} no effect. ` +
        'It decodes a config file as one YAML document (go-yaml stops after the first) and says nothing about the rest. ' +
        'Merge these settings into the first document, or give them a --config-dir drop-in (*.conf) of their own.',
    ),
  );
  return [docs[0]];
}

function unresolved(span: Span, path: string, what: string): Finding {
  return finding(
    'reference-unresolved',
    'information',
    span,
    `${what} names ${path}, which is not in the workspace: its contents are not checked.`,
  );
}

/**
 * kubeadm writes nodeRegistration.kubeletExtraArgs into kubeadm-flags.env as
 * `--name=value`; they act as command-line flags.
 */
/**
 * The kubeadm patch files of the kubelet's configuration in the `patches.directory` the node's Init or Join
 * configuration names, by suffix near the kubeadm file (a Cluster API object's `files[]` are in its own root), in
 * the order kubeadm applies them (patches.go: lexical order of the walk).
 */
function kubeadmPatches(ws: Workspace, docs: readonly KubeadmDoc[], near: string): string[] {
  const out = new Set<string>();
  for (const d of docs) {
    if (!d.patchesDirectory) continue;
    for (const path of resolveDirReference(withoutTrailingSlashes(d.patchesDirectory), ws.paths, near).paths) {
      if (isKubeletPatch(basename(path)) && ws.kind(path) === 'kubelet-config') out.add(path);
    }
  }
  return [...out];
}

function kubeadmExtraArgWords(doc: KubeadmDoc): Word[] {
  // Where the unquoted text of a key or scalar starts: its span includes quotes when it has them.
  // When the source is wider than the text for another reason (escapes), its characters are not known one by one:
  // the text maps to a point, so no fix edits it (replaceWord refuses zero-width spans).
  const inner = (span: Span, text: string) => {
    const r = span.range;
    const width = r.start.line === r.end.line ? r.end.character - r.start.character : -1;
    const quoted = width === text.length + 2;
    return { line: r.start.line, character: r.start.character + (quoted ? 1 : 0), exact: quoted || width === text.length };
  };
  return doc.kubeletExtraArgs.map((a) => {
    const ns = inner(a.nameSpan, a.name);
    const vs = inner(a.valueSpan, a.value);
    const map = new TextMap(a.nameSpan.file, [
      { offset: 0, line: ns.line, character: ns.character, length: 0 },
      { offset: 2, line: ns.line, character: ns.character, length: ns.exact ? a.name.length : 0 },
      { offset: 2 + a.name.length, line: vs.line, character: vs.character, length: 0 },
      { offset: 3 + a.name.length, line: vs.line, character: vs.character, length: vs.exact ? a.value.length : 0 },
    ]);
    const span: Span = { file: a.nameSpan.file, range: { start: a.nameSpan.range.start, end: a.valueSpan.range.end } };
    return { text: `--${a.name}=${a.value}`, span, map };
  });
}

/** A platform's semantics by id; a PlatformInfo whose platform is not registered is a bug, said loudly. */
function platformSpec(ws: Workspace, id: string): PlatformSemantics {
  const spec = ws.registry.platform(id);
  if (!spec) throw new Error(`no platform ${id} is registered (server/src/platforms/index.ts)`);
  return spec;
}
