/**
 * "Disable <rule> for this line / for this file": quick fixes that write the suppression
 * comments of parse/suppressions.ts, as ESLint's editor integration does. Offered where the
 * file takes `#` comment lines (not JSON, Ignition or MIME: the format's `comments` is 'none'), never above a first
 * line that makes the file what it is (`#!`, `#cloud-config`), and the line one only where a comment line above
 * the finding's line is a line of its own (not inside a `\` continuation, where systemd would
 * read it as part of the setting).
 *
 * In a carrier (issue #28 point 4) the comment goes where the finding's document reads it. "This file" writes it atop
 * the carrier, whose own comments hold for the findings moved into it (engine.ts). "This line" writes it into the
 * payload the finding is about, above the finding's line there, as the carrier holds that payload's text (the same
 * encoding a quick fix's edit gets: re-indented into a YAML block, escaped in a string, the whole data encoded again
 * for base64); not offered where that payload takes no comments or the carrier cannot hold the line. A payload the
 * carrier holds only whole (base64) has no line of the finding: the comment goes above the carrier's line instead,
 * only where that line starts with the carrier's own syntax (`content: <data>`), not inside the data.
 */
import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import { DISABLE_FILE as FILE, DISABLE_NEXT_LINE as NEXT } from '../model/suppression.ts';
import { fixToHost } from '../embed/to-host.ts';
import { innermostPayloadAt } from './embedded.ts';
import { payloadOf } from './locate.ts';

const CONTINUED_KINDS: ReadonlySet<string> = new Set(['unit', 'dropin', 'envfile']);

interface LineEdit {
  range: Range;
  newText: string;
}

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
    // A finding about the whole file, placed at its very start, stays there whatever goes above it: "this file" only.
    const atStart = line === 0 && d.range.start.character === 0 && d.range.end.line === 0 && d.range.end.character === 0;
    if (!seen.has(lineKey) && !atStart) {
      const edits = analysis.payloads?.size ? inPayload(analysis, path, lines, d) : undefined;
      const edit = edits === undefined ? lineEdit(file, lines, line, code, eol, head) : undefined;
      const changes = edits ?? (edit ? [edit] : []);
      if (changes.length && changes.every((e) => e.newText !== '')) {
        out.push({ title: `Disable ${code} for this line`, kind: CodeActionKind.QuickFix, diagnostics: [d], edit: { changes: { [uri]: changes } } });
      }
    }
    seen.add(lineKey);
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

/** The comment line above `line` of a file that takes comments, or the id added to the comment already there. */
function lineEdit(file: { readonly kind: string }, lines: readonly string[], line: number, code: string, eol: string, head: number): LineEdit | undefined {
  const prev = line > 0 ? lines[line - 1] : undefined;
  const continued = CONTINUED_KINDS.has(file.kind) && prev !== undefined && prev.endsWith('\\');
  if (continued || line < head || line >= lines.length) return undefined;
  return prev !== undefined && /^\s*[#;]/.test(prev) && prev.includes(NEXT)
    ? // Add the id to the comment already above the line.
      { range: { start: { line: line - 1, character: prev.length }, end: { line: line - 1, character: prev.length } }, newText: idsAfter(prev, NEXT) ? `,${code}` : '' }
    : { range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText: `${/^[ \t]*/.exec(lines[line])![0]}# ${NEXT} ${code}${eol}` };
}

/**
 * The "this line" edits of a finding in a carrier's payload, as carrier edits: undefined when the finding is in no
 * payload (the carrier's own line), [] when no comment can go there.
 */
function inPayload(analysis: Analysis, path: string, hostLines: readonly string[], d: Diagnostic): LineEdit[] | undefined {
  const at = innermostPayloadAt(analysis, path, d.range.start);
  if (!at) return undefined;
  const code = d.code as string;
  const map = at.payload.map;
  if (map.rewrite) {
    // The data's lines are not the carrier's: above the carrier's line, where it holds its own syntax before the data.
    const start = map.host.position(map.rewrite.start);
    const host = hostLines[d.range.start.line] ?? '';
    const file = analysis.files.get(path)!;
    if (start.line !== d.range.start.line || host.slice(0, start.character).trim() === '') return [];
    const e = lineEdit(file, hostLines, d.range.start.line, code, file.crlf ? '\r\n' : '\n', headerLines(hostLines));
    return e ? [e] : [];
  }
  const pf = analysis.files.get(at.path);
  if (!pf || pf.comments === 'none' || takesNoComments(pf.kind, pf.config?.kubeletConfigs[0]?.format, at.path)) return [];
  // A document its reader cannot read whole (a syntax error) may read a new line differently around the error.
  if (pf.problems.some((p) => p.code === 'config-syntax' && p.severity === 'error')) return [];
  const lines = at.payload.text.split(/\r\n|\r|\n/);
  const eol = pf.crlf ? '\r\n' : '\n';
  const head = headerLines(lines);
  // One carrier line may hold several of the payload's lines (a quoted string): a comment above each of them that
  // has a finding of this code there, so that none stays on the line the user sees.
  const payloadLines = new Set<number>([at.pos.line]);
  for (const f of analysis.findings) {
    if (f.file !== path || f.code !== code || f.range.start.line !== d.range.start.line) continue;
    const other = innermostPayloadAt(analysis, path, f.range.start);
    if (other?.path === at.path) payloadLines.add(other.pos.line);
  }
  const edits: { file: string; range: Range; newText: string }[] = [];
  for (const line of payloadLines) {
    const e = lineEdit(pf, lines, line, code, eol, head);
    if (!e) return [];
    if (e.newText !== '') edits.push({ file: at.path, ...e });
  }
  if (edits.length === 0) return [{ range: d.range, newText: '' }];
  const fix = fixToHost({ title: '', edits }, payloadOf(analysis));
  if (!fix || fix.edits.some((x) => x.file !== path)) return [];
  return fix.edits.map((x) => ({ range: x.range, newText: x.newText }));
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
