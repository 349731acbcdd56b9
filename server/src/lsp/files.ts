/**
 * The workspace files the engine may need, as the server holds them: what both I/O edges share. The Node edge
 * (disk-files.ts) walks the disk; the browser edge (web/client-files.ts) asks the editor, which reads its own file
 * system (vscode.workspace.fs). Both keep the same files by the same rules: the bounds below, the skipped folders,
 * and a file kept only when detectKind recognises it or it looks like an environment file.
 */
import { MAX_FILE_BYTES } from '../io/decode.ts';

export const MAX_FILES = 5000;
export const MAX_SIZE = MAX_FILE_BYTES;
/**
 * An open document larger than this is analysed when it is opened and when it is saved, not on every keystroke
 * (issue #28 point 5): one analysis of a 7.5 MiB environment file takes about half a second and a few hundred MB,
 * and kubelet configurations are a few KiB.
 */
export const LARGE_DOCUMENT_BYTES = 1024 * 1024;
export const MAX_ENV_SIZE = 64 * 1024;
export const MAX_DEPTH = 24;
export const SKIP_DIRS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', 'node_modules', '.cache', '.venv', '__pycache__', '.terraform']);

/** Recognition (server/src/formats), passed in so that this module does not load the parsers. */
export interface Recognition {
  detectKind(path: string, text: string): string | undefined;
  looksLikeEnvFile(text: string): boolean;
}

/** What the server asks of an edge's files; AnalysisHost reads `entries()`. */
export interface FileStore {
  readonly size: number;
  entries(): IterableIterator<[string, string]>;
  inWorkspace(path: string): boolean;
  addFolder(root: string): Promise<void>;
  removeFolder(root: string): void;
  /** (Re-)reads one file or folder named by the client; true when what the engine sees changed. */
  read(path: string): Promise<boolean>;
  /** Forgets a file, or every file under a deleted folder; true when something was held. */
  delete(path: string): boolean;
}

/** A NUL byte rules out only the guess that an unnamed file is an env file: a known file keeps it, as in the CLI. */
export function relevant(detect: Recognition, path: string, text: string, size: number): boolean {
  if (detect.detectKind(path, text)) return true;
  return size <= MAX_ENV_SIZE && !text.includes('\0') && detect.looksLikeEnvFile(text);
}

export function under(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : folder + '/');
}

/** The files held and the folders they belong to; an edge adds how they are read. */
export abstract class FileMap implements FileStore {
  protected readonly files = new Map<string, string>();
  /** Workspace folders as the client named them, and where they really are (the Node edge resolves links). */
  protected readonly folders = new Map<string, string>();

  constructor(protected readonly detect: Recognition) {}

  get size(): number {
    return this.files.size;
  }

  entries(): IterableIterator<[string, string]> {
    return this.files.entries();
  }

  inWorkspace(path: string): boolean {
    for (const f of this.folders.keys()) if (under(path, f)) return true;
    return false;
  }

  abstract addFolder(root: string): Promise<void>;
  abstract read(path: string): Promise<boolean>;

  removeFolder(root: string): void {
    this.folders.delete(root);
    for (const p of [...this.files.keys()]) if (p.startsWith(root + '/') && !this.inWorkspace(p)) this.files.delete(p);
  }

  /** Holds a file's text when the engine may need it (else forgets it); true when what the engine sees changed. */
  protected keep(path: string, text: string, size: number): boolean {
    if (!relevant(this.detect, path, text, size)) return this.delete(path);
    const before = this.files.get(path);
    this.files.set(path, text);
    return before !== text;
  }

  delete(path: string): boolean {
    let changed = this.files.delete(path);
    for (const p of [...this.files.keys()]) if (p.startsWith(path + '/')) changed = this.files.delete(p) || changed;
    return changed;
  }
}
