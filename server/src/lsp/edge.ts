/**
 * The I/O edge of the language server: what differs between the Node server (dist/server.js: files on disk, file:
 * URIs) and the one in a web worker (dist/web/server.js: files read by the editor, any URI scheme). Everything else
 * (server.ts and what it uses) is the same code for both.
 */
import type { Connection } from 'vscode-languageserver';
import type { FileStore, Recognition } from './files.ts';

/** URIs of the client <-> the absolute POSIX paths the engine names files by. */
export interface UriMapper {
  toPath(uri: string): string;
  toUri(path: string): string;
}

export interface ServerEdge {
  uris: UriMapper;
  files(connection: Connection, log: (message: string) => void, detect: Recognition): FileStore;
}
