/**
 * Line insertions into block-style YAML, for fixes that add a field. They are
 * offered only where the shape is certain: a top-level key at column 0, or a
 * block map whose items sit on lines below their key (not a flow `{...}` map,
 * and not JSON).
 */
import type { TextEdit } from '../../model/finding.ts';
import type { Span } from '../../model/range.ts';
import type { NodeModel } from '../../node/model.ts';

export function isBlockYaml(node: NodeModel, span: Span): boolean {
  return node.kubeletConfigs.some((d) => d.path === span.file && d.format === 'yaml' && !d.syntaxErrors);
}

/** A new top-level `key: value` line just above the top-level key at `before`. */
export function insertTopLevel(node: NodeModel, before: Span, line: string): TextEdit | undefined {
  if (!isBlockYaml(node, before) || before.range.start.character !== 0) return undefined;
  const at = { line: before.range.start.line, character: 0 };
  return { file: before.file, range: { start: at, end: at }, newText: line + '\n' };
}

/** A new item line after the last item of a block map (items on their own lines, below the map's key). */
export function appendToBlockMap(node: NodeModel, mapKey: Span, lastItemKey: Span, line: string): TextEdit | undefined {
  if (!isBlockYaml(node, mapKey) || lastItemKey.range.start.line <= mapKey.range.start.line) return undefined;
  const at = { line: lastItemKey.range.start.line + 1, character: 0 };
  return { file: mapKey.file, range: { start: at, end: at }, newText: ' '.repeat(lastItemKey.range.start.character) + line + '\n' };
}
