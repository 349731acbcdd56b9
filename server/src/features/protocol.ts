/**
 * Names the server and its clients share: custom requests, notifications and commands. A module of its
 * own, without code, so that the language server can announce them before it loads the engine.
 */

/** Request `{ uri }` → `AllocatableResponse | null` (null: a file the server does not read). */
export const ALLOCATABLE_REQUEST = 'kubelet/allocatable';
/** Sent when settings or files on disk changed, so that a shown allocatable may be stale. */
export const ALLOCATABLE_CHANGED = 'kubelet/allocatableChanged';
/** Opens a node's effective configuration as a document. */
export const SHOW_EFFECTIVE_COMMAND = 'kubelet.showEffectiveConfiguration';
/** Opens the allocatable view (a client command: the server only names it, in code lenses). */
export const SHOW_ALLOCATABLE_COMMAND = 'kubelet.showAllocatable';

/**
 * The web worker's server reads the workspace through the editor (server/src/web/client-files.ts answered by
 * client/src/workspace-files.ts): request `{ folder: uri, exclude: folder names, max }` → `{ uris }`, every file
 * under the folder outside the excluded folders, at most `max`.
 */
export const FIND_FILES_REQUEST = 'kubelet/findFiles';
/** Request `{ uri, maxBytes }` → `{ kind: 'file', base64 }` | `{ kind: 'directory' }` | `{ kind: 'none', reason }`. */
export const READ_FILE_REQUEST = 'kubelet/readFile';

export interface FindFilesParams {
  folder: string;
  exclude: string[];
  max: number;
}
export type ReadFileResult = { kind: 'file'; base64: string } | { kind: 'directory' } | { kind: 'none'; reason: string };
