/**
 * The workspace files on disk the engine may need, read once at startup with
 * a bounded walk and re-read on workspace/didChangeWatchedFiles.
 *
 * Bounds: directories .git, node_modules (and other VCS/tool caches) are
 * skipped, at most MAX_FILES files are looked at per folder, files larger
 * than MAX_SIZE are not read. A file is kept when detectKind recognises it,
 * or when it is a small text file that looks like an environment file (a
 * possible EnvironmentFile= target with an arbitrary name); the engine
 * ignores the rest.
 */
import { promises as fs } from 'node:fs';
import { detectKind, looksLikeEnvFile } from '../workspace/detect.ts';

export const MAX_FILES = 5000;
export const MAX_SIZE = 8 * 1024 * 1024;
const MAX_ENV_SIZE = 64 * 1024;
const MAX_DEPTH = 24;
const SKIP_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', '.cache', '.venv', '__pycache__', '.terraform']);

function relevant(path: string, text: string, size: number): boolean {
  if (text.includes('\0')) return false;
  if (detectKind(path, text)) return true;
  return size <= MAX_ENV_SIZE && looksLikeEnvFile(text);
}

export class WorkspaceFiles {
  private readonly files = new Map<string, string>();
  private readonly folders = new Set<string>();

  constructor(private readonly log: (msg: string) => void = () => {}) {}

  get size(): number {
    return this.files.size;
  }

  entries(): IterableIterator<[string, string]> {
    return this.files.entries();
  }

  inWorkspace(path: string): boolean {
    for (const f of this.folders) if (path === f || path.startsWith(f.endsWith('/') ? f : f + '/')) return true;
    return false;
  }

  async addFolder(root: string): Promise<void> {
    this.folders.add(root);
    let seen = 0;
    const walk = async (dir: string, depth: number): Promise<void> => {
      if (seen >= MAX_FILES || depth > MAX_DEPTH) return;
      let list;
      try {
        list = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      list.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of list) {
        if (seen >= MAX_FILES) {
          this.log(`${root}: stopped reading the workspace after ${MAX_FILES} files`);
          return;
        }
        const p = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name)) await walk(p, depth + 1);
        } else if (e.isFile()) {
          seen++;
          await this.read(p);
        }
      }
    };
    await walk(root, 0);
  }

  removeFolder(root: string): void {
    this.folders.delete(root);
    for (const p of [...this.files.keys()]) if (p.startsWith(root + '/') && !this.inWorkspace(p)) this.files.delete(p);
  }

  /** (Re-)reads one file; returns true when what the engine sees changed. */
  async read(path: string): Promise<boolean> {
    if (path.split('/').some((s) => SKIP_DIRS.has(s))) return false;
    const before = this.files.get(path);
    try {
      const st = await fs.stat(path);
      if (st.isDirectory()) {
        await this.addFolderContents(path);
        return true;
      }
      if (!st.isFile() || st.size > MAX_SIZE) return this.delete(path);
      const text = await fs.readFile(path, 'utf8');
      if (!relevant(path, text, st.size)) return this.delete(path);
      this.files.set(path, text);
      return before !== text;
    } catch {
      return this.delete(path);
    }
  }

  private async addFolderContents(dir: string): Promise<void> {
    const known = this.folders.has(dir);
    await this.addFolder(dir);
    if (!known) this.folders.delete(dir);
  }

  /** Forgets a file, or every file under a deleted directory. */
  delete(path: string): boolean {
    let changed = this.files.delete(path);
    for (const p of [...this.files.keys()]) if (p.startsWith(path + '/')) changed = this.files.delete(p) || changed;
    return changed;
  }
}
