/**
 * URIs of any scheme <-> engine paths, for the web worker's server. In VS Code for the Web the workspace is
 * `vscode-vfs://github/owner/repo/...` (github.dev, vscode.dev), `vscode-test-web://mount/...` or another file
 * system provider's scheme; the engine names files by their URI's path. Each path remembers the scheme and
 * authority it came with, so that a path the engine reports (a related file, a file not open) goes back to the
 * URI the editor knows; a path never seen takes the nearest folder's.
 */
import type { UriMapper } from '../lsp/edge.ts';
import { decodeLoosely } from '../lsp/uri-decode.ts';

export class WebUris implements UriMapper {
  /** `scheme://authority` by path, for every URI the client named. */
  private readonly bases = new Map<string, string>();

  toPath(uri: string): string {
    if (typeof uri !== 'string') uri = String(uri);
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)/i.exec(uri);
    if (!m) {
      const p = decodeLoosely(uri);
      return p.startsWith('/') ? p : `/${p}`;
    }
    const decoded = decodeLoosely(m[3]);
    const path = decoded.startsWith('/') ? decoded : `/${decoded}`;
    this.bases.set(path, `${m[1]}://${m[2] ?? ''}`);
    return path;
  }

  toUri(path: string): string {
    let base = this.bases.get(path);
    for (let p = path; base === undefined && p.length > 1; ) {
      p = p.slice(0, p.lastIndexOf('/')) || '/';
      base = this.bases.get(p);
    }
    return `${base ?? 'file://'}${path.split('/').map(encodeURIComponent).join('/')}`;
  }
}
