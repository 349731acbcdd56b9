/**
 * Issue #17 / #18: no quick fix or refactor changes the effective value of any setting other than the one it
 * targets, and none adds a finding of any severity. Shared by test/fuzz/quickfix.test.ts and the long run.
 *
 * What a fix targets: the settings written where it edits (a setting whose file position, before or after, lies on
 * an edited line) and the settings its finding is about (written on the finding's lines). A refactor ("Move flags
 * into the KubeletConfiguration file", the reservation refactors) targets nothing: every effective value stays.
 * A finding is new when its code and file appear more often after than before, unless it lies on the text the fix
 * wrote and is less severe than the finding the fix removes ("Change to --max-pods" for an unknown flag writes a
 * flag that has a config field: a hint where an error was), and is not a duplicate (one value silently replacing
 * another, as "Change to "cpu"" beside an existing cpu did, issue #17).
 *
 * The properties run on what users are offered: the fixes and refactors server/src/features/fix-check.ts lets through
 * (the CLI's report, the server's code actions). This file checks them with code of its own; `effectStats.dropped`
 * counts what the verifier held back, per finding code.
 */
import assert from 'node:assert/strict';
import { analyze, type Analysis, type AnalyzeOptions } from '../../server/src/engine.ts';
import { refactorsAt } from '../../server/src/features/refactors/index.ts';
import { fixProblem } from '../../server/src/features/fix-check.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import type { Range } from '../../server/src/model/range.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import type { NodeModel, Setting } from '../../server/src/node/model.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';
import { carrierOf, payloadPath } from '../../server/src/embed/payload.ts';
import { rangeToHost } from '../../server/src/embed/to-host.ts';

export const effectStats = { fixes: 0, refactors: 0, dropped: new Map<string, number>() };
const CONTINUATION = new Set(['unit-continuation-trailing-space', 'unit-continuation-swallows-directive']);
const RANK: Record<string, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** Where violations go: thrown by default; a script may collect them instead. */
export const violations: { collect?: string[] } = {};

function fail(ok: boolean, message: string): void {
  if (ok) return;
  if (violations.collect) violations.collect.push(message);
  else assert.fail(message);
}

interface Edit {
  file: string;
  range: Range;
  newText: string;
}

function valueOf(s: Setting): string {
  if (s.kind === 'scalar') return JSON.stringify(s.value);
  if (s.kind === 'list') return JSON.stringify(s.items.map((i) => (i.nested ? `<${i.nested}>` : i.value)));
  if (s.kind === 'map') return JSON.stringify(s.items.map((i) => [i.key, i.nested ? `<${i.nested}>` : i.value]));
  return s.kind;
}

/** Every file line a setting is written on, by file. */
/** A span of an embedded payload (a cloud-config's file) in its carrier's lines: that is where fixes edit. */
function inCarrier(a: Analysis, sp: { file: string; range: Range }): { file: string; range: Range } {
  const host = carrierOf(sp.file);
  const p = host === undefined ? undefined : a.files.get(host)?.embedded?.find((x) => payloadPath(host, x.target) === sp.file);
  return p ? { file: host!, range: rangeToHost(p, sp.range) } : sp;
}

function linesOf(s: Setting, a: Analysis): { file: string; start: number; end: number }[] {
  const out: { file: string; start: number; end: number }[] = [];
  const add = (span: { file: string; range: Range } | undefined) => {
    if (!span) return;
    const sp = inCarrier(a, span);
    out.push({ file: sp.file, start: sp.range.start.line, end: sp.range.end.line });
  };
  add(s.from.span);
  if (s.kind === 'scalar') add(s.span);
  if (s.kind === 'list' || s.kind === 'map') for (const i of s.items) add(i.valueSpan);
  return out;
}

function effective(a: Analysis): Map<string, ReadonlyMap<string, Setting>> {
  return new Map(a.nodes.map((n) => [n.node.id, n.node.settings]));
}

function counts(fs: readonly Finding[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of fs) m.set(`${f.code} ${f.file}`, (m.get(`${f.code} ${f.file}`) ?? 0) + 1);
  return m;
}

/** Line spans an edit touches: before (its range) and after (its range start plus the new text's lines). */
function touched(edits: readonly Edit[]): { before: Map<string, [number, number][]>; after: Map<string, [number, number][]> } {
  const before = new Map<string, [number, number][]>();
  const after = new Map<string, [number, number][]>();
  const push = (m: Map<string, [number, number][]>, f: string, r: [number, number]) => (m.get(f) ?? m.set(f, []).get(f)!).push(r);
  // Line shifts of earlier edits in the same file, so that "after" lines are where the new text is.
  const byFile = new Map<string, Edit[]>();
  for (const e of edits) (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
  for (const [file, list] of byFile) {
    list.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    let shift = 0;
    for (const e of list) {
      push(before, file, [e.range.start.line, e.range.end.line]);
      const added = e.newText.split(/\r\n|\r|\n/).length - 1;
      push(after, file, [e.range.start.line + shift, e.range.start.line + shift + added]);
      shift += added - (e.range.end.line - e.range.start.line);
    }
  }
  return { before, after };
}

function inLines(span: { file: string; range: Range } | undefined, lines: Map<string, [number, number][]>, a: Analysis): boolean {
  if (span === undefined) return false;
  const sp = inCarrier(a, span);
  return (lines.get(sp.file) ?? []).some(([a, b]) => sp.range.start.line <= b && a <= sp.range.end.line);
}

function onLines(s: Setting | undefined, lines: Map<string, [number, number][]>, a: Analysis): boolean {
  if (!s) return false;
  return linesOf(s, a).some((l) => (lines.get(l.file) ?? []).some(([a, b]) => l.start <= b && a <= l.end));
}

/** Applies one edit set and checks the property; `finding` is the fix's finding (undefined for a refactor). */
function check(files: readonly SourceFile[], options: AnalyzeOptions, before: Analysis, edits: readonly Edit[], what: string, finding?: Finding): void {
  const after = applyWorkspaceEdits([...files], edits.map((e) => ({ file: e.file, range: e.range, newText: e.newText })));
  const a2 = analyze(after, options);
  const texts = () => after.filter((x, i) => x.text !== files[i]!.text).map((x) => `--- ${x.path}\n${x.text}`).join('\n');
  // no new finding of any severity
  const c1 = counts(before.findings);
  const lines = touched(edits);
  const lesser = (g: Finding) =>
    finding !== undefined && g.code !== 'config-field-duplicate' && g.code !== 'flag-duplicate' && RANK[g.severity]! > RANK[finding.severity]! && (lines.after.get(g.file) ?? []).some(([a, b]) => a <= g.range.start.line && g.range.end.line <= b);
  for (const [k, n] of counts(a2.findings)) {
    const excused = a2.findings.filter((g) => `${g.code} ${g.file}` === k && lesser(g)).length;
    fail(n - excused <= (c1.get(k) ?? 0), `${what}: a new finding ${k}\n${a2.findings.filter((f) => `${f.code} ${f.file}` === k).map((f) => `  ${f.severity} ${f.message.slice(0, 140)}`).join('\n')}\n${texts()}`);
  }
  // settings other than the targeted ones keep their effective values
  // A continuation fix joins or splits lines: the line after each edit (and after its finding) is its target too.
  const next = finding !== undefined && CONTINUATION.has(finding.code) ? 1 : 0;
  const widen = (m: Map<string, [number, number][]>) => new Map([...m].map(([k, v]) => [k, v.map(([a, b]) => [a, b + next] as [number, number])]));
  const targetLines = widen(lines.before);
  const afterLines = widen(lines.after);
  if (finding) (targetLines.get(finding.file) ?? targetLines.set(finding.file, []).get(finding.file)!).push([finding.range.start.line, finding.range.end.line + next]);
  const e1 = effective(before);
  for (const [id, s2] of effective(a2)) {
    const s1 = e1.get(id);
    if (!s1) continue;
    for (const field of new Set([...s1.keys(), ...s2.keys()])) {
      const x = s1.get(field);
      const y = s2.get(field);
      if (x && y && valueOf(x) === valueOf(y)) continue;
      if (!x && !y) continue;
      // A setting that was set changes only where it was written on a targeted line (per key for a map); a new one
      // appears only on a line the fix wrote.
      let targeted: boolean;
      if (x?.kind === 'map' && y?.kind === 'map') {
        const keys = new Set([...x.items, ...y.items].map((i) => i.key));
        targeted = [...keys].every((k) => {
          const i = x.items.find((v) => v.key === k);
          const j = y.items.find((v) => v.key === k);
          if (i && j && JSON.stringify([i.value, i.nested]) === JSON.stringify([j.value, j.nested])) return true;
          return (i !== undefined && (inLines(i.valueSpan, targetLines, before) || inLines(x.from.span, targetLines, before))) || (j !== undefined && inLines(j.valueSpan, afterLines, a2));
        });
      } else targeted = onLines(x, targetLines, before) || onLines(y, afterLines, a2);
      fail(targeted, `${what}: node ${id} setting ${field} changed from ${x ? valueOf(x) : '(unset)'} to ${y ? valueOf(y) : '(unset)'}\n${texts()}`);
    }
  }
}

/** Every quick fix and every refactor offered anywhere in `files` (refactors asked at each line of each file). */
export function fixEffectProperty(files: readonly SourceFile[], options: AnalyzeOptions = {}, before = analyze(files, options)): number {
  let n = 0;
  const offered = (f: Finding | undefined, edits: readonly Edit[]) => {
    const why = fixProblem(files, options, before, f, edits, analyze);
    if (why) effectStats.dropped.set(f?.code ?? 'refactor', (effectStats.dropped.get(f?.code ?? 'refactor') ?? 0) + 1);
    return why === undefined;
  };
  for (const f of before.findings) {
    for (const fix of f.fixes ?? []) {
      if (!offered(f, fix.edits)) continue;
      n++;
      effectStats.fixes++;
      check(files, options, before, fix.edits, `fix "${fix.title}" of ${f.code} at ${f.file}:${f.range.start.line + 1}:${f.range.start.character + 1}`, f);
    }
  }
  const seen = new Set<string>();
  for (const file of files) {
    const lineCount = file.text.split(/\r\n|\r|\n/).length;
    for (let line = 0; line < Math.min(lineCount, 200); line++) {
      for (const r of refactorsAt(before, file.path, { start: { line, character: 0 }, end: { line, character: 0 } })) {
        const key = r.title + JSON.stringify(r.edits);
        if (seen.has(key)) continue;
        seen.add(key);
        const edits = r.edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText }));
        if (!offered(undefined, edits)) continue;
        n++;
        effectStats.refactors++;
        check(files, options, before, edits, `refactor "${r.title}"`);
      }
    }
  }
  return n;
}
