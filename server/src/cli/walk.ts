import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceFile } from '../model/source.ts';
import { MAX_FILE_BYTES, readSourceFileSync } from '../io/read-file.ts';

export { MAX_FILE_BYTES };
const SKIP_DIRS = new Set(['.git', 'node_modules']);

export interface WalkResult {
  files: SourceFile[];
  skipped: { path: string; reason: string }[];
}

const errCode = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/**
 * Reads every file under the given paths, as the language server reads a workspace folder: a symbolic link found
 * inside is not followed (it may point anywhere, e.g. a `kubelet.env -> /etc/...` in a pull request, or at its own
 * folder) and is listed in `skipped`, as are unreadable folders and files, FIFOs and devices, and files over
 * MAX_FILE_BYTES. The paths given on the command line are taken as named (links included). A folder reached twice
 * (a bind mount of its parent) is read once. Paths are kept as walked (relative when the argument was relative),
 * with POSIX separators. Throws on a given path that does not exist or cannot be read.
 */
export function walk(paths: readonly string[]): WalkResult {
  const out: WalkResult = { files: [], skipped: [] };
  const seen = new Set<string>();
  const dirs = new Set<string>();
  const posix = (p: string): string => p.split('\\').join('/').replace(/^\.\//, '');
  const visit = (p: string, top: boolean) => {
    let st;
    try {
      st = top ? statSync(p) : lstatSync(p);
    } catch (e) {
      if (top) throw new Error(`cannot read ${p}: ${errCode(e)}`);
      out.skipped.push({ path: posix(p), reason: `unreadable (${errCode(e)})` });
      return;
    }
    if (st.isSymbolicLink()) {
      out.skipped.push({ path: posix(p), reason: 'a symbolic link (not followed)' });
      return;
    }
    if (st.isDirectory()) {
      const id = `${st.dev}:${st.ino}`;
      if (dirs.has(id)) {
        out.skipped.push({ path: posix(p), reason: 'a folder already read (a loop)' });
        return;
      }
      dirs.add(id);
      let names: string[];
      try {
        names = readdirSync(p).sort();
      } catch (e) {
        if (top) throw new Error(`cannot read ${p}: ${errCode(e)}`);
        out.skipped.push({ path: posix(p), reason: `unreadable folder (${errCode(e)})` });
        return;
      }
      for (const n of names) if (!SKIP_DIRS.has(n)) visit(join(p, n), false);
      return;
    }
    const path = posix(p);
    if (!st.isFile()) {
      // A FIFO, socket or device among the files: never opened (reading a FIFO waits for a writer).
      if (top) throw new Error(`cannot read ${p}: not a regular file or folder`);
      out.skipped.push({ path, reason: 'not a regular file' });
      return;
    }
    if (seen.has(path)) return;
    seen.add(path);
    // A path given on the command line may itself be a link: read what it names (O_NOFOLLOW refuses links).
    const r = readSourceFileSync(top ? realpathSync(p) : p);
    if (!r.ok) {
      if (top && !r.reason.startsWith('larger')) throw new Error(`cannot read ${p}: ${r.reason}`);
      out.skipped.push({ path, reason: r.reason });
      return;
    }
    out.files.push({ path, text: r.text });
  };
  for (const p of paths) visit(p, true);
  return out;
}
