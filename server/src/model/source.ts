/** One file of the workspace as the engine sees it. `path` is the workspace path (POSIX separators). */
export interface SourceFile {
  path: string;
  text: string;
}

/** The kinds of file the engine reads: one per module of server/src/formats (registered in formats/index.ts). */
export type FileKind = import('../registry.ts').FormatKind;
