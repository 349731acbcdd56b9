/**
 * Delivers diagnostics: pushed (publishDiagnostics) with a per-document
 * debounce and a stale-version guard, or pulled (textDocument/diagnostic,
 * workspace/diagnostic) when the client supports it, with
 * workspace/diagnostic/refresh after changes that may affect other files.
 */
import { DiagnosticSeverity, type CancellationToken, type Connection, type Diagnostic, type DocumentDiagnosticReport, type TextDocuments, type WorkspaceDocumentDiagnosticReport } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { SeverityOverride } from '../features/diagnostics.ts';
import { engine } from './engine-loader.ts';
import type { AnalysisHost } from './host.ts';

function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return `${s.length.toString(36)}-${h.toString(36)}`;
}

export class DiagnosticsSync {
  pull = false;
  refreshSupport = false;
  debounceMs = 150;
  overrides: ReadonlyMap<string, SeverityOverride> = new Map();
  /** Base URI of the rule pages, from the client's initializationOptions (docsBase). */
  docsBase?: string;
  /** Rewrites absolute paths in messages to workspace-relative ones (lsp/relative.ts). */
  relative: (text: string) => string = (t) => t;
  private readonly timers = new Map<string, { cancel(): void }>();
  /**
   * What each document was last sent, as its hash, or as the list itself until a hash is needed: the document a
   * keystroke edits is sent its report whatever it holds, and hashing a long file's report each time cost as much
   * as sending it.
   */
  private readonly published = new Map<string, string | Diagnostic[]>();
  /** The latest version of each open document, to notice a client sending versions out of order. */
  private readonly versions = new Map<string, number>();
  /**
   * The analysis generation each document's diagnostics were last computed for. Every input of compute() (the
   * analysis, the settings, which documents are open) bumps the generation when it changes, so a document
   * computed for this generation has nothing new: 200 documents opened at once no longer compute 200 reports
   * in each of the 200 flushes their timers make.
   */
  private readonly computedAt = new Map<string, number>();

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly host: AnalysisHost,
    private readonly ready: () => Promise<void>,
  ) {}

  /**
   * The reports made from an analysis, by document, with the settings they were made with: the same analysis gives
   * the same report. Keyed weakly: a report never keeps an old analysis alive while the next one is computed.
   */
  private readonly reports = new WeakMap<object, Map<string, { overrides: object; docsBase?: string; list: Diagnostic[] }>>();

  private compute(uri: string): Diagnostic[] {
    const { analysis, skipped, failure, notes } = this.host.current();
    const path = this.host.pathOf(uri);
    const failed = failure !== undefined && this.documents.get(uri) ? `Not analysed: the kubelet language server failed (${failure}); its log has the details.` : undefined;
    const why = skipped.get(path) ?? failed;
    // One diagnostic saying why there are none, rather than none (which reads as "no problems").
    if (why) return [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Information, source: 'kubelet', message: why }];
    // The same analysis (a large document typed in, analysed on save only: lsp/host.ts) gives the same report; making
    // it again sorted its 100,000+ findings on every keystroke.
    let made = this.reports.get(analysis);
    if (!made) this.reports.set(analysis, (made = new Map()));
    const have = made.get(uri);
    let list: Diagnostic[];
    if (have && have.overrides === this.overrides && have.docsBase === this.docsBase) list = have.list;
    else {
      list = engine().diagnosticsFor(analysis, path, (p) => this.host.uriOf(p), this.overrides, this.docsBase);
      for (const d of list) {
        if (typeof d.message === 'string') d.message = this.relative(d.message);
        for (const r of d.relatedInformation ?? []) r.message = this.relative(r.message);
      }
      made.set(uri, { overrides: this.overrides, docsBase: this.docsBase, list });
    }
    const note = notes.get(path);
    return note ? [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Information, source: 'kubelet', message: note }, ...list] : list;
  }

  /** A document changed (or opened): re-validate it after the debounce. */
  schedule(uri: string): void {
    const version = this.documents.get(uri)?.version;
    const last = this.versions.get(uri);
    if (version !== undefined) {
      // TextDocuments applies the change whatever its version; the text is the client's, so it is kept, and said.
      if (last !== undefined && version < last) this.connection.console.warn(`${uri}: version ${version} after version ${last}; versions must increase (the change is applied as sent)`);
      this.versions.set(uri, version);
    }
    this.timers.get(uri)?.cancel();
    const run = () => {
      this.timers.delete(uri);
      void this.ready().then(() => this.flush(uri));
    };
    // Without a debounce, after the messages already read (a burst of changes still gives one flush): a timer of 0 ms
    // waits at least 1 ms in Node, a millisecond of every keystroke.
    // (a web worker has no setImmediate: a timer there)
    if (this.debounceMs <= 0 && typeof setImmediate === 'function') {
      const i = setImmediate(run);
      this.timers.set(uri, { cancel: () => clearImmediate(i) });
    } else {
      const t = setTimeout(run, this.debounceMs);
      this.timers.set(uri, { cancel: () => clearTimeout(t) });
    }
  }

  /** Everything may have changed (settings, files on disk). */
  refreshAll(): void {
    if (this.pull) {
      if (this.refreshSupport) void this.connection.languages.diagnostics.refresh().catch(() => undefined);
      return;
    }
    for (const doc of this.documents.all()) this.schedule(doc.uri);
  }

  private flush(uri: string): void {
    try {
      if (this.pull) {
        // The client pulls the changed document itself; other open files of its node may have changed too.
        if (this.refreshSupport && this.documents.all().length > 1) void this.connection.languages.diagnostics.refresh().catch(() => undefined);
        return;
      }
      const snap = this.host.current();
      for (const doc of this.documents.all()) {
        const seen = snap.versions.get(doc.uri);
        const current = this.documents.get(doc.uri);
        if (!current || seen === undefined || current.version !== seen) continue; // stale: a newer run is scheduled
        // The document whose timer this is always gets its report: the client may wait for this version.
        if (doc.uri !== uri && this.computedAt.get(doc.uri) === snap.generation) continue;
        const diagnostics = this.compute(doc.uri);
        this.computedAt.set(doc.uri, snap.generation);
        if (doc.uri !== uri) {
          const key = hash(JSON.stringify(diagnostics));
          const before = this.published.get(doc.uri);
          if ((typeof before === 'string' ? before : before && hash(JSON.stringify(before))) === key) {
            this.published.set(doc.uri, key);
            continue;
          }
          this.published.set(doc.uri, key);
        } else this.published.set(doc.uri, diagnostics);
        void this.connection.sendDiagnostics({ uri: doc.uri, version: seen, diagnostics });
      }
    } catch (e) {
      this.connection.console.error(`diagnostics failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }

  closed(uri: string): void {
    this.timers.get(uri)?.cancel();
    this.timers.delete(uri);
    this.published.delete(uri);
    this.versions.delete(uri);
    this.computedAt.delete(uri);
    this.host.forget(this.host.pathOf(uri));
    if (!this.pull) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    // Closing drops the editor's text: other files now see the disk version.
    this.refreshAll();
  }

  /** textDocument/diagnostic */
  document(uri: string, previousResultId?: string): DocumentDiagnosticReport {
    const items = this.compute(uri);
    const resultId = hash(JSON.stringify(items));
    if (previousResultId === resultId) return { kind: 'unchanged', resultId };
    return { kind: 'full', resultId, items };
  }

  /**
   * workspace/diagnostic: every file with findings, the open documents, and the files the client last got
   * findings for (a client keeps what it was told for a file until it is told again: a closed file whose
   * problems were fixed needs its empty report).
   */
  workspace(previous: ReadonlyMap<string, string>): WorkspaceDocumentDiagnosticReport[] {
    const { analysis } = this.host.current();
    const uris = new Set<string>();
    for (const p of engine().pathsWithFindings(analysis)) uris.add(this.host.uriOf(p));
    for (const d of this.documents.all()) uris.add(d.uri);
    for (const [uri, id] of previous) if (id !== EMPTY_ID) uris.add(uri);
    const out: WorkspaceDocumentDiagnosticReport[] = [];
    for (const uri of uris) {
      const version = this.documents.get(uri)?.version ?? null;
      const r = this.document(uri, previous.get(uri));
      out.push(r.kind === 'full' ? { uri, version, kind: 'full', resultId: r.resultId, items: r.items } : { uri, version, kind: 'unchanged', resultId: r.resultId });
    }
    return out;
  }

  /**
   * workspace/diagnostic as a long poll (LSP 3.17 allows a server to hold it): when the client already has
   * every result, the answer waits until the analysis changes and something new comes out of it (a closed
   * file's problems, after an edit elsewhere or on disk), the request is cancelled (vscode-languageclient does
   * when it stops, or starts another pull), or `maxWaitMs` passes. VS Code asks again 2 s after each answer;
   * an immediate "all unchanged" would have it poll, and the server re-check, forever. Open documents are
   * pulled one by one (textDocument/diagnostic) and are not held back by this.
   */
  async workspaceLongPoll(previous: ReadonlyMap<string, string>, token: CancellationToken, maxWaitMs = LONG_POLL_MS): Promise<WorkspaceDocumentDiagnosticReport[]> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const reports = this.workspace(previous);
      const news = reports.some((r) => r.kind === 'full');
      if (news || previous.size === 0 || token.isCancellationRequested) return reports;
      const left = deadline - Date.now();
      if (left <= 0) return reports;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let sub: { dispose(): void } | undefined;
      await Promise.race([
        this.host.nextChange(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, left);
          sub = token.onCancellationRequested(() => resolve());
        }),
      ]);
      clearTimeout(timer);
      sub?.dispose();
      if (token.isCancellationRequested) return reports;
      // Let a burst of keystrokes settle before analysing again.
      if (Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, this.debounceMs));
    }
  }
}

/** The result id of an empty report. */
const EMPTY_ID = hash(JSON.stringify([]));

/** How long a workspace/diagnostic request with nothing new is held at most (a bound for clients that never cancel). */
const LONG_POLL_MS = 5 * 60 * 1000;
