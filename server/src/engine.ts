/**
 * The engine's one entry point: files in, nodes and findings out.
 * Knows nothing about editors; the CLI and the language server both call it.
 */
import type { Finding, Severity } from './model/finding.ts';
import type { SourceFile } from './model/source.ts';
import { NEWEST_VERSION } from './catalog/flags.ts';
import { computeAllocatable, type Allocatable } from './node/allocatable.ts';
import { buildNode, completeNode, type BuiltNode } from './node/build.ts';
import { capacityKey } from './node/capacity.ts';
import { inPlatformWords } from './node/platform.ts';
import { groupNodes, type NodeSeed } from './node/group.ts';
import type { Capacity, NodeModel } from './node/model.ts';
import { nodeSettings, type NodeSettings } from './node/modelines.ts';
import type { NodeInputs } from './node/reuse.ts';
import { spansByValue, Workspace, type ParseCache } from './node/parse-cache.ts';
import type { ParsedFile } from './node/parse-files.ts';
import { FILE_WIDE, type Suppression } from './parse/suppressions.ts';
import { attachRuntimes, type AttachedRuntime } from './node/runtimes.ts';
import { restOnGuesses } from './node/guesses.ts';
import { Evidence } from './node/evidence.ts';
import { filesReadAsWritten, placeholdersAsConditions } from './node/placeholders.ts';
import { kubeadmApiByVersion } from './node/kubeadm-api.ts';
import { RULES } from './registry.ts';
import { mayBeRendered, placeholderTest, restsOnPlaceholder, settingsInView, templatePlaces } from './node/template.ts';
import { keepLineEnds } from './fixes/keep-line-ends.ts';
import { matchLineEnds } from './fixes/line-ends.ts';
import { byCodeUnit } from './model/order.ts';
import { offsetOf } from './model/range.ts';
import { formatOf, REGISTRY, STANDALONE_ORDER, SYSTEMD_LINE_KINDS } from './registry.ts';
import { findingToHost, textToHost } from './embed/to-host.ts';
import { workspaceKubeadmVersion } from './node/version.ts';
import { carrierOf, type Payload } from './embed/payload.ts';
import { nodeRoot } from './model/paths.ts';
import type { KubeadmDoc } from './parse/types.ts';

export interface AnalyzeOptions {
  capacity?: Capacity;
  /** Where `capacity` came from, when it has a story to tell ("m5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table)"). */
  capacitySource?: string;
  /** Target minor version, e.g. "1.31"; wins over what the files say (node/version.ts). */
  kubernetesVersion?: string;
  /** Target systemd version, e.g. 252 (env files read as before 254); default: the newest behaviour. */
  systemdVersion?: number;
  /** Where kubernetesVersion was given, for the user: `--kubernetes-version` (the default) or the editor setting. */
  kubernetesVersionSource?: string;
  /** Rule ids to leave out. */
  disabledRules?: ReadonlySet<string>;
  /** Severity per rule id, overriding the rule's own ('off' drops it). */
  ruleSeverity?: ReadonlyMap<string, Severity | 'off'>;
}

/**
 * Each option as it takes part in reusing a node's results (node/reuse.ts): a value compared with ===. The type
 * has one field per option, so a new option does not compile until it says whether it changes a node's results.
 */
type OptionInputs = { readonly [K in keyof Required<AnalyzeOptions>]: string };

function optionInputs(options: AnalyzeOptions, version: string): OptionInputs {
  return {
    capacity: capacityKey(options.capacity),
    capacitySource: options.capacitySource ?? '',
    kubernetesVersion: version,
    systemdVersion: String(options.systemdVersion ?? ''),
    kubernetesVersionSource: options.kubernetesVersionSource ?? '',
    // Compared by content: the same Set changed between two analyses must not bring back stale findings.
    disabledRules: [...(options.disabledRules ?? [])].sort().join(' '),
    // Applied to every finding after reuse (configure), so kept results do not depend on it.
    ruleSeverity: '',
  };
}

export interface NodeResult {
  node: NodeModel;
  allocatable: Allocatable;
}

export interface Analysis {
  nodes: NodeResult[];
  findings: Finding[];
  /** Every file the engine recognised, parsed once (for editor features that look up what is at a position). */
  files: Map<string, ParsedFile>;
  /**
   * Every analysed payload by its workspace path, with the carrier file it lies in: also payloads of payloads (a
   * script in a MIME part), mapped straight to the outer file (embed/expand.ts).
   */
  payloads?: ReadonlyMap<string, { host: string; payload: Payload }>;
}

const STANDALONE_KINDS: ReadonlySet<string> = new Set(STANDALONE_ORDER);
/** The one empty list of carriers (frozen: no module-level value anyone can change). */
const NONE: readonly string[] = Object.freeze([]);
/** STANDALONE_ORDER.indexOf, as a map (the sort below asks it for every comparison). */
const STANDALONE_RANK: ReadonlyMap<string, number> = new Map(STANDALONE_ORDER.map((k) => [k, STANDALONE_ORDER.indexOf(k)]));

/** `cache`: parses to reuse across analyses (the language server's); results are the same with or without it. */
export function analyze(files: readonly SourceFile[], options: AnalyzeOptions = {}, cache?: ParseCache): Analysis {
  const ws = new Workspace(files, REGISTRY, cache);
  const version = options.kubernetesVersion ?? NEWEST_VERSION;
  const reuse = cache?.nodes.useful ? cache.nodes : undefined;
  reuse?.begin(ws.paths);
  const sd = options.systemdVersion;
  // A kept build is one made without a systemd version option (a modeline's is in the files it read).
  const build = (seed: NodeSeed): BuiltNode => (reuse && sd === undefined ? reuse.build(ws, seed, () => buildNode(ws, seed)) : buildNode(ws, seed, sd));
  const seeds: NodeSeed[] = groupNodes(ws);
  const built: BuiltNode[] = seeds.map(build);

  // Configs and env files nobody references are nodes of their own. Env files go first: one can name a
  // config (--config), which then belongs to its node and is not also read alone, without the flags that
  // override it (found by npm run fuzz, seed 20261129).
  const claimed = new Set<string>();
  for (const b of built) for (const f of b.node.files) claimed.add(f);
  const unread: Finding[] = [];
  // Files a platform's file makes part of its node (Format.node.claims) are never nodes alone, whichever is first.
  for (const path of ws.paths) {
    const kind = ws.kind(path);
    const claims = kind ? formatOf(kind).node?.claims : undefined;
    if (claims) for (const f of claims(ws, path)) claimed.add(f);
  }
  const standalone = ws.paths.filter((p) => STANDALONE_KINDS.has(ws.kind(p) ?? ''));
  standalone.sort((a, b) => STANDALONE_RANK.get(ws.kind(a)!)! - STANDALONE_RANK.get(ws.kind(b)!)!);
  for (const path of standalone) {
    if (claimed.has(path)) continue;
    // A platform's file anchors a node when it holds kubelet settings, or when its hooks say so (Format.node).
    const kind = ws.kind(path)!;
    const hooks = formatOf(kind).node;
    if (hooks) {
      const read = hooks.read(ws, path);
      if ('none' in read) {
        for (const x of read.problems) unread.push(x);
        continue;
      }
    } else if (REGISTRY.platformOfKind(kind) !== undefined && !ws.get(path)?.config?.platform) continue;
    const seed = { anchor: path, units: [], masked: [], standalone: path };
    const b = build(seed);
    seeds.push(seed);
    built.push(b);
    for (const f of b.node.files) claimed.add(f);
  }

  const findings: Finding[] = [...unread];
  const runtimes = attachRuntimes(ws, built.map((b) => b.node.files), built.map((b) => b.node.service !== undefined));
  // The one kubernetesVersion all kubeadm files of a node root agree on, for the nodes of that root whose own files
  // name none (issue #37: a version never crosses node roots).
  const kubeadmByRoot = new Map<string, KubeadmDoc[]>();
  for (const p of ws.paths) {
    const kind = ws.kind(p);
    if (kind !== 'kubeadm-config' && kind !== 'kubelet-config') continue;
    const docs = ws.get(p)?.config?.kubeadm;
    if (!docs?.length) continue;
    const root = nodeRoot(p);
    kubeadmByRoot.set(root, [...(kubeadmByRoot.get(root) ?? []), ...docs]);
  }
  const workspaceAt = (root: string) => {
    const docs = kubeadmByRoot.get(root);
    return docs && workspaceKubeadmVersion(docs);
  };
  const withoutWorkspace = { capacity: options.capacity, capacitySource: options.capacitySource, kubernetesVersion: options.kubernetesVersion, kubernetesVersionSource: options.kubernetesVersionSource, workspace: undefined };
  const optionValues = optionInputs(options, version);
  const givenKey = JSON.stringify([capacityKey(withoutWorkspace.capacity), withoutWorkspace.capacitySource ?? null, withoutWorkspace.kubernetesVersion ?? null, withoutWorkspace.kubernetesVersionSource ?? null, null], spansByValue);

  // The root's kubeadm version is for the kubeadm-style nodes beside it (units, drop-ins, configs on disk); a
  // platform's node or a carrier's payload states its own or none, and never takes a version another file gives.
  const nodes: NodeResult[] = [];
  built.forEach((b, i) => {
    // What the node's results are computed from (node/reuse.ts): the options and the parse of every file it read.
    // (no new arrays for a node without runtimes or carriers: a keystroke in a large workspace visits every node)
    const files = runtimes[i].length ? [...b.node.files, ...runtimes[i].map((r) => r.path)] : b.node.files;
    const parses = files.map((f) => ws.get(f));
    // A carrier's own modelines (a capacity line atop a Karpenter or Cluster API file) hold for the nodes of its
    // payloads; a payload's own modeline still wins (it comes later).
    let carriers: readonly string[] = NONE;
    for (const f of files) {
      const c = carrierOf(f);
      if (c !== undefined && !carriers.includes(c)) carriers = carriers === NONE ? [c] : [...carriers, c];
    }
    const carrierParses = carriers.map((c) => ws.get(c));
    const forCarriers = () => {
      const found = carrierNodeSettings(b.node, carrierParses, parses, givenKey, () => nodeSettings([...carrierParses, ...parses], withoutWorkspace, b.node.kubeletImage));
      // Where the capacity and version come from, said in the carrier's lines when a payload says it.
      return settingsInHost(found, ws);
    };
    // What a carrier gives its payloads' nodes is these settings only (its modelines and instance types), so they,
    // not the carrier's parse, are the node's input: typing in one document of a long stream changes the carrier's
    // parse but not the other documents' nodes.
    const early = carriers.length && reuse ? forCarriers() : undefined;
    const workspace = carriers.length || b.node.platform ? undefined : workspaceAt(nodeRoot(b.node.id));
    const given = workspace ? { ...withoutWorkspace, workspace } : withoutWorkspace;
    const inputs: NodeInputs | undefined = reuse
      ? early
        ? { options: { ...optionValues, workspaceVersion: '', carrierSettings: settingsKey(early) }, files, parses }
        : { options: { ...optionValues, workspaceVersion: workspace?.source ?? '' }, files, parses }
      : undefined;
    const kept = inputs ? reuse!.get(b.node.id, inputs) : undefined;
    if (kept) {
      nodes.push({ node: kept.node, allocatable: kept.allocatable });
      for (const x of kept.findings) findings.push(x);
      return;
    }
    const settings = early ?? (carriers.length ? forCarriers() : nodeSettings(parses, given, b.node.kubeletImage));
    const { node, allocatable, own: found } = judgeNode(b, files, runtimes[i], settings, options.disabledRules);
    nodes.push({ node, allocatable });
    // A file found by its name alone may not be the one the reference means: what rests on that guess is a condition.
    const own = node.links?.some((l) => l.by === 'name')
      ? restOnGuesses(found, node, () => {
          const alone = buildNode(ws, seeds[i], sd, 'identity');
          const out = judgeNode(alone, alone.node.files, runtimes[i], settings, options.disabledRules).own;
          for (const l of node.links!) {
            if (l.by !== 'name' || alone.node.files.includes(l.to) || !STANDALONE_KINDS.has(ws.kind(l.to) ?? '')) continue;
            const b2 = buildNode(ws, { anchor: l.to, units: [], masked: [], standalone: l.to }, sd);
            for (const x of judgeNode(b2, b2.node.files, [], settings, options.disabledRules).own) out.push(x);
          }
          return out;
        })
      : found;
    for (const x of own) findings.push(x);
    if (inputs) reuse!.set(node.id, inputs, { node, allocatable, findings: own });
  });
  reuse?.end();
  // Files no node claimed still get their own parse problems (an invalid daemon.json stops dockerd).
  for (const path of ws.paths) if (ws.kind(path)) ws.get(path);
  const notRead = documentsNotRead(findings);
  for (const p of ws.all()) for (const x of p.problems) if (!notRead || !(DOCUMENT_CODES.has(x.code) && x.range.start.line >= (notRead.get(x.file) ?? Infinity))) findings.push(x);
  for (const x of ws.notes) findings.push(x);

  const parsed = new Map(ws.all().map((p) => [p.path, p]));
  const systemdText = (path: string) => {
    const kind = parsed.get(path)?.kind;
    return kind && SYSTEMD_LINE_KINDS.has(kind) ? ws.text(path) : undefined;
  };
  const crlf = (path: string) => parsed.get(path)?.crlf === true;
  // A placeholder is a mistake only in a file a node reads as written (node/placeholders.ts).
  const settled = kubeadmApiByVersion(placeholdersAsConditions(findings, () => filesReadAsWritten(nodes)), nodes);
  const out = configure(matchLineEnds(keepLineEnds(dedupe(settled), systemdText), crlf), parsed, options);
  return { nodes, findings: ws.payloads.size ? inCarriers(out, ws, parsed) : out, files: parsed, ...(ws.payloads.size ? { payloads: ws.payloads } : {}) };
}

/**
 * A node's findings: the settings' problems, the build's, and every rule's as the evidence allows (node/evidence.ts),
 * in the platform's own words and with those resting on a template place lowered (node/template.ts).
 */
function judgeNode(b: BuiltNode, files: readonly string[], runtimes: readonly AttachedRuntime[], settings: NodeSettings, disabled: ReadonlySet<string> | undefined): { node: NodeModel; allocatable: Allocatable; own: Finding[] } {
  const node = completeNode(b.node, files, runtimes, settings);
  let own: Finding[] = [...settings.problems];
  const allocatable = computeAllocatable(node, node.capacity);
  for (const x of b.problems) own.push(x);
  // One context for every rule of the node (rules only read it), and indexed loops: 58 rules times every node of a
  // long stream made the loop itself a measurable part of an analysis.
  // Rules read the node through a recorder: a finding resting on a rendered value, or on a version no file states,
  // is an error or a warning only as far as the evidence allows (node/evidence.ts).
  const evidence = new Evidence(node);
  const ctx = { node: evidence.view, argProblems: b.argProblems, allocatable, versionForFixes: node.kubernetesVersion };
  for (let r = 0; r < RULES.length; r++) {
    const rule = RULES[r];
    if (disabled?.has(rule.id)) continue;
    evidence.clear();
    const found = evidence.judge((c) => rule.run(c), ctx, rule.run(ctx));
    for (let k = 0; k < found.length; k++) own.push(found[k]);
  }
  // A platform whose file names the kubelet's fields its own way: the findings about that file say its names.
  const names = node.platformSpec?.names;
  if (names && node.platform) own = own.map((x) => inPlatformWords(x, names, node.platform!.span.file));
  const places = templatePlaces(node);
  if (places) {
    const inView = settingsInView(node);
    const atPlaceholder = placeholderTest(places);
    own = own.filter((x) => !atPlaceholder(x) && !mayBeRendered(x, inView)).map(restsOnPlaceholder(places));
  }
  return { node, allocatable, own };
}

/** What a config file's reader says about one of its documents (parse/config.ts). */
const DOCUMENT_CODES: ReadonlySet<string> = new Set(['config-syntax', 'config-alias', 'config-field-duplicate', 'config-kind-invalid', 'config-placeholder']);

/**
 * Per config file the kubelet reads, the line from which it reads nothing (a config-document-ignored finding, node/build.ts
 * readByKubelet): what the file's reader says of the documents there is about text the kubelet never decodes, such as
 * a wrong apiVersion in the second document, which it never sees.
 */
function documentsNotRead(findings: readonly Finding[]): Map<string, number> | undefined {
  let out: Map<string, number> | undefined;
  for (const f of findings) {
    if (f.code !== 'config-document-ignored') continue;
    out ??= new Map();
    out.set(f.file, Math.min(out.get(f.file) ?? Infinity, f.range.start.line));
  }
  return out;
}

/** Node settings as one value compared with ===: every field, the capacities' quantities and each problem's place and words. */
function settingsKey(s: NodeSettings): string {
  return [s.kubernetesVersionSource, s.capacitySource ?? '', restKey(s)].join('\0');
}

/**
 * settingsKey but for the two sources, made once per nodeSettings result (known by its problems list, which the
 * copies with other sources share: forCarriers).
 */
const REST_KEYS = new WeakMap<object, string>();
function restKey(s: NodeSettings): string {
  const key = s.problems;
  let k = REST_KEYS.get(key);
  if (k !== undefined) return k;
  const capacity = (c: Capacity | undefined) => (c ? capacityKey(c) : '');
  const parts = [s.kubernetesVersion, capacity(s.capacity)];
  for (const c of s.capacityCandidates ?? []) parts.push(c.name, c.source, capacity(c.capacity));
  for (const f of s.problems) parts.push(f.code, f.severity, f.file, JSON.stringify(f.range), f.message);
  k = parts.join('\0');
  REST_KEYS.set(key, k);
  return k;
}

/**
 * What nodeSettings reads of a carrier's parse, as one value: a keystroke elsewhere in a long stream makes a new parse
 * of the carrier that says the same (its modelines atop the file, instance types and versions it names).
 */
const CARRIER_KEYS = new WeakMap<ParsedFile, string>();
function carrierKey(p: ParsedFile | undefined): string {
  if (!p) return '';
  let k = CARRIER_KEYS.get(p);
  if (k === undefined) {
    const kubeadm = (p.config?.kubeadm ?? []).map((d) => d.kubernetesVersion ?? null);
    k = JSON.stringify([p.path, p.modelines, p.instanceTypes ?? null, p.versions ?? null, kubeadm], spansByValue);
    CARRIER_KEYS.set(p, k);
  }
  return k;
}

/**
 * nodeSettings of a node of a carrier's payload, kept while the node's build (and so its kubelet image), its files'
 * parses, what its carriers say (carrierKey) and the analysis options are the same: for each of the hundred nodes of a
 * long stream it was most of a keystroke's work outside the edited document.
 */
const CARRIER_SETTINGS = new WeakMap<object, { carriers: string; given: string; parses: readonly (ParsedFile | undefined)[]; found: NodeSettings }>();
function carrierNodeSettings(node: object, carrierParses: readonly (ParsedFile | undefined)[], parses: readonly (ParsedFile | undefined)[], given: string, make: () => NodeSettings): NodeSettings {
  const carriers = carrierParses.map(carrierKey).join('\0');
  const have = CARRIER_SETTINGS.get(node);
  if (have && have.carriers === carriers && have.given === given && have.parses.length === parses.length && have.parses.every((p, i) => p === parses[i])) return have.found;
  const found = make();
  CARRIER_SETTINGS.set(node, { carriers, given, parses, found });
  return found;
}

/**
 * The node settings with their sources said in the carriers' lines (textToHost), kept per settings object while every
 * payload they cite is the same object: each keystroke in a long stream asked it again for every node.
 */
const IN_HOST = new WeakMap<NodeSettings, ViaPayloads<NodeSettings>>();
function settingsInHost(found: NodeSettings, ws: Workspace): NodeSettings {
  return viaPayloads(IN_HOST, found, ws, (payloadOf) => ({
    ...found,
    kubernetesVersionSource: textToHost(found.kubernetesVersionSource, payloadOf),
    ...(found.capacitySource ? { capacitySource: textToHost(found.capacitySource, payloadOf) } : {}),
  }));
}

/** What was made from an object through the payloads it looked up, each as its carrier and payload object. */
interface ViaPayloads<T> {
  looked: [string, string | undefined, Payload | undefined][];
  to: T;
}

/** make(payloadOf), kept per `key` while every payload it looked up through payloadOf is the same. */
function viaPayloads<K extends object, T>(memo: WeakMap<K, ViaPayloads<T>>, key: K, ws: Workspace, make: (payloadOf: (path: string) => { host: string; payload: Payload } | undefined) => T): T {
  const have = memo.get(key);
  const same = ([path, host, payload]: [string, string | undefined, Payload | undefined]) => {
    const p = ws.payload(path);
    return p?.host === host && p?.payload === payload;
  };
  if (have && have.looked.every(same)) return have.to;
  const looked: ViaPayloads<T>['looked'] = [];
  const to = make((path) => {
    const p = ws.payload(path);
    looked.push([path, p?.host, p?.payload]);
    return p;
  });
  memo.set(key, { looked, to });
  return to;
}

/** Whether the placeholder a finding is about is one the payload's machine fills in (Payload.filledOnMachine). */
function filledThere(p: Payload, f: Finding): boolean {
  const start = offsetOf(p.text, f.range.start);
  const end = offsetOf(p.text, f.range.end);
  if (start === undefined || end === undefined) return false;
  const value = p.text.slice(start, end);
  return p.filledOnMachine!.test(value.replace(/^(["'])(.*)\1$/s, '$2'));
}

/** Findings about payloads, at their places in the carrier files (embed/to-host.ts), in file and position order. */
function inCarriers(list: Finding[], ws: Workspace, parsed: ReadonlyMap<string, ParsedFile>): Finding[] {
  // A placeholder in a payload of a template carrier is filled in when the carrier is rendered, and the carrier says
  // once that its directives decide lines (config-template); a carrier may keep rules quiet whose misses the tool it
  // configures supplies (Format.quietInPayloads).
  const kept = list.filter((f) => {
    const p = ws.payload(f.file);
    if ((f.code === 'config-placeholder' || f.code === 'config-template') && p?.payload.template) return false;
    if (f.code === 'config-placeholder' && p?.payload.filledOnMachine && filledThere(p.payload, f)) return false;
    if (p?.payload.quiet?.includes(f.code)) return false;
    const host = p && ws.kind(p.host);
    return !(host && formatOf(host).quietInPayloads?.includes(f.code));
  });
  // Payloads that share carrier text (a talhelper patch every node applies) report its mistakes once.
  // (Only across payloads: two findings of one payload may land on one point of a carrier that holds it whole.)
  // Keyed by place, code and message, each with the payload of the first such finding (the findings a payload the
  // carrier holds whole reports all land on one place: a list per place made this quadratic, issue #28).
  const at = new Map<string, string>();
  const mapped: Finding[] = [];
  for (const f of kept) {
    const g = findingToHostOnce(f, ws);
    // The carrier's own suppression comments hold for what is reported in it (a "disable for this file" atop a
    // YAML stream or a cloud-config, one above a line whose payload is base64; issue #28 point 4).
    const hostSup = g.file !== f.file ? parsed.get(g.file)?.suppressions : undefined;
    if (hostSup?.length && suppressed(g, hostSup)) continue;
    const r = g.range;
    const key = `${g.file}\0${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}\0${g.code}\0${g.message}`;
    const first = at.get(key);
    if (first !== undefined && first !== f.file) continue;
    if (first === undefined) at.set(key, f.file);
    mapped.push(g);
  }
  return mapped.sort((a, b) => byCodeUnit(a.file, b.file) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/**
 * findingToHost, kept per finding while every payload it looked up is the same: a keystroke in one document of a long
 * stream leaves the findings of the other nodes and the payloads before it as they were (formats/yaml-stream.ts).
 */
const TO_HOST = new WeakMap<Finding, ViaPayloads<Finding>>();
function findingToHostOnce(f: Finding, ws: Workspace): Finding {
  return viaPayloads(TO_HOST, f, ws, (payloadOf) => findingToHost(f, payloadOf));
}

/** Same finding, given the same file and start. */
function sameFinding(a: Finding, b: Finding): boolean {
  return (
    a.code === b.code &&
    a.range.end.line === b.range.end.line &&
    a.range.end.character === b.range.end.character &&
    a.message === b.message
  );
}

/** Suppression comments, disabled rules and severity overrides. */
function configure(list: Finding[], files: Map<string, ParsedFile>, options: AnalyzeOptions): Finding[] {
  const out: Finding[] = [];
  for (const f of list) {
    if (options.disabledRules?.has(f.code)) continue;
    const sup = files.get(f.file)?.suppressions;
    if (sup && sup.length && suppressed(f, sup)) continue;
    const sev = options.ruleSeverity?.get(f.code);
    if (sev === 'off') continue;
    out.push(sev ? { ...f, severity: sev } : f);
  }
  return out;
}

function suppressed(f: Finding, sup: readonly Suppression[]): boolean {
  for (const s of sup) if ((s.line === f.range.start.line || s.line === FILE_WIDE) && (!s.ids || s.ids.has(f.code))) return true;
  return false;
}

function dedupe(list: Finding[]): Finding[] {
  // Same code, file, range and message. Sorted first: the sort is stable, so copies keep their input order and the
  // first one is the one kept, and copies end up in the run of findings with their file and start, which are
  // compared field by field. No map or key per finding (a large file has thousands of findings).
  list.sort(
    (a, b) =>
      byCodeUnit(a.file, b.file) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      byCodeUnit(a.code, b.code),
  );
  const out: Finding[] = [];
  let run = 0; // where the kept findings at the current file and start begin
  for (const f of list) {
    const first = out[run];
    if (first !== undefined && !(first.file === f.file && first.range.start.line === f.range.start.line && first.range.start.character === f.range.start.character)) run = out.length;
    let copy = false;
    for (let i = run; i < out.length && !copy; i++) copy = sameFinding(f, out[i]);
    if (!copy) out.push(f);
  }
  return out;
}
