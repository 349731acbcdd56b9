/**
 * Holds what the engine analyses (workspace files on disk, overlaid by the
 * open documents) and the latest analysis, recomputed only after a change.
 */
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, type Analysis, type AnalyzeOptions } from '../engine.ts';
import type { SourceFile } from '../model/source.ts';
import { ParseCache } from '../node/workspace.ts';
import { pathToUri, uriToPath } from './uri.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

export interface Snapshot {
  analysis: Analysis;
  /** Versions of the open documents the analysis saw, by URI. */
  versions: Map<string, number>;
  generation: number;
}

export class AnalysisHost {
  private generation = 0;
  private cached: Snapshot | undefined;
  /** Parses of unchanged files are reused from one analysis to the next. */
  private readonly parses = new ParseCache();
  /** Open documents' URIs by path, rebuilt after any change (uriOf runs for every related location of every diagnostic). */
  private openUris: Map<string, string> | undefined;
  options: AnalyzeOptions = {};

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly disk: WorkspaceFiles,
  ) {}

  /** Something the analysis depends on changed. */
  invalidate(): void {
    this.generation++;
    this.cached = undefined;
    this.openUris = undefined;
  }

  current(): Snapshot {
    if (this.cached && this.cached.generation === this.generation) return this.cached;
    const files = new Map<string, SourceFile>();
    for (const [path, text] of this.disk.entries()) files.set(path, { path, text });
    const versions = new Map<string, number>();
    for (const doc of this.documents.all()) {
      const path = uriToPath(doc.uri);
      files.set(path, { path, text: doc.getText() });
      versions.set(doc.uri, doc.version);
    }
    const analysis = analyze([...files.values()], this.options, this.parses);
    this.parses.retain(new Set(files.keys()));
    this.cached = { analysis, versions, generation: this.generation };
    return this.cached;
  }

  /** The URI to report a path under: the open document's own URI when open, else a file: URI. */
  uriOf(path: string): string {
    if (!this.openUris) {
      this.openUris = new Map();
      // The first open document with a path wins, as the linear search this replaces did.
      for (const doc of this.documents.all()) {
        const p = uriToPath(doc.uri);
        if (!this.openUris.has(p)) this.openUris.set(p, doc.uri);
      }
    }
    return this.openUris.get(path) ?? pathToUri(path);
  }
}
