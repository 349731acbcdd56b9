/** Findings of one file -> LSP diagnostics. The fixes travel in `data` for the code-action handler. */
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import type { Finding, Fix, Severity } from '../model/finding.ts';

export type SeverityOverride = Severity | 'off';

/** What a diagnostic carries in `data`: the fixes exactly as the engine computed them. */
export interface DiagnosticData {
  fixes: Fix[];
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function diagnosticsFor(
  analysis: Analysis,
  path: string,
  toUri: (path: string) => string,
  overrides: ReadonlyMap<string, SeverityOverride> = new Map(),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of analysis.findings) {
    if (f.file !== path) continue;
    const o = overrides.get(f.code);
    if (o === 'off') continue;
    out.push(toDiagnostic(f, toUri, o));
  }
  return out;
}

export function toDiagnostic(f: Finding, toUri: (path: string) => string, severity?: Severity): Diagnostic {
  const d: Diagnostic = {
    range: f.range,
    severity: SEVERITY[severity ?? f.severity],
    code: f.code,
    source: 'kubelet',
    message: f.message,
  };
  if (f.code === 'flag-deprecated') d.tags = [DiagnosticTag.Deprecated];
  if (f.related?.length) {
    d.relatedInformation = f.related.map(
      (r): DiagnosticRelatedInformation => ({ location: { uri: toUri(r.span.file), range: r.span.range }, message: r.message }),
    );
  }
  if (f.fixes?.length) d.data = { fixes: f.fixes } satisfies DiagnosticData;
  return d;
}

/** Paths that have findings (for workspace diagnostics). */
export function pathsWithFindings(analysis: Analysis): Set<string> {
  return new Set(analysis.findings.map((f) => f.file));
}
