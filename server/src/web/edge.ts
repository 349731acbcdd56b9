/** The web worker server's I/O edge: files read by the editor (client-files.ts), URIs of any scheme (uris.ts). */
import type { ServerEdge } from '../lsp/edge.ts';
import { ClientFiles } from './client-files.ts';
import { WebUris } from './uris.ts';

export function webEdge(): ServerEdge {
  const uris = new WebUris();
  return { uris, files: (connection, log, detect) => new ClientFiles(connection, uris, log, detect) };
}
