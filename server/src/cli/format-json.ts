import type { Analysis } from '../engine.ts';
import { nodeJson } from './report.ts';
import type { FileRead } from '../features/files-read.ts';
import type { Finding } from '../model/finding.ts';

/** `files`: every file with the format it was read as, or why it was not (features/files-read.ts). */
export function formatJson(analysis: Analysis, files?: readonly FileRead[]): string {
  return [...jsonChunks(analysis, files)].join('');
}

/**
 * formatJson's text, a diagnostic or node at a time (`JSON.stringify(report, null, 2)` exactly): the CLI writes it
 * as it goes, so a long stream's report (40 MB for 20,000 documents) is never held whole, nor the objects it is
 * made from, beside the analysis (issue #28).
 */
export function* jsonChunks(analysis: Analysis, files?: readonly FileRead[]): Generator<string> {
  yield '{\n';
  yield* arrayChunks('diagnostics', analysis.findings, diagnosticJson);
  yield ',\n';
  yield* arrayChunks('nodes', analysis.nodes, nodeJson);
  if (files) {
    yield ',\n';
    yield* arrayChunks('files', files, (f) => f);
  }
  yield '\n}';
}

/** A finding as the report's `diagnostics` list has it: 1-based lines and columns. */
export function diagnosticJson(f: Finding): object {
  return {
    file: f.file,
    line: f.range.start.line + 1,
    column: f.range.start.character + 1,
    endLine: f.range.end.line + 1,
    endColumn: f.range.end.character + 1,
    severity: f.severity,
    code: f.code,
    message: f.message,
    ...(f.fixes?.length ? { fixes: f.fixes.map((x) => ({ title: x.title, edits: x.edits })) } : {}),
  };
}

/** A top-level array property of the report, an element at a time, indented as JSON.stringify(_, null, 2) does. */
function* arrayChunks<T>(name: string, items: readonly T[], json: (item: T) => unknown): Generator<string> {
  if (!items.length) {
    yield `  ${JSON.stringify(name)}: []`;
    return;
  }
  yield `  ${JSON.stringify(name)}: [\n`;
  for (let i = 0; i < items.length; i++) {
    // (a JSON text has no raw line break inside a string, so every line break is one between its lines)
    yield `${i ? ',\n' : ''}    ${JSON.stringify(json(items[i]), null, 2).replaceAll('\n', '\n    ')}`;
  }
  yield '\n  ]';
}
