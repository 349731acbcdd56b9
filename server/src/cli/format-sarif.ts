/** SARIF 2.1.0 (OASIS), as code-scanning tools ingest it. */
import type { Analysis } from '../engine.ts';
import type { Severity } from '../model/finding.ts';
import { RULES } from '../registry.ts';
import { PARSER_CODES } from '../registry.ts';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

export function formatSarif(analysis: Analysis, version: string): string {
  const known = new Map([...RULES, ...PARSER_CODES].map((r) => [r.id, r.summary]));
  const used = [...new Set(analysis.findings.map((f) => f.code))].sort();
  const ruleIndex = new Map(used.map((id, i) => [id, i]));
  const region = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) => ({
    startLine: r.start.line + 1,
    startColumn: r.start.character + 1,
    endLine: r.end.line + 1,
    endColumn: r.end.character + 1,
  });
  const uri = artifactUri;
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kubelet-lint',
            version,
            informationUri: 'https://kubernetes.io/docs/tasks/administer-cluster/reserve-compute-resources/',
            rules: used.map((id) => ({ id, shortDescription: { text: known.get(id) ?? id } })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: analysis.findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: ruleIndex.get(f.code),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [{ physicalLocation: { artifactLocation: { uri: uri(f.file) }, region: region(f.range) } }],
          ...(f.related?.length
            ? {
                relatedLocations: f.related.map((r, i) => ({
                  id: i,
                  message: { text: r.message },
                  physicalLocation: { artifactLocation: { uri: uri(r.span.file) }, region: region(r.span.range) },
                })),
              }
            : {}),
          ...(f.fixes?.length
            ? {
                fixes: f.fixes.map((x) => ({
                  description: { text: x.title },
                  artifactChanges: groupByFile(x.edits).map(([file, edits]) => ({
                    artifactLocation: { uri: uri(file) },
                    replacements: edits.map((e) => ({ deletedRegion: region(e.range), insertedContent: { text: e.newText } })),
                  })),
                })),
              }
            : {}),
        })),
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}

function groupByFile<T extends { file: string }>(edits: T[]): [string, T[]][] {
  const m = new Map<string, T[]>();
  for (const e of edits) m.set(e.file, [...(m.get(e.file) ?? []), e]);
  return [...m];
}

/**
 * A SARIF artifact URI: relative paths stay relative references, absolute
 * ones become file:// URIs; each segment is percent-encoded so `#`, `?` and
 * `%` in folder names do not turn into fragments or queries.
 */
export function artifactUri(file: string): string {
  const encoded = file.split('/').map(encodeURIComponent).join('/');
  return file.startsWith('/') ? `file://${encoded}` : encoded;
}
