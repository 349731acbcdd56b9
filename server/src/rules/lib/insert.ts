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

/**
 * A new top-level `key: value` line just above the top-level key at `before`. The document's root may be indented
 * (a KubeletConfiguration fragment held in a platform file: Talos extraConfig, nodeadm kubelet.config); every root
 * key must then start its own line at the same column, and the new lines get that indentation.
 */
export function insertTopLevel(node: NodeModel, before: Span, line: string): TextEdit | undefined {
  if (!isBlockYaml(node, before)) return undefined;
  const col = before.range.start.character;
  if (col !== 0) {
    const doc = node.kubeletConfigs.find((d) => d.path === before.file && d.root.entries.some((e) => sameStart(e.keySpan, before)));
    const lines = new Set<number>();
    for (const e of doc?.root.entries ?? []) {
      if (e.keySpan.range.start.character !== col || lines.has(e.keySpan.range.start.line)) return undefined;
      lines.add(e.keySpan.range.start.line);
    }
    if (!doc) return undefined;
  }
  const at = { line: before.range.start.line, character: 0 };
  const pad = ' '.repeat(col);
  return { file: before.file, range: { start: at, end: at }, newText: line.split('\n').map((l) => pad + l).join('\n') + '\n' };
}

function sameStart(a: Span, b: Span): boolean {
  return a.file === b.file && a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character;
}

/** A new item line after the last item of a block map (items on their own lines, below the map's key). */
export function appendToBlockMap(node: NodeModel, mapKey: Span, lastItemKey: Span, line: string): TextEdit | undefined {
  if (!isBlockYaml(node, mapKey) || lastItemKey.range.start.line <= mapKey.range.start.line) return undefined;
  const at = { line: lastItemKey.range.start.line + 1, character: 0 };
  return { file: mapKey.file, range: { start: at, end: at }, newText: ' '.repeat(lastItemKey.range.start.character) + line + '\n' };
}
