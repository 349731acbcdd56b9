/**
 * The workspace files of the web worker's server, read through the editor: the worker has no disk, so it asks the
 * client, which lists and reads them with its file system API (vscode.workspace.findFiles, vscode.workspace.fs;
 * client/src/workspace-files.ts). The same files are kept as on disk (lsp/files.ts: bounds, skipped folders,
 * relevance) and decoded the same way (io/decode.ts); links are the editor's file system's business.
 */
import type { Connection } from 'vscode-languageserver';
import { FIND_FILES_REQUEST, READ_FILE_REQUEST, type FindFilesParams, type ReadFileResult } from '../features/protocol.ts';
import { decodeSource } from '../io/decode.ts';
import type { UriMapper } from '../lsp/edge.ts';
import { FileMap, MAX_DEPTH, MAX_FILES, MAX_SIZE, SKIP_DIRS, under, type Recognition } from '../lsp/files.ts';
import { byCodeUnit } from '../model/order.ts';

/** Reads in flight at once: enough to hide the round trips, few enough not to flood the editor. */
const PARALLEL = 16;

type Read = { kind: 'file'; text: string; size: number } | { kind: 'directory' } | { kind: 'none' };

export class ClientFiles extends FileMap {
  constructor(
    private readonly connection: Connection,
    private readonly uris: UriMapper,
    private readonly log: (message: string) => void,
    detect: Recognition,
  ) {
    super(detect);
  }

  async addFolder(root: string): Promise<void> {
    this.folders.set(root, root);
    await this.scan(root);
  }

  async read(path: string): Promise<boolean> {
    if (path.split('/').some((s) => SKIP_DIRS.has(s))) return false;
    if (!this.inWorkspace(path)) return this.delete(path);
    const r = await this.fetch(path);
    if (r.kind === 'directory') {
      this.files.delete(path); // the folder may have replaced a file of that name
      await this.scan(path);
      return true;
    }
    return r.kind === 'file' ? this.keep(path, r.text, r.size) : this.delete(path);
  }

  private async scan(folder: string): Promise<void> {
    let uris: string[];
    try {
      const params: FindFilesParams = { folder: this.uris.toUri(folder), exclude: [...SKIP_DIRS], max: MAX_FILES };
      ({ uris } = await this.connection.sendRequest<{ uris: string[] }>(FIND_FILES_REQUEST, params));
    } catch (e) {
      this.log(`${folder}: the editor did not list its files (${e instanceof Error ? e.message : String(e)})`);
      return;
    }
    if (uris.length >= MAX_FILES) this.log(`${folder}: stopped reading the workspace after ${MAX_FILES} files`);
    const depth = (p: string) => p.split('/').length - folder.split('/').length;
    const paths = uris
      .slice(0, MAX_FILES)
      .map((u) => this.uris.toPath(u))
      .filter((p) => under(p, folder) && p !== folder && depth(p) <= MAX_DEPTH + 1 && !p.split('/').some((s) => SKIP_DIRS.has(s)))
      .sort(byCodeUnit);
    for (let i = 0; i < paths.length; i += PARALLEL) {
      await Promise.all(
        paths.slice(i, i + PARALLEL).map(async (p) => {
          const r = await this.fetch(p);
          if (r.kind === 'file') this.keep(p, r.text, r.size);
          else this.delete(p);
        }),
      );
    }
  }

  private async fetch(path: string): Promise<Read> {
    let r: ReadFileResult;
    try {
      r = await this.connection.sendRequest<ReadFileResult>(READ_FILE_REQUEST, { uri: this.uris.toUri(path), maxBytes: MAX_SIZE });
    } catch {
      return { kind: 'none' };
    }
    if (r?.kind === 'directory') return r;
    if (r?.kind !== 'file' || typeof r.base64 !== 'string') return { kind: 'none' };
    const bytes = fromBase64(r.base64);
    if (bytes.length > MAX_SIZE) return { kind: 'none' };
    return { kind: 'file', text: decodeSource(bytes), size: bytes.length };
  }
}

declare function atob(data: string): string;

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
