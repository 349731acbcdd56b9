/**
 * "Disable <rule> for this line / for this file": quick fixes that write the suppression
 * comments of parse/suppressions.ts, as ESLint's editor integration does. Offered where the
 * file takes `#` comment lines (not JSON, Ignition or MIME: the format's `comments` is 'none'), never above a first
 * line that makes the file what it is (`#!`, `#cloud-config`), and the line one only where a comment line above
 * the finding's line is a line of its own (not inside a `\` continuation, where systemd would
 * read it as part of the setting).
 */
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import { DISABLE_FILE as FILE, DISABLE_NEXT_LINE as NEXT } from '../model/suppression.ts';

const CONTINUED_KINDS: ReadonlySet<string> = new Set(['unit', 'dropin', 'envfile']);

export function suppressionActions(
  analysis: Analysis, path: string, text: string | undefined, diagnostics: readonly Diagnostic[], toUri: (path: string) => string, only?: readonly string[],
): CodeAction[] {
  if (only && !only.some((k) => k === '' || k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.'))) return [];
  const file = analysis.files.get(path);
  if (!file || text === undefined || file.comments === 'none' || takesNoComments(file.kind, file.config?.kubeletConfigs[0]?.format, path)) return [];
  const lines = text.split(/\r\n|\r|\n/); // LSP lines
  // Lines a comment must not go above: a `#!` line or a `#cloud-config` header (with a jinja line before it) is what
  // makes the file a script or cloud-config only as its first line (issue #28).
  const head = headerLines(lines);
  const eol = file.crlf ? '\r\n' : '\n';
  const uri = toUri(path);
  const out: CodeAction[] = [];
  const seen = new Set<string>();
  for (const d of diagnostics) {
    if (d.source !== 'kubelet' || typeof d.code !== 'string') continue;
    const code = d.code;
    const line = d.range.start.line;
    if (line >= lines.length) continue;
    const lineKey = `${code}@${line}`;
    if (!seen.has(lineKey)) {
      seen.add(lineKey);
      const prev = line > 0 ? lines[line - 1] : undefined;
      const continued = CONTINUED_KINDS.has(file.kind) && prev !== undefined && prev.endsWith('\\');
      if (!continued && line >= head) {
        const edit = prev !== undefined && /^\s*[#;]/.test(prev) && prev.includes(NEXT)
          ? // Add the id to the comment already above the line.
            { range: { start: { line: line - 1, character: prev.length }, end: { line: line - 1, character: prev.length } }, newText: idsAfter(prev, NEXT) ? `,${code}` : '' }
          : { range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText: `${/^[ \t]*/.exec(lines[line])![0]}# ${NEXT} ${code}${eol}` };
        if (edit.newText !== '') out.push({ title: `Disable ${code} for this line`, kind: CodeActionKind.QuickFix, diagnostics: [d], edit: { changes: { [uri]: [edit] } } });
      }
    }
    if (!seen.has(code)) {
      seen.add(code);
      const first = (lines[head] ?? '').replace(/\r$/, '');
      const edit = first.startsWith('#') && first.includes(FILE)
        ? { range: { start: { line: head, character: first.length }, end: { line: head, character: first.length } }, newText: idsAfter(first, FILE) ? `,${code}` : '' }
        : head < lines.length
          ? { range: { start: { line: head, character: 0 }, end: { line: head, character: 0 } }, newText: `# ${FILE} ${code}${eol}` }
          : { range: { start: { line: head - 1, character: lines[head - 1].length }, end: { line: head - 1, character: lines[head - 1].length } }, newText: `${eol}# ${FILE} ${code}` };
      if (edit.newText !== '') out.push({ title: `Disable ${code} for this file`, kind: CodeActionKind.QuickFix, diagnostics: [d], edit: { changes: { [uri]: [edit] } } });
    }
  }
  return out;
}

/** How many first lines must stay first: a `#!` line, or a `#cloud-config` header and the jinja line before it. */
function headerLines(lines: readonly string[]): number {
  if (/^\uFEFF?#!/.test(lines[0] ?? '')) return 1;
  if (/^\uFEFF?##[ \t]*template:[ \t]*jinja[ \t]*$/.test(lines[0] ?? '') && /^#cloud-config[ \t]*$/.test(lines[1] ?? '')) return 2;
  if (/^\uFEFF?#cloud-config[ \t]*$/.test(lines[0] ?? '')) return 1;
  return 0;
}

/** JSON (a JSON KubeletConfiguration, daemon.json) has no comments. */
function takesNoComments(kind: string, format: string | undefined, path: string): boolean {
  return kind === 'docker' || format === 'json' || (format === undefined && path.endsWith('.json'));
}

/** True when the comment names rules after its keyword (without any, it already silences every rule). */
function idsAfter(comment: string, keyword: string): boolean {
  return /[a-z]/.test(comment.slice(comment.indexOf(keyword) + keyword.length));
}
