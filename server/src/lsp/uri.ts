/** file: URIs <-> absolute POSIX paths, the engine's file names. */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeLoosely } from './uri-decode.ts';

/**
 * Never throws: a URI from the client with a malformed `%` escape (or no string at all) names one document, and an
 * exception here would fail every analysis that lists the open documents.
 */
export function uriToPath(uri: string): string {
  if (typeof uri !== 'string') uri = String(uri);
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri).replace(/\\/g, '/');
    } catch {
      /* fall through */
    }
  }
  // untitled:, vscode-remote:, ... keep the path part so the file name still says what it is.
  const m = /^[a-z][a-z0-9+.-]*:(?:\/\/[^/]*)?(.*)$/i.exec(uri);
  const p = decodeLoosely(m ? m[1] : uri);
  return p.startsWith('/') ? p : `/${p}`;
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}
