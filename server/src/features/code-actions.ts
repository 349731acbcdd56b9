/**
 * Code actions: the quick fixes of the findings the client's diagnostics stand for, and the refactors offered at
 * the requested range. A diagnostic's `data` holds the fixes of the text it was computed on; the client may send it
 * back after the text changed (a stale diagnostic), and its edits would then land on other text. So the fixes are
 * taken from the current analysis: a finding of the same code at the same range, or none.
 */
import { CodeActionKind, type CodeAction, type CreateFile, type Diagnostic, type Range, type TextDocumentEdit, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import type { Finding, Fix } from '../model/finding.ts';
import { refactorsAt, type PlainEdit } from './refactors/index.ts';


function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** The current findings of `path` a client diagnostic stands for (same code, same range). */
function currentFindings(analysis: Analysis, path: string, d: Diagnostic): Finding[] {
  if (!d || typeof d !== 'object' || !d.range?.start || !d.range?.end) return [];
  return analysis.findings.filter((f) => f.file === path && f.code === d.code && sameRange(f.range, d.range));
}

/** `context.only` asks for kinds and their sub-kinds: "refactor" admits "refactor.rewrite". */
export function wanted(kind: string, only: readonly string[] | undefined): boolean {
  return !only || only.some((k) => k === '' || k === kind || kind.startsWith(k + '.'));
}

function workspaceEdit(edits: readonly { path: string; range: PlainEdit['range']; newText: string }[], toUri: (path: string) => string): WorkspaceEdit {
  const changes: Record<string, TextEdit[]> = {};
  for (const e of edits) (changes[toUri(e.path)] ??= []).push({ range: e.range, newText: e.newText });
  return { changes };
}

/** `safe`: whether applying a fix leaves things no worse (features/fix-check.ts); fixes that fail it are not offered. */
export function codeActions(
  analysis: Analysis,
  path: string,
  diagnostics: readonly Diagnostic[],
  toUri: (path: string) => string,
  only?: readonly string[],
  safe: (f: Finding, fix: Fix) => boolean = () => true,
): CodeAction[] {
  if (!wanted(CodeActionKind.QuickFix, only) || !Array.isArray(diagnostics)) return [];
  const out: CodeAction[] = [];
  const seen = new Set<Fix>();
  for (const d of diagnostics) {
    for (const [f, fix] of currentFindings(analysis, path, d).flatMap((f) => (f.fixes ?? []).map((x) => [f, x] as const))) {
      if (seen.has(fix)) continue;
      seen.add(fix);
      if (!safe(f, fix)) continue;
      const edit = workspaceEdit(fix.edits.map((e) => ({ path: e.file, range: e.range, newText: e.newText })), toUri);
      out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: fix.preferred === true, edit });
    }
  }
  return out;
}

/** Refactors at `range` of `path` (one WorkspaceEdit each, possibly across files). */
export function refactorActions(
  analysis: Analysis,
  path: string,
  range: Range,
  toUri: (path: string) => string,
  only?: readonly string[],
  safe: (edits: readonly PlainEdit[], creates?: readonly { path: string; text: string }[]) => boolean = () => true,
): CodeAction[] {
  if (!wanted(CodeActionKind.RefactorRewrite, only)) return [];
  return refactorsAt(analysis, path, range).filter((r) => r.disabled !== undefined || safe(r.edits, r.creates)).map((r): CodeAction =>
    r.disabled
      ? { title: r.title, kind: r.kind, disabled: { reason: r.disabled } }
      : { title: r.title, kind: r.kind, edit: r.creates?.length ? creatingEdit(r.creates, r.edits, toUri) : workspaceEdit(r.edits, toUri) },
  );
}

/** New files first (CreateFile, failing if one exists), then their text and the edits of the other files. */
function creatingEdit(creates: readonly { path: string; text: string }[], edits: readonly PlainEdit[], toUri: (path: string) => string): WorkspaceEdit {
  const start = { line: 0, character: 0 };
  const byUri = new Map<string, TextEdit[]>();
  for (const e of edits) {
    const uri = toUri(e.path);
    if (!byUri.has(uri)) byUri.set(uri, []);
    byUri.get(uri)!.push({ range: e.range, newText: e.newText });
  }
  return {
    documentChanges: [
      ...creates.map((c): CreateFile => ({ kind: 'create', uri: toUri(c.path), options: { overwrite: false, ignoreIfExists: false } })),
      ...creates.map((c): TextDocumentEdit => ({ textDocument: { uri: toUri(c.path), version: null }, edits: [{ range: { start, end: start }, newText: c.text }] })),
      ...[...byUri].map(([uri, list]): TextDocumentEdit => ({ textDocument: { uri, version: null }, edits: list })),
    ],
  };
}
