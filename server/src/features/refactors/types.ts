/** What a refactor hands to the editor layer: plain edits across files, converted to a WorkspaceEdit there. */
import type { Range } from '../../model/range.ts';

export interface PlainEdit {
  path: string;
  range: Range;
  newText: string;
}

export interface Refactor {
  title: string;
  /** LSP CodeActionKind. */
  kind: 'refactor.rewrite';
  edits: PlainEdit[];
  /** Why the refactor is not available here (shown greyed out with this reason; no edits). */
  disabled?: string;
  /** New files, created first (they must not exist), with their whole text. */
  creates?: { path: string; text: string }[];
}
