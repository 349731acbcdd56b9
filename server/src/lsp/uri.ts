/** file: URIs <-> absolute POSIX paths, the engine's file names. */
import { fileURLToPath, pathToFileURL } from 'node:url';

export function uriToPath(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri).replace(/\\/g, '/');
    } catch {
      /* fall through */
    }
  }
  // untitled:, vscode-remote:, ... keep the path part so the file name still says what it is.
  const m = /^[a-z][a-z0-9+.-]*:(?:\/\/[^/]*)?(.*)$/i.exec(uri);
  const p = decodeURIComponent(m ? m[1] : uri);
  return p.startsWith('/') ? p : `/${p}`;
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}
