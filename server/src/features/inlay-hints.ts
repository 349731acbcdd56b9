/**
 * Inlay hint after the ExecStart line and the `kind: KubeletConfiguration` line: the node's allocatable in one line.
 * None without a capacity (the code lens and the status bar say so once), none on a line with an error (a broken
 * line: the hint would sit in the middle of what needs fixing) and none on the lines the last edit touched (the
 * hint would land inside the text being typed).
 */
import { InlayHintKind, type InlayHint, type Position, type Range } from 'vscode-languageserver-types';
import type { Analysis, NodeResult } from '../engine.ts';
import { allocatableSummary } from './allocatable-view.ts';
import { readablePath } from '../embed/payload.ts';
import { before, kubeletDocs, nodeOfDoc, nodesOf, parsedFile } from './locate.ts';

export interface AllocatableAnchor {
  result: NodeResult;
  /** Where a code lens goes (the ExecStart key, the document's first key). */
  lensRange: Range;
  /** End of the line the inlay hint follows. */
  hintAt: Position;
}

export function allocatableAnchors(analysis: Analysis, path: string): AllocatableAnchor[] {
  const out: AllocatableAnchor[] = [];
  for (const result of nodesOf(analysis, path)) {
    const exec = result.node.service?.execStart;
    if (exec && exec.keySpan.file === path) out.push({ result, lensRange: exec.keySpan.range, hintAt: exec.span.range.end });
  }
  const file = parsedFile(analysis, path);
  const platform = file?.config?.platform;
  // A platform file (Talos, nodeadm): once, after the `kubelet:` key that holds the settings. A payload whose key is
  // in its carrier (a kind node's patches) is placed as a KubeletConfiguration document, below.
  if (platform && platform.span.file === path) {
    const result = nodesOf(analysis, path)[0];
    const end = platform.span.range.end;
    if (result) out.push({ result, lensRange: platform.span.range, hintAt: { line: end.line, character: end.character + 1 } });
    return out;
  }
  for (const doc of kubeletDocs(file)) {
    const result = nodeOfDoc(analysis, doc);
    const first = doc.root.entries[0];
    if (!result || !first) continue;
    const kind = doc.root.entries.find((e) => e.key === 'kind') ?? first;
    out.push({ result, lensRange: first.keySpan.range, hintAt: kind.value.span.range.end });
  }
  return out;
}

export function inlayHints(analysis: Analysis, path: string, range: Range, typing?: { start: number; end: number }): InlayHint[] {
  const broken = new Set<number>();
  for (const f of analysis.findings) {
    if (f.file !== path || f.severity !== 'error') continue;
    for (let l = f.range.start.line; l <= f.range.end.line; l++) broken.add(l);
  }
  return allocatableAnchors(analysis, path)
    .filter((a) => !before(a.hintAt, range.start) && !before(range.end, a.hintAt))
    .filter((a) => a.result.allocatable.hasCapacity && !broken.has(a.hintAt.line))
    .filter((a) => !typing || a.hintAt.line < typing.start || a.hintAt.line > typing.end)
    .map((a) => ({
      position: a.hintAt,
      label: allocatableSummary(a.result) + candidatesSuffix(a.result.node.capacityCandidates?.length),
      kind: InlayHintKind.Type,
      paddingLeft: true,
      tooltip: `Node Allocatable of ${readablePath(a.result.node.id)}${a.result.node.capacitySource ? `; capacity from ${a.result.node.capacitySource}` : ''}`,
    }));
}

/** Several candidate instance types: the hint is for the first; hovering the line shows each. */
function candidatesSuffix(n: number | undefined): string {
  return n && n > 1 ? ` (first of ${n} instance types)` : '';
}
