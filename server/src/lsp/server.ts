/** Wires the LSP connection to the engine and the features. No parsing or analysis happens here. */
import {
  CodeActionKind, DidChangeConfigurationNotification, DidChangeWatchedFilesNotification, FileChangeType, TextDocumentSyncKind, TextDocuments,
  type CancellationToken, type Connection, type InitializeParams, type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analysis } from '../engine.ts';
import type { AllocatableResponse } from '../features/allocatable-data.ts';
import { ALLOCATABLE_CHANGED, ALLOCATABLE_REQUEST, SHOW_EFFECTIVE_COMMAND } from '../features/protocol.ts';
import { DiagnosticsSync } from './diagnostics-sync.ts';
import { engine } from './engine-loader.ts';
import { AnalysisHost } from './host.ts';
import { LargeDocument } from './large-document.ts';
import { LARGE_DOCUMENT_BYTES } from './files.ts';
import { runSafeAsync } from './safe.ts';
import { guardedDocumentsConnection, needCodeActionParams, needPosition } from './params.ts';
import { DEFAULT_SETTINGS, readSettings, toAnalysisOptions, type Settings } from './settings.ts';
import type { ServerEdge } from './edge.ts';
import { WATCH_GLOBS } from '../formats/patterns.generated.ts';
import { relativizer } from './relative.ts';
import { mapStrings } from '../model/strings.ts';


/** `edge`: how this server reads files and names them (node-edge.ts, web/edge.ts); the rest is shared. */
export function startServer(connection: Connection, version: string, edge: ServerEdge): void {
  const uriToPath = (uri: string) => edge.uris.toPath(uri);
  /** Per document, the lines the last edit touched: inlay hints keep off them while the user types there. */
  const typing = new Map<string, { start: number; end: number }>();
  const documents = new TextDocuments<TextDocument>({
    // A document over LARGE_DOCUMENT_BYTES is held as lines: an edit does not copy the whole text (lsp/large-document.ts).
    create: (uri, languageId, version, content) =>
      typeof content === 'string' && content.length > LARGE_DOCUMENT_BYTES ? new LargeDocument(uri, languageId, version, content) : TextDocument.create(uri, languageId, version, content),
    update: (doc, changes, version) => {
      const next = doc instanceof LargeDocument ? (doc.update(changes, version), doc) : TextDocument.update(doc, changes, version);
      const last = changes.at(-1);
      if (last && 'range' in last) {
        const added = last.text.split('\n').length - 1;
        typing.set(doc.uri, { start: last.range.start.line, end: last.range.start.line + added });
      } else typing.delete(doc.uri);
      return next;
    },
  });
  // Recognition is the engine's (formats/index.ts): loading it is deferred until the first folder is read.
  const disk = edge.files(connection, (m) => connection.console.info(m), {
    detectKind: (path, text) => engine().detectKind(path, text),
    looksLikeEnvFile: (text) => engine().looksLikeEnvFile(text),
  });
  const host = new AnalysisHost(documents, disk, (m) => connection.console.error(m), edge.uris);
  let markReady: () => void = () => {};
  const readyPromise = new Promise<void>((r) => (markReady = r));
  const ready = () => readyPromise;
  const sync = new DiagnosticsSync(connection, documents, host, ready);
  const relative = relativizer(() => folders);
  sync.relative = relative;
  const log = { error: (m: string) => connection.console.error(m) };

  let settings: Settings = DEFAULT_SETTINGS;
  let debounceOverride: number | undefined;
  let folders: string[] = [];
  let caps = { folders: false, configuration: false, watchDynamic: false, configDynamic: false, inlayRefresh: false, lensRefresh: false, snippets: false };

  let shownProblems = new Set<string>();
  let capacityProblem: string | undefined;
  function applySettings(raw: unknown): void {
    settings = readSettings(raw, DEFAULT_SETTINGS);
    const eff = toAnalysisOptions(settings);
    for (const p of eff.problems) connection.console.warn(p);
    // A setting that cannot be read is shown where the user looks: once per new problem, as a notification.
    const fresh = eff.problems.filter((p) => !shownProblems.has(p));
    shownProblems = new Set(eff.problems);
    for (const p of fresh) void connection.window.showWarningMessage(`Kubelet Configuration: the setting ${p}. It is ignored until fixed.`);
    capacityProblem = eff.capacityProblem;
    host.options = eff.options;
    sync.overrides = eff.overrides;
    sync.debounceMs = debounceOverride ?? settings.debounceMs;
    host.invalidate();
  }

  async function pullSettings(): Promise<void> {
    if (!caps.configuration) return;
    const cfg = await connection.workspace.getConfiguration('kubeletConfig');
    applySettings(cfg);
  }

  function refreshEverything(): void {
    host.invalidate();
    sync.refreshAll();
    if (caps.inlayRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
    if (caps.lensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    // Settings or files on disk changed: an allocatable view the client shows may be stale.
    void connection.sendNotification(ALLOCATABLE_CHANGED).catch(() => undefined);
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const c = params.capabilities;
    caps = {
      folders: !!c.workspace?.workspaceFolders,
      configuration: !!c.workspace?.configuration,
      watchDynamic: !!c.workspace?.didChangeWatchedFiles?.dynamicRegistration,
      configDynamic: !!c.workspace?.didChangeConfiguration?.dynamicRegistration,
      inlayRefresh: !!c.workspace?.inlayHint?.refreshSupport,
      lensRefresh: !!c.workspace?.codeLens?.refreshSupport,
      snippets: !!c.textDocument?.completion?.completionItem?.snippetSupport,
    };
    sync.pull = !!c.textDocument?.diagnostic;
    sync.refreshSupport = !!c.workspace?.diagnostics?.refreshSupport;
    const init = (params.initializationOptions ?? {}) as { debounceMs?: unknown; settings?: unknown; kubeletConfig?: unknown; docsBase?: unknown };
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) debounceOverride = init.debounceMs;
    if (typeof init.docsBase === 'string' && init.docsBase !== '') sync.docsBase = init.docsBase.endsWith('/') || init.docsBase.startsWith('command:') ? init.docsBase : init.docsBase + '/';
    applySettings(init.settings ?? init.kubeletConfig ?? {});
    folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
    if (!folders.length && params.rootUri) folders = [uriToPath(params.rootUri)];
    return {
      serverInfo: { name: 'kubelet-language-server', version },
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        documentLinkProvider: { resolveProvider: false },
        // '-' flags, ':' YAML keys, '=' a flag's value, ',' the next map entry, '<' an eviction threshold after its signal.
        completionProvider: { triggerCharacters: ['-', ':', '=', ',', '<'], resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
        inlayHintProvider: true,
        codeLensProvider: { resolveProvider: false },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        executeCommandProvider: { commands: [SHOW_EFFECTIVE_COMMAND] },
        diagnosticProvider: sync.pull ? { identifier: 'kubelet', interFileDependencies: true, workspaceDiagnostics: true } : undefined,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
    };
  });

  connection.onInitialized(async () => {
    try {
      if (caps.configDynamic) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'kubeletConfig' });
      if (caps.watchDynamic) {
        void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCH_GLOBS.map((globPattern) => ({ globPattern })) });
      }
      if (caps.folders) {
        connection.workspace.onDidChangeWorkspaceFolders(async (e) => {
          for (const f of e.removed) disk.removeFolder(uriToPath(f.uri));
          for (const f of e.added) await disk.addFolder(uriToPath(f.uri));
          refreshEverything();
        });
      }
      await pullSettings().catch((e) => connection.console.error(`reading settings: ${String(e)}`));
      await Promise.all(folders.map((f) => disk.addFolder(f)));
      connection.console.info(`kubelet-language-server ${version}: ${disk.size} workspace files of interest in ${folders.length} folder(s)`);
    } catch (e) {
      connection.console.error(`initialisation: ${String(e)}`);
    } finally {
      host.invalidate();
      markReady();
    }
  });

  connection.onDidChangeConfiguration(async (p) => {
    try {
      if (caps.configuration) await pullSettings();
      else applySettings((p.settings as { kubeletConfig?: unknown } | undefined)?.kubeletConfig ?? {});
    } catch (e) {
      connection.console.error(`settings: ${String(e)}`);
    }
    refreshEverything();
  });

  connection.onDidChangeWatchedFiles(async (p) => {
    await ready();
    let changed = false;
    for (const ch of p.changes) {
      const path = uriToPath(ch.uri);
      if (ch.type === FileChangeType.Deleted) changed = disk.delete(path) || changed;
      else if (disk.inWorkspace(path)) changed = (await disk.read(path)) || changed;
    }
    if (changed) refreshEverything();
  });

  documents.onDidChangeContent((e) => {
    host.invalidate();
    sync.schedule(e.document.uri);
  });
  // A large document is analysed again when saved (lsp/host.ts LARGE_DOCUMENT_BYTES).
  documents.onDidSave((e) => {
    if (!host.saved(e.document.uri)) return;
    host.invalidate();
    sync.schedule(e.document.uri);
  });
  documents.onDidClose((e) => {
    host.invalidate();
    sync.closed(e.document.uri);
    typing.delete(e.document.uri);
  });

  /** A request without a text document (a broken client) is about no known file: it gets the empty answer, not an error. */
  const docUri = (p: { textDocument?: { uri?: unknown } } | undefined): string =>
    typeof p?.textDocument?.uri === 'string' ? p.textDocument.uri : '';

  /** Runs a feature on the current analysis; unknown files and failures answer `empty`. */
  function feature<T>(name: string, uri: string, empty: T, token: CancellationToken, fn: (a: Analysis, path: string) => T): Promise<T> {
    return runSafeAsync(log, name, empty, token, async () => {
      await ready();
      if (token.isCancellationRequested) return empty;
      const { analysis } = host.current();
      const path = uriToPath(uri);
      if (!analysis.files.has(path)) return empty;
      return fn(analysis, path);
    });
  }

  // Params a handler reads are checked first: what the protocol does not allow answers InvalidParams (params.ts).
  connection.onHover((p, token) => {
    needPosition('textDocument/hover', p);
    return feature('hover', docUri(p), null, token, (a, path) => {
      const h = engine().hover(a, path, p.position);
      if (h && typeof h.contents === 'object' && 'value' in h.contents) h.contents.value = relative(h.contents.value);
      return h;
    });
  });
  connection.onCompletion((p, token) => {
    needPosition('textDocument/completion', p);
    return feature('completion', docUri(p), [], token, (a, path) => engine().completion(a, path, p.position, host.options.kubernetesVersion, { snippets: caps.snippets }));
  });
  connection.onCodeAction((p, token) => {
    needCodeActionParams(p);
    // A large document edited since its analysis: the analysis's ranges are of another text.
    if (host.stale(uriToPath(docUri(p)))) return [];
    return runSafeAsync(log, 'codeAction', [], token, async () => [
      // Quick fixes from the current analysis, not from the diagnostics' data (which may be of an older text).
      ...(await feature('quickFix', docUri(p), [], token, (a, path) => engine().codeActions(a, path, p.context?.diagnostics ?? [], (f) => host.uriOf(f), p.context?.only, (f, fix) => host.editsAreSafe(f, fix.edits)))),
      ...(await feature('refactor', docUri(p), [], token, (a, path) =>
        engine().refactorActions(a, path, p.range, (f) => host.uriOf(f), p.context.only, (edits, creates) =>
          host.editsAreSafe(undefined, edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText })), creates),
        ),
      )),
      // Last: "disable for this line / file" come after the real fixes in the light bulb.
      ...(await feature('suppress', docUri(p), [], token, (a, path) =>
        engine().suppressionActions(a, path, documents.get(docUri(p))?.getText(), p.context.diagnostics, (f) => host.uriOf(f), p.context.only),
      )),
    ]);
  });
  connection.languages.inlayHint.on((p, token) =>
    feature('inlayHint', docUri(p), [], token, (a, path) => engine().inlayHints(a, path, p.range, typing.get(docUri(p))).map((h) => (typeof h.tooltip === 'string' ? { ...h, tooltip: relative(h.tooltip) } : h))),
  );
  connection.onCodeLens((p, token) => feature('codeLens', docUri(p), [], token, (a, path) => engine().codeLenses(a, path, p.textDocument.uri)));
  connection.onDefinition((p, token) => (needPosition('textDocument/definition', p), feature('definition', docUri(p), [], token, (a, path) => engine().definition(a, path, p.position, (f) => host.uriOf(f)))));
  connection.onDocumentLinks((p, token) =>
    feature('documentLink', docUri(p), [], token, (a, path) => engine().documentLinks(a, path, (f) => host.uriOf(f)).map((l) => (l.tooltip ? { ...l, tooltip: relative(l.tooltip) } : l))),
  );
  connection.onDocumentSymbol((p, token) => feature('documentSymbol', docUri(p), [], token, (a, path) => engine().documentSymbols(a, path)));
  connection.onFoldingRanges((p, token) => feature('foldingRange', docUri(p), [], token, (a, path) => engine().foldingRanges(a, path)));
  connection.onRequest(ALLOCATABLE_REQUEST, (p: { uri: string }, token) =>
    feature<AllocatableResponse | null>('allocatable', p.uri, null, token, (a, path) => {
      // Paths relative to the workspace here, as in messages: the version or capacity may come from a file outside
      // the node (a kubeadm file elsewhere in the workspace), which the client's labels of the node's files miss.
      return mapStrings(engine().allocatableForFile(a, path, capacityProblem), relative);
    }),
  );

  connection.onExecuteCommand((p, token) => {
    if (p.command !== SHOW_EFFECTIVE_COMMAND) return null;
    const arg = p.arguments?.[0] as string | { uri?: string } | undefined;
    const uri = typeof arg === 'string' ? arg : arg?.uri;
    if (!uri) return null;
    return feature<string | null>('effectiveConfiguration', uri, null, token, (a, path) => {
      const text = engine().effectiveConfiguration(a, path);
      return text === undefined ? null : relative(text);
    });
  });

  connection.languages.diagnostics.on((p, token) =>
    runSafeAsync(log, 'diagnostic', { kind: 'full' as const, items: [] }, token, async () => {
      await ready();
      return sync.document(p.textDocument.uri, p.previousResultId);
    }),
  );
  connection.languages.diagnostics.onWorkspace((p, token) =>
    runSafeAsync(log, 'workspaceDiagnostic', { items: [] }, token, async () => {
      await ready();
      return { items: await sync.workspaceLongPoll(new Map(p.previousResultIds.map((r) => [r.uri, r.value])), token) };
    }),
  );

  documents.listen(guardedDocumentsConnection(connection, (m) => connection.console.warn(m)));
  connection.listen();
}
