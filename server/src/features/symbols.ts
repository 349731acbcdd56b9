/** Document symbols (unit sections and directives, env assignments, YAML top-level fields) and folding ranges. */
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange, type Range } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import type { ConfigNode, UnitFile } from '../parse/types.ts';
import { before, parsedFile } from './locate.ts';

function unitSections(unit: UnitFile): { name: string; header: Range; range: Range; children: DocumentSymbol[] }[] {
  const out = unit.sections.map((s) => ({ name: s.name, header: s.span.range, range: s.span.range, children: [] as DocumentSymbol[] }));
  for (const d of unit.directives) {
    const sec = [...out].reverse().find((s) => !before(d.span.range.start, s.header.start));
    const sym: DocumentSymbol = {
      name: d.key,
      detail: d.value.length > 80 ? d.value.slice(0, 77) + '...' : d.value,
      kind: SymbolKind.Property,
      range: d.span.range,
      selectionRange: d.keySpan.range,
    };
    if (!sec) continue;
    sec.children.push(sym);
    if (before(sec.range.end, d.span.range.end)) sec.range = { start: sec.range.start, end: d.span.range.end };
  }
  return out;
}

function kindOf(n: ConfigNode): SymbolKind {
  if (n.kind === 'map') return SymbolKind.Object;
  if (n.kind === 'seq') return SymbolKind.Array;
  if (typeof n.value === 'number') return SymbolKind.Number;
  if (typeof n.value === 'boolean') return SymbolKind.Boolean;
  return SymbolKind.String;
}

export function documentSymbols(analysis: Analysis, path: string): DocumentSymbol[] {
  const file = parsedFile(analysis, path);
  if (!file) return [];
  if (file.unit) {
    return unitSections(file.unit).map((s) => ({ name: `[${s.name}]`, kind: SymbolKind.Namespace, range: s.range, selectionRange: s.header, children: s.children }));
  }
  if (file.env) {
    return file.env.assignments.map((a) => ({ name: a.name, kind: SymbolKind.Variable, range: a.span.range, selectionRange: a.nameSpan.range }));
  }
  const out: DocumentSymbol[] = [];
  for (const doc of file.config?.kubeletConfigs ?? []) {
    for (const e of doc.root.entries) {
      const end = before(e.keySpan.range.end, e.value.span.range.end) ? e.value.span.range.end : e.keySpan.range.end;
      out.push({ name: e.key, kind: kindOf(e.value), range: { start: e.keySpan.range.start, end }, selectionRange: e.keySpan.range });
    }
  }
  return out;
}

export function foldingRanges(analysis: Analysis, path: string): FoldingRange[] {
  const unit = parsedFile(analysis, path)?.unit;
  if (!unit) return [];
  return unitSections(unit)
    .filter((s) => s.range.end.line > s.header.start.line)
    .map((s) => ({ startLine: s.header.start.line, endLine: s.range.end.line, kind: FoldingRangeKind.Region }));
}
