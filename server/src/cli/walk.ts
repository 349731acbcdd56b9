import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceFile } from '../model/source.ts';

/** Files larger than this are not read; real kubelet configs are a few KiB. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
const SKIP_DIRS = new Set(['.git', 'node_modules']);

export interface WalkResult {
  files: SourceFile[];
  skipped: { path: string; reason: string }[];
}

/**
 * Reads every file under the given paths. Paths are kept as walked (relative
 * when the argument was relative), with POSIX separators. Throws on a path
 * that does not exist or cannot be read.
 */
export function walk(paths: readonly string[]): WalkResult {
  const out: WalkResult = { files: [], skipped: [] };
  const seen = new Set<string>();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const visit = (p: string, top: boolean) => {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      if (top) throw new Error(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return;
    }
    if (st.isDirectory()) {
      let names: string[];
      try {
        names = readdirSync(p).sort();
      } catch (e) {
        if (top) throw new Error(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        return;
      }
      for (const n of names) if (!SKIP_DIRS.has(n)) visit(join(p, n), false);
      return;
    }
    if (!st.isFile()) return;
    const path = p.split('\\').join('/').replace(/^\.\//, '');
    if (seen.has(path)) return;
    seen.add(path);
    if (st.size > MAX_FILE_BYTES) {
      out.skipped.push({ path, reason: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` });
      return;
    }
    let buf: Buffer;
    try {
      buf = readFileSync(p);
    } catch (e) {
      if (top) throw new Error(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      out.skipped.push({ path, reason: 'unreadable' });
      return;
    }
    out.files.push({ path, text: decoder.decode(buf) });
  };
  for (const p of paths) visit(p, true);
  return out;
}
