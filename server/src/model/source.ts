/** One file of the workspace as the engine sees it. `path` is the workspace path (POSIX separators). */
export interface SourceFile {
  path: string;
  text: string;
}

/** The kind of a file the engine reads: the `kind` of one registered format (server/src/registry.ts). */
export type FileKind = string;
