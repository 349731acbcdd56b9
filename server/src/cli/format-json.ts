import type { Analysis } from '../engine.ts';
import { nodeJson } from './report.ts';

export function formatJson(analysis: Analysis): string {
  return JSON.stringify(
    {
      diagnostics: analysis.findings.map((f) => ({
        file: f.file,
        line: f.range.start.line + 1,
        column: f.range.start.character + 1,
        endLine: f.range.end.line + 1,
        endColumn: f.range.end.character + 1,
        severity: f.severity,
        code: f.code,
        message: f.message,
        ...(f.fixes?.length ? { fixes: f.fixes.map((x) => ({ title: x.title, edits: x.edits })) } : {}),
      })),
      nodes: analysis.nodes.map(nodeJson),
    },
    null,
    2,
  );
}
