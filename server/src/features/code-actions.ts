/** Quick fixes: the fixes the engine attached to a finding, read back from the diagnostic's `data`. */
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import type { Fix } from '../model/finding.ts';
import type { DiagnosticData } from './diagnostics.ts';

function fixesOf(d: Diagnostic): Fix[] {
  const data = d.data as Partial<DiagnosticData> | undefined;
  return Array.isArray(data?.fixes) ? data.fixes : [];
}

export function codeActions(diagnostics: readonly Diagnostic[], toUri: (path: string) => string, only?: readonly string[]): CodeAction[] {
  if (only && !only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.') || k === '')) return [];
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    for (const fix of fixesOf(d)) {
      const changes: Record<string, TextEdit[]> = {};
      for (const e of fix.edits) (changes[toUri(e.file)] ??= []).push({ range: e.range, newText: e.newText });
      const edit: WorkspaceEdit = { changes };
      out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: fix.preferred === true, edit });
    }
  }
  return out;
}
