/**
 * Text a fix or refactor inserts is written with "\n"; in a file whose lines
 * end in "\r\n" (edited on Windows, or checked out with autocrlf) it gets
 * "\r\n" too, so the file keeps one style and its diff shows only the change.
 */
import type { Finding } from '../model/finding.ts';

/** `text` with each lone "\n" written as "\r\n". */
export function crlfText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** The findings, with inserted text in CRLF files written with "\r\n". */
export function matchLineEnds(findings: Finding[], crlf: (path: string) => boolean): Finding[] {
  const needs = (f: Finding) => f.fixes?.some((fix) => fix.edits.some((e) => e.newText.includes('\n') && crlf(e.file)));
  return findings.map((f) => {
    if (!needs(f)) return f;
    const fixes = f.fixes!.map((fix) => ({
      ...fix,
      edits: fix.edits.map((e) => (e.newText.includes('\n') && crlf(e.file) ? { ...e, newText: crlfText(e.newText) } : e)),
    }));
    return { ...f, fixes };
  });
}
