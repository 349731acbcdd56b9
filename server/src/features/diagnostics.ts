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

const byFileCache = new WeakMap<Analysis, Map<string, Finding[]>>();

/**
 * The analysis' findings grouped by file, in their order, computed once per
 * analysis: the language server asks for every open document after each
 * change, and scanning all findings per document made that quadratic.
 */
function findingsByFile(analysis: Analysis): Map<string, Finding[]> {
  let m = byFileCache.get(analysis);
  if (!m) {
    m = new Map();
    for (const f of analysis.findings) {
      const list = m.get(f.file);
      if (list) list.push(f);
      else m.set(f.file, [f]);
    }
    byFileCache.set(analysis, m);
  }
  return m;
}

export function diagnosticsFor(
  analysis: Analysis,
  path: string,
  toUri: (path: string) => string,
  overrides: ReadonlyMap<string, SeverityOverride> = new Map(),
  docsBase?: string,
): Diagnostic[] {
  const kept: { f: Finding; severity: Severity }[] = [];
  for (const f of findingsByFile(analysis).get(path) ?? []) {
    const o = overrides.get(f.code);
    if (o === 'off') continue;
    kept.push({ f, severity: o ?? f.severity });
  }
  if (kept.length <= MAX_DIAGNOSTICS_PER_FILE) return kept.map(({ f, severity }) => toDiagnostic(f, toUri, severity, docsBase));
  return truncated(kept, toUri, docsBase);
}

/**
 * Diagnostics one file gets at most. A generated or pasted file can carry
 * 100,000+ findings (one per repeated flag): sending them all takes the
 * editor seconds to draw and helps nobody, so the most severe go first and
 * one note says how many are left out.
 */
export const MAX_DIAGNOSTICS_PER_FILE = 1000;

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };
/** Findings that say what the analysis left out: shown whatever their severity, or the bound would go unseen. */
const BOUNDS: ReadonlySet<string> = new Set(['kubelet-args-not-checked']);
const rank = (k: { f: Finding; severity: Severity }): number => (BOUNDS.has(k.f.code) ? -1 : RANK[k.severity]);

function truncated(kept: { f: Finding; severity: Severity }[], toUri: (path: string) => string, docsBase?: string): Diagnostic[] {
  const shown = kept
    .map((k, i) => ({ ...k, i }))
    .sort((a, b) => rank(a) - rank(b) || a.i - b.i)
    .slice(0, MAX_DIAGNOSTICS_PER_FILE - 1)
    .sort((a, b) => a.i - b.i);
  const note: Diagnostic = {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: 'kubelet',
    message: `${kept.length} problems in this file; the ${shown.length} most severe are shown. Run kubelet-lint on it for the full list.`,
  };
  return [note, ...shown.map(({ f, severity }) => toDiagnostic(f, toUri, severity, docsBase))];
}

/**
 * `docsBase`: where the rule pages live; each diagnostic links its page. A folder URI gets `<id>.md` appended; a
 * command URI (`command:x?`, VS Code's client: it shows the rendered page) gets the command's arguments, `["<id>"]`.
 */
export function toDiagnostic(f: Finding, toUri: (path: string) => string, severity?: Severity, docsBase?: string): Diagnostic {
  const d: Diagnostic = {
    range: f.range,
    severity: SEVERITY[severity ?? f.severity],
    code: f.code,
    source: 'kubelet',
    message: f.message,
  };
  if (docsBase) d.codeDescription = { href: docsBase.startsWith('command:') ? `${docsBase}${encodeURIComponent(JSON.stringify([f.code]))}` : `${docsBase}${f.code}.md` };
  if (f.tags?.includes('deprecated')) d.tags = [DiagnosticTag.Deprecated];
  if (f.tags?.includes('unnecessary')) d.tags = [...(d.tags ?? []), DiagnosticTag.Unnecessary];
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
