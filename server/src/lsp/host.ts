/**
 * Holds what the engine analyses (workspace files on disk, overlaid by the
 * open documents) and the latest analysis, recomputed only after a change.
 */
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analysis, AnalyzeOptions } from '../engine.ts';
import type { Finding, TextEdit } from '../model/finding.ts';
import type { SourceFile } from '../model/source.ts';
import type { ParseCache } from '../node/parse-cache.ts';
import { engine } from './engine-loader.ts';
import type { UriMapper } from './edge.ts';
import { LARGE_DOCUMENT_BYTES, MAX_SIZE, type FileStore } from './files.ts';
import { LargeDocument } from './large-document.ts';

export interface Snapshot {
  analysis: Analysis;
  /** Versions of the open documents the analysis saw, by URI. */
  versions: Map<string, number>;
  generation: number;
  /** Open documents left out of the analysis, by path, with the reason (told to the user as a diagnostic). */
  skipped: Map<string, string>;
  /** Set when the engine threw: the analysis is empty and this says why. */
  failure?: string;
  /** The files the analysis read (to check a quick fix by analysing the text it makes). */
  files: SourceFile[];
  /** A note for an open document, by path, added to its diagnostics (a large document analysed on save only). */
  notes: Map<string, string>;
}

const MIB = (n: number) => `${n / 1024 / 1024} MiB`;
/** Said atop a large document (LARGE_DOCUMENT_BYTES): what it is analysed with. */
export const LARGE_NOTE = `Analysed when opened and when saved, not as you type: the file is larger than ${MIB(LARGE_DOCUMENT_BYTES)} (kubelet configurations are a few KiB).`;
export const LARGE_STALE_NOTE = `${LARGE_NOTE} These findings are of the text saved last; save to check your edits (quick fixes wait until then).`;

/** Bytes of a text, counted only when it may be near the limit (UTF-8 is at most 3 bytes per UTF-16 unit). */
function tooLarge(text: string): boolean {
  return text.length * 3 > MAX_SIZE && utf8Length(text) > MAX_SIZE;
}

/** Whether a text is over `limit` UTF-8 bytes (a UTF-16 unit is at least one byte: a long text needs no count). */
function over(text: string, limit: number): boolean {
  return text.length > limit || (text.length * 3 > limit && utf8Length(text) > limit);
}

/** UTF-8 bytes of a string (a lone surrogate is written as U+FFFD, 3 bytes, as Node's Buffer.byteLength counts it). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export class AnalysisHost {
  private generation = 0;
  private cached: Snapshot | undefined;
  /** Parses of unchanged files are reused from one analysis to the next (made with the first analysis: see engine-loader.ts). */
  private parsesCache: ParseCache | undefined;
  private get parses(): ParseCache {
    return (this.parsesCache ??= new (engine().ParseCache)());
  }
  /** Open documents' URIs by path, rebuilt after any change (uriOf runs for every related location of every diagnostic). */
  private openUris: Map<string, string> | undefined;
  /** The last engine failure logged, so that a failure repeated on every keystroke is logged once. */
  private lastFailure: string | undefined;
  options: AnalyzeOptions = {};
  /**
   * The text each large open document was last analysed with (when opened, when saved) and its version, by path.
   * Versions, not texts, tell an edit: comparing two 7.5 MiB strings flattens and copies them on every keystroke.
   */
  private readonly analysedText = new Map<string, { text: string; version: number }>();
  /** The last analysis and its inputs: the same texts and options give the same analysis (a large document edited). */
  private previous: { texts: Map<string, string>; options: AnalyzeOptions; analysis: Analysis } | undefined;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly disk: FileStore,
    private readonly log: (message: string) => void = () => {},
    private readonly uris: UriMapper,
  ) {}

  /** The engine's path of a client URI. */
  pathOf(uri: string): string {
    return this.uris.toPath(uri);
  }

  private changeWaiters: (() => void)[] = [];

  /** Something the analysis depends on changed. */
  invalidate(): void {
    this.generation++;
    this.cached = undefined;
    this.openUris = undefined;
    const waiters = this.changeWaiters;
    this.changeWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * A document was saved: a large one is analysed again, with the text it has now. True when that changes the
   * analysis's input (the caller invalidates and schedules diagnostics).
   */
  saved(uri: string): boolean {
    return this.analysedText.delete(this.uris.toPath(uri));
  }

  /** A large document edited since it was analysed: its findings are of the text saved last, and no edit is offered. */
  stale(path: string): boolean {
    const kept = this.analysedText.get(path);
    if (kept === undefined) return false;
    const doc = this.documents.all().find((d) => this.uris.toPath(d.uri) === path);
    return doc !== undefined && doc.version !== kept.version;
  }

  /** Resolves at the next invalidate(). */
  nextChange(): Promise<void> {
    return new Promise((resolve) => this.changeWaiters.push(resolve));
  }

  /**
   * A document was closed: drop its parse now. Otherwise the cache holds the
   * closed text and its parse (tens of MB for a large file) until the next
   * analysis, which may not come for a long time.
   */
  forget(path: string): void {
    const keep = new Set<string>();
    for (const [p] of this.disk.entries()) keep.add(p);
    for (const doc of this.documents.all()) keep.add(this.uris.toPath(doc.uri));
    keep.delete(path);
    this.analysedText.delete(path);
    // Nor does the last analysis keep the closed text (or anything else) alive until the next one.
    this.previous = undefined;
    this.parsesCache?.retain(keep);
  }

  current(): Snapshot {
    if (this.cached && this.cached.generation === this.generation) return this.cached;
    const files = new Map<string, SourceFile>();
    for (const [path, text] of this.disk.entries()) files.set(path, { path, text });
    const versions = new Map<string, number>();
    const skipped = new Map<string, string>();
    const notes = new Map<string, string>();
    const open = new Set<string>();
    for (const doc of this.documents.all()) {
      const path = this.uris.toPath(doc.uri);
      versions.set(doc.uri, doc.version);
      const kept = this.analysedText.get(path);
      if (kept && doc instanceof LargeDocument && doc.length > LARGE_DOCUMENT_BYTES && doc.length <= MAX_SIZE) {
        // A large document, analysed when opened or saved: its text is not even read (joining its lines is a copy).
        open.add(path);
        notes.set(path, kept.version === doc.version ? LARGE_NOTE : LARGE_STALE_NOTE);
        files.set(path, { path, text: kept.text });
        continue;
      }
      // A didOpen without `text` leaves a document whose text is undefined: it costs only itself.
      const text: unknown = doc.getText();
      if (typeof text !== 'string') {
        files.delete(path);
        skipped.set(path, 'Not analysed: the editor opened this document without its text (didOpen had no "text").');
        continue;
      }
      if (tooLarge(text)) {
        // The same limit as for files on disk; the disk version of the file is left out too (it is not what the editor shows).
        files.delete(path);
        skipped.set(path, `Not analysed: the file is larger than ${MAX_SIZE / 1024 / 1024} MiB, the most the kubelet language server reads (kubelet configurations are a few KiB).`);
        continue;
      }
      open.add(path);
      if (over(text, LARGE_DOCUMENT_BYTES)) {
        // Analysed with the text it had when opened or saved last: typing in it costs no analysis (issue #28).
        const analysed = kept ?? { text, version: doc.version };
        this.analysedText.set(path, analysed);
        notes.set(path, analysed.version === doc.version ? LARGE_NOTE : LARGE_STALE_NOTE);
        files.set(path, { path, text: analysed.text });
        continue;
      }
      this.analysedText.delete(path);
      files.set(path, { path, text });
    }
    for (const path of this.analysedText.keys()) if (!open.has(path)) this.analysedText.delete(path);
    let analysis: Analysis;
    let failure: string | undefined;
    const prev = this.previous;
    const texts = new Map([...files.values()].map((f) => [f.path, f.text]));
    try {
      if (prev && prev.options === this.options && prev.texts.size === texts.size && [...texts].every(([p, t]) => prev.texts.get(p) === t)) {
        // Nothing the engine reads changed (only a large document's unanalysed text): the same analysis.
        analysis = prev.analysis;
      } else {
        this.previous = undefined;
        analysis = engine().analyze([...files.values()], this.options, this.parses);
        this.parses.retain(new Set(files.keys()));
        this.previous = { texts, options: this.options, analysis };
      }
      this.lastFailure = undefined;
    } catch (e) {
      // An engine bug must not take every feature down with it, nor be recomputed and logged for every request.
      failure = e instanceof Error ? e.message : String(e);
      if (failure !== this.lastFailure) this.log(`analysis failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      this.lastFailure = failure;
      analysis = { nodes: [], findings: [], files: new Map() };
    }
    this.cached = { analysis, versions, generation: this.generation, skipped, failure, files: [...files.values()], notes };
    return this.cached;
  }

  /**
   * Whether applying `fix` of `f` (a finding of the current analysis) is safe: features/fix-check.ts. The trial analysis
   * shares the parse cache, so only the files the fix edits are parsed again.
   */
  editsAreSafe(f: Finding | undefined, edits: readonly TextEdit[], creates?: readonly { path: string; text: string }[]): boolean {
    const snap = this.current();
    if (snap.failure) return false;
    const e = engine();
    const problem = e.fixProblem(snap.files, this.options, snap.analysis, f, edits, (files, options) => e.analyze(files, options, this.parses), creates);
    if (problem) this.log(`a fix or refactor left out: ${problem}`);
    return problem === undefined;
  }

  /** The URI to report a path under: the open document's own URI when open, else a file: URI. */
  uriOf(path: string): string {
    if (!this.openUris) {
      this.openUris = new Map();
      // The first open document with a path wins, as the linear search this replaces did.
      for (const doc of this.documents.all()) {
        const p = this.uris.toPath(doc.uri);
        if (!this.openUris.has(p)) this.openUris.set(p, doc.uri);
      }
    }
    return this.openUris.get(path) ?? this.uris.toUri(path);
  }
}
