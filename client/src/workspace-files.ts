/**
 * The editor's side of the web worker server's file reads (server/src/web/client-files.ts): the worker has no disk,
 * so the client lists and reads workspace files with the editor's file system API (vscode.workspace.fs), which works
 * for every file system the editor has: github.dev's and vscode.dev's `vscode-vfs:`, a local folder, a test's
 * in-memory one. Symbolic links are not followed, as on disk (server/src/lsp/disk-files.ts).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { FIND_FILES_REQUEST, READ_FILE_REQUEST, type FindFilesParams, type ReadFileResult } from '../../server/src/features/protocol.ts';

declare function btoa(data: string): string;

/** Folders deeper than this are not walked (the Node server's bound). */
const MAX_DEPTH = 24;

export function answerFileRequests(client: BaseLanguageClient): vscode.Disposable[] {
  return [
    client.onRequest(FIND_FILES_REQUEST, (p: FindFilesParams): Promise<unknown> => findFiles(p)),
    client.onRequest(READ_FILE_REQUEST, (p: { uri: string; maxBytes: number }): Promise<unknown> => readFile(p.uri, p.maxBytes)),
  ];
}

/** Every file under the folder, breadth first, at most `max`, skipping the excluded folder names and links. */
async function findFiles({ folder, exclude, max }: FindFilesParams): Promise<{ uris: string[] }> {
  const skip = new Set(exclude);
  const uris: string[] = [];
  let level = [vscode.Uri.parse(folder)];
  for (let depth = 0; level.length && depth <= MAX_DEPTH && uris.length < max; depth++) {
    const next: vscode.Uri[] = [];
    for (const dir of level) {
      let entries: [string, vscode.FileType][];
      try {
        entries = await vscode.workspace.fs.readDirectory(dir);
      } catch {
        continue;
      }
      for (const [name, type] of entries) {
        if (type & vscode.FileType.SymbolicLink) continue;
        const uri = vscode.Uri.joinPath(dir, name);
        if (type & vscode.FileType.Directory) {
          if (!skip.has(name)) next.push(uri);
        } else if (type & vscode.FileType.File && uris.length < max) uris.push(uri.toString());
      }
    }
    level = next;
  }
  return { uris };
}

async function readFile(uri: string, maxBytes: number): Promise<ReadFileResult> {
  try {
    const u = vscode.Uri.parse(uri);
    const st = await vscode.workspace.fs.stat(u);
    if (st.type & vscode.FileType.SymbolicLink) return { kind: 'none', reason: 'a symbolic link' };
    if (st.type & vscode.FileType.Directory) return { kind: 'directory' };
    if (st.size > maxBytes) return { kind: 'none', reason: `larger than ${maxBytes} bytes` };
    const bytes = await vscode.workspace.fs.readFile(u);
    if (bytes.length > maxBytes) return { kind: 'none', reason: `larger than ${maxBytes} bytes` };
    return { kind: 'file', base64: toBase64(bytes) };
  } catch (e) {
    return { kind: 'none', reason: e instanceof Error ? e.message : String(e) };
  }
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
