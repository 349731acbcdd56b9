/** The files of one analysis, parsed lazily and once, by path. */
import type { FileKind, SourceFile } from '../model/source.ts';
import type { NodeRegistry } from './platform.ts';
import { carrierOf, type Payload } from '../embed/payload.ts';
import { expandCarrier, type Expansion } from '../embed/expand.ts';
import type { Finding } from '../model/finding.ts';
import { parseAs, type ParsedFile } from './parse-files.ts';
import type { Format } from '../formats/types.ts';
import type { LineIndex } from '../model/range.ts';
import { NodeReuse } from './reuse.ts';

interface CachedParse {
  text: string;
  fragment: boolean;
  parsed: ParsedFile;
}

/**
 * Parses kept across analyses (the language server analyses the workspace
 * after every keystroke, yet usually only one file changed), and with them
 * each node's build and results (`nodes`, see reuse.ts). An entry
 * is reused only when the text is the very same (=== is a pointer compare for
 * the unchanged strings the host passes again, a length or content compare
 * otherwise), so results are exactly those of a fresh parse; parsed files are
 * never mutated after parseAs. At most one text per path and kind is kept, and
 * `retain` drops paths that are no longer part of the workspace.
 */
export class ParseCache {
  /** Node results kept for the next analysis (see reuse.ts): only ever reused on the very same parses. */
  readonly nodes = new NodeReuse();
  private readonly parses = new Map<string, Map<FileKind, CachedParse>>();
  private readonly kinds = new Map<string, { text: string; kind: FileKind | undefined }>();

  /** Set by freeze(), until retain(): analyses read what the cache holds and add nothing to it. */
  private frozen = false;

  /**
   * From now until retain(), analyses read the parses and node results the cache holds and keep none of their own:
   * the CLI's fix check analyses variants of one workspace (each with other files edited), whose files that are
   * back to their original text find their original parses and node results here, while a variant's own parses go
   * with its analysis (kept, the variants of a 20,000-document stream doubled the CLI's peak memory).
   */
  freeze(): void {
    this.frozen = true;
    this.nodes.freeze();
  }

  detect(path: string, text: string, registry: NodeRegistry): FileKind | undefined {
    const have = this.kinds.get(path);
    if (have && have.text === text) return have.kind;
    const kind = registry.detectKind(path, text);
    if (!this.frozen) this.kinds.set(path, { text, kind });
    return kind;
  }

  parse(src: SourceFile, format: Format, opts?: { fragment?: boolean; lines?: LineIndex }): ParsedFile {
    const fragment = !!opts?.fragment;
    const kind = format.kind;
    let byKind = this.parses.get(src.path);
    const have = byKind?.get(kind);
    if (have && have.text === src.text && have.fragment === fragment) return have.parsed;
    // The last parse of this file, for a format that reuses what an edit left as it was (formats/types.ts ParseOptions).
    const previous = have && have.fragment === fragment ? { text: have.text, parsed: have.parsed } : undefined;
    const parsed = parseAs(src, format, previous ? { ...opts, previous } : opts);
    if (this.frozen) return parsed;
    if (!byKind) this.parses.set(src.path, (byKind = new Map()));
    byKind.set(kind, { text: src.text, fragment, parsed });
    return parsed;
  }

  /** Forgets every path not in `paths` (deleted files, closed untitled documents, removed folders). */
  retain(paths: ReadonlySet<string>): void {
    this.frozen = false;
    this.nodes.retain(paths);
    // A carrier's payloads go with it.
    const kept = (p: string) => paths.has(p) || paths.has(carrierOf(p) ?? p);
    for (const p of this.parses.keys()) if (!kept(p)) this.parses.delete(p);
    for (const p of this.kinds.keys()) if (!kept(p)) this.kinds.delete(p);
  }

  get size(): number {
    return this.parses.size;
  }
}

/** One get() of a build, with what it returned (see Workspace.record). */
export interface FileRead {
  path: string;
  kind: FileKind | undefined;
  fragment: boolean;
  parsed: ParsedFile | undefined;
}

const NO_KIND = Symbol('no kind');

export class Workspace {
  readonly paths: string[];
  private readonly sources = new Map<string, SourceFile>();
  private readonly parsed = new Map<string, ParsedFile>();
  private readonly detected = new Map<string, FileKind | undefined>();
  private reads: FileRead[] | undefined;

  /** `fn()`, and every file it read through get() (what a node's build depends on, for node/reuse.ts). */
  record<T>(fn: () => T): { result: T; reads: FileRead[] } {
    const outer = this.reads;
    const reads: FileRead[] = [];
    this.reads = reads;
    try {
      return { result: fn(), reads };
    } finally {
      this.reads = outer;
      if (outer) for (const r of reads) outer.push(r);
    }
  }

  /** Whether every read gives what it gave before (the same parse objects: unchanged texts). */
  sameReads(reads: readonly FileRead[]): boolean {
    for (const r of reads) if (this.get(r.path, r.kind, r.fragment ? { fragment: true } : undefined) !== r.parsed) return false;
    return true;
  }

  /** Payloads of carrier files, by their workspace path (embed/payload.ts). */
  readonly payloads: Expansion['payloads'];
  /** Payloads that are not checked, and why. */
  readonly notes: Finding[];
  /** Files carriers write that were seen but could not be read (an expanded here-document), by workspace path. */
  readonly unread: Expansion['unread'];

  /** The formats and platforms, from the engine (server/src/registry.ts). */
  readonly registry: NodeRegistry;

  constructor(files: readonly SourceFile[], registry: NodeRegistry, private readonly cache?: ParseCache) {
    this.registry = registry;
    for (const f of files) this.sources.set(f.path, f);
    const x: Expansion = { sources: [], payloads: new Map(), notes: [], unread: new Map() };
    const carriers = registry.carrierKinds;
    const deps = { detect: (path: string, text: string) => this.detect(path, text), parse: (src: SourceFile, kind: FileKind) => this.parseOnce(src, kind), isCarrier: (k: FileKind) => carriers.has(k), quiet: (k: FileKind) => registry.formatOf(k).quietInPayloads };
    for (const f of files) if (carriers.has(this.kind(f.path)!)) expandCarrier(this.read(f.path)!, deps, x);
    for (const s of x.sources) this.sources.set(s.path, s);
    for (const [path, { payload }] of x.payloads) if (payload.kind) this.detected.set(path, payload.kind);
    this.payloads = x.payloads;
    this.notes = x.notes;
    this.unread = x.unread;
    this.paths = [...this.sources.keys()].sort();
  }

  /** The payload at a workspace path, with its carrier's path. */
  payload(path: string): { host: string; payload: Payload } | undefined {
    return this.payloads.get(path);
  }

  text(path: string): string | undefined {
    return this.sources.get(path)?.text;
  }

  private detect(path: string, text: string): FileKind | undefined {
    return this.cache ? this.cache.detect(path, text, this.registry) : this.registry.detectKind(path, text);
  }

  private parseOnce(src: SourceFile, kind: FileKind): ParsedFile {
    const format = this.registry.formatOf(kind);
    return this.cache ? this.cache.parse(src, format) : parseAs(src, format);
  }

  /** kind() of every path asked about: the parsed kind once a file is parsed, else the detected one. */
  private readonly kinds = new Map<string, FileKind | typeof NO_KIND>();

  kind(path: string): FileKind | undefined {
    // Asked thousands of times per analysis of a large workspace (grouping, claims, standalone files): one lookup.
    const k = this.kinds.get(path);
    if (k !== undefined) return k === NO_KIND ? undefined : k;
    let kind: FileKind | undefined = this.parsed.get(path)?.kind;
    if (kind === undefined) {
      if (!this.detected.has(path)) {
        const src = this.sources.get(path);
        this.detected.set(path, src ? this.detect(path, src.text) : undefined);
      }
      kind = this.detected.get(path);
    }
    this.kinds.set(path, kind ?? NO_KIND);
    return kind;
  }

  /**
   * The file parsed as `kind`. A file named by a reference (EnvironmentFile=,
   * --config) is read as what the referrer expects, whatever its name says.
   */
  get(path: string, kind?: FileKind, opts?: { fragment?: boolean }): ParsedFile | undefined {
    const p = this.read(path, kind, opts);
    this.reads?.push({ path, kind, fragment: !!opts?.fragment, parsed: p });
    return p;
  }

  private read(path: string, kind?: FileKind, opts?: { fragment?: boolean }): ParsedFile | undefined {
    const have = this.parsed.get(path);
    if (have && (kind === undefined || have.kind === kind || compatible(have.kind, kind))) return have;
    const src = this.sources.get(path);
    if (!src) return undefined;
    const k = kind ?? this.kind(path);
    if (!k) return undefined;
    const format = this.registry.formatOf(k);
    // A payload's parse reads its text with the payload's line index (formats/types.ts ParseOptions.lines).
    const payload = this.payloads?.get(path)?.payload;
    const o = payload && payload.text === src.text ? { ...opts, lines: payload.lines } : opts;
    const parsed = this.cache ? this.cache.parse(src, format, o) : parseAs(src, format, o);
    const p = withCarrierMentions(parsed, payload);
    this.parsed.set(path, p);
    this.kinds.set(path, p.kind);
    return p;
  }

  /** Every file parsed so far (including ones pulled in by references). */
  all(): ParsedFile[] {
    return [...this.parsed.values()];
  }
}

/**
 * The payload's parse with what its carrier says about it: the instance types and versions it names, the platform
 * tool that builds the kubelet's configuration from it and a talhelper node's `@file` patches (the same object while
 * all are unchanged). The payload's own versions come first: a patch's own kubelet image is more precise than its
 * carrier's.
 */
const WITH_TYPES = new WeakMap<ParsedFile, { key: string; to: ParsedFile }>();
function withCarrierMentions(p: ParsedFile, payload: Payload | undefined): ParsedFile {
  const given = payload?.platform && (p.config || p.env) && !p.config?.platform ? payload.platform : undefined;
  // (a span without a file is the payload's start, embed/payload.ts)
  const platform = given && !given.span.file ? { ...given, span: { file: p.path, range: given.span.range } } : given;
  const patches = payload?.patchRefs;
  if (!payload || (!payload.instanceTypes?.length && !payload.versions?.length && !platform && !patches)) return p;
  // By value: a carrier parsed again (a keystroke elsewhere in it) makes new payload objects that say the same; the
  // same object keeps the node's results (node/reuse.ts compares parses by identity).
  const key = mentionsKey(payload, given, given && !given.span.file ? p.path : '');
  const have = WITH_TYPES.get(p);
  if (have?.key === key) return have.to;
  const to = { ...p };
  if (payload.instanceTypes?.length) to.instanceTypes = [...(p.instanceTypes ?? []), ...payload.instanceTypes];
  if (payload.versions?.length) to.versions = [...(p.versions ?? []), ...payload.versions];
  if (platform && p.config) to.config = { ...p.config, platform };
  else if (platform) to.platform = platform;
  if (patches) to.patchRefs = patches;
  WITH_TYPES.set(p, { key, to });
  return to;
}

/**
 * What withCarrierMentions adds, as one value (a span without a file is at `path`): once per payload object, since
 * a payload before an edit keeps its object.
 */
const MENTIONS = new WeakMap<Payload, { given: unknown; path: string; key: string }>();
function mentionsKey(payload: Payload, given: unknown, path: string): string {
  const have = MENTIONS.get(payload);
  if (have && have.given === given && have.path === path) return have.key;
  const key = JSON.stringify([payload.instanceTypes ?? null, payload.versions ?? null, given ?? null, path, payload.patchRefs ?? null], spansByValue);
  MENTIONS.set(payload, { given, path, key });
  return key;
}

/** JSON of a span as its file and range (a LazySpan computes its range on demand). */
export function spansByValue(_key: string, v: unknown): unknown {
  if (v && typeof v === 'object' && 'file' in v && 'range' in v) {
    const s = v as { file: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } };
    return `${s.file}:${s.range.start.line}:${s.range.start.character}-${s.range.end.line}:${s.range.end.character}`;
  }
  return v;
}

function compatible(have: FileKind, want: FileKind): boolean {
  const cfg = new Set<FileKind>(['kubelet-config', 'kubeadm-config']);
  return cfg.has(have) && cfg.has(want);
}
