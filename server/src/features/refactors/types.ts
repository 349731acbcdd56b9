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
}
