/**
 * The workspace files on disk the engine may need, read once at startup with
 * a bounded walk and re-read on workspace/didChangeWatchedFiles.
 *
 * Bounds: directories .git, node_modules (and other VCS/tool caches) are
 * skipped, at most MAX_FILES files are looked at per folder, files larger
 * than MAX_SIZE are not read. A file is kept when detectKind (formats/index.ts) recognises it,
 * or when it is a small text file that looks like an environment file (a
 * possible EnvironmentFile= target with an arbitrary name); the engine
 * ignores the rest.
 *
 * Confinement: nothing outside the workspace folders is read. Symbolic links
 * are never followed, neither by the walk nor for a watched-file event (a
 * link in the workspace may point anywhere, e.g. to a file holding secrets),
 * and a path whose real location is outside every folder (a parent directory
 * that is a link) is not read either. The engine resolves references such as
 * EnvironmentFile=/etc/default/kubelet only among the files read here.
 */
import { promises as fs } from 'node:fs';
import { readSourceFile } from '../io/read-file.ts';
import { byCodeUnit } from '../model/order.ts';
import { FileMap, MAX_DEPTH, MAX_FILES, MAX_SIZE, SKIP_DIRS, under, type Recognition } from './files.ts';

export { MAX_FILES, MAX_SIZE };

export class WorkspaceFiles extends FileMap {
  constructor(
    private readonly log: (msg: string) => void,
    detect: Recognition,
  ) {
    super(detect);
  }

  async addFolder(root: string): Promise<void> {
    this.folders.set(root, await fs.realpath(root).catch(() => root));
    await this.walk(root, root);
  }

  /** (Re-)reads one file or directory named by the client; returns true when what the engine sees changed. */
  async read(path: string): Promise<boolean> {
    if (path.split('/').some((s) => SKIP_DIRS.has(s))) return false;
    if (!this.inWorkspace(path)) return this.delete(path);
    let st;
    try {
      st = await fs.lstat(path);
      if (st.isSymbolicLink() || !(await this.confined(path))) return this.delete(path);
    } catch {
      return this.delete(path);
    }
    if (st.isDirectory()) {
      this.files.delete(path); // the directory may have replaced a file of that name
      await this.walk(path, path);
      return true;
    }
    return this.load(path);
  }

  /** True when the real location of `path` (its parent directories resolved) is inside a workspace folder. */
  private async confined(path: string): Promise<boolean> {
    const real = await fs.realpath(path);
    for (const r of this.folders.values()) if (under(real, r)) return true;
    return false;
  }

  /** Reads the files under `dir` (found by readdir: no link is followed). */
  private async walk(root: string, dir: string, depth = 0, seen = { n: 0 }): Promise<void> {
    if (seen.n >= MAX_FILES || depth > MAX_DEPTH) return;
    let list;
    try {
      list = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    list.sort((a, b) => byCodeUnit(a.name, b.name));
    for (const e of list) {
      if (seen.n >= MAX_FILES) {
        this.log(`${root}: stopped reading the workspace after ${MAX_FILES} files`);
        return;
      }
      const p = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      // Dirent types come from lstat: a symbolic link is neither a directory nor a file here.
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await this.walk(root, p, depth + 1, seen);
      } else if (e.isFile()) {
        seen.n++;
        await this.load(p);
      }
    }
  }

  /**
   * Reads a regular file known to be in the workspace. The path may have become a FIFO, a device or a link since
   * the walk saw it: readSourceFile() checks the opened descriptor and gives up after a time-out, so the scan (and
   * every request waiting for it) never blocks on one file.
   */
  private async load(path: string): Promise<boolean> {
    const r = await readSourceFile(path);
    if (!r.ok) {
      if (r.reason.startsWith('no answer')) this.log(`${path}: not read (${r.reason})`);
      return this.delete(path);
    }
    return this.keep(path, r.text, r.size);
  }
}
