/**
 * Text a fix or refactor inserts is written with "\n"; in a file whose lines
 * end in "\r\n" (edited on Windows, or checked out with autocrlf) it gets
 * "\r\n" too, so the file keeps one style and its diff shows only the change.
 */
import type { Finding, Fix, TextEdit } from '../model/finding.ts';

/** `text` with each lone "\n" written as "\r\n". */
export function crlfText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** The edit, with its inserted lines ending in "\r\n" when its file's lines do. */
export function matchEdit<E extends { newText: string }>(edit: E, crlf: boolean): E {
  return crlf && edit.newText.includes('\n') ? { ...edit, newText: crlfText(edit.newText) } : edit;
}

/** The findings, with inserted text in CRLF files written with "\r\n". */
export function matchLineEnds(findings: Finding[], crlf: (path: string) => boolean): Finding[] {
  // Predicates made once, not per finding (a large file has thousands of findings with fixes).
  const changes = (e: TextEdit): boolean => matchEdit(e, crlf(e.file)) !== e;
  const fixChanges = (fix: Fix): boolean => fix.edits.some(changes);
  return findings.map((f) => {
    if (!f.fixes?.some(fixChanges)) return f;
    return { ...f, fixes: f.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((e) => matchEdit(e, crlf(e.file))) })) };
  });
}
