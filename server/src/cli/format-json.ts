import type { Analysis } from '../engine.ts';
import { nodeJson } from './report.ts';
import type { FileRead } from '../features/files-read.ts';

/** `files`: every file with the format it was read as, or why it was not (features/files-read.ts). */
export function formatJson(analysis: Analysis, files?: readonly FileRead[]): string {
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
      ...(files ? { files } : {}),
    },
    null,
    2,
  );
}
