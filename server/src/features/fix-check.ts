/**
 * A quick fix is offered only when applying it is checked to be safe (issues #17, #18): the analysis of the fixed
 * text has no finding the original did not have (counted by code and file, of any severity), and no setting changes
 * its effective value unless it is written where the fix edits or where its finding is (the fix's target).
 *
 * One exception: on the text the fix writes, a finding less severe than the one it fixes. "Change to --max-pods"
 * for an unknown --max-pod (an error: the kubelet does not start) writes a flag that has a config field (a hint);
 * that is the fix working, not a new problem. A warning that a rename turns into an error is not.
 *
 * Rules cannot know this themselves: renaming `maxPod` to `maxPods` makes its value count, and a value the field
 * cannot decode is then a fatal error; a continuation fix joins lines and may bring another directive's mistakes
 * into effect. So the fixed text is analysed once per fix. Callers run this where fixes are shown (the CLI's
 * report, the language server's code actions), not for every analysis.
 */
import type { Analysis, AnalyzeOptions } from '../engine.ts';
import type { Finding, TextEdit } from '../model/finding.ts';
import type { Range } from '../model/range.ts';
import { offsetOf } from '../model/range.ts';
import type { SourceFile } from '../model/source.ts';
import type { Setting } from '../node/model.ts';
import { carrierOf, payloadPath } from '../embed/payload.ts';
import { rangeToHost } from '../embed/to-host.ts';

const RANK = { error: 0, warning: 1, information: 2, hint: 3 } as const;
/** Findings that say one value silently replaces another: never excused, even on the text the fix wrote. */
const OVERRIDES = new Set(['config-field-duplicate', 'flag-duplicate']);

type Analyze = (files: readonly SourceFile[], options: AnalyzeOptions) => Analysis;

/** Fixes that join or split lines change what the next line means: that line is part of their target. */
const CONTINUATION = new Set(['unit-continuation-trailing-space', 'unit-continuation-swallows-directive']);

/** The workspace with `edits` applied; undefined when an edit does not fit its file (then the fix is not safe). */
export function applyFix(files: readonly SourceFile[], edits: readonly TextEdit[]): SourceFile[] | undefined {
  const out: SourceFile[] = [];
  for (const f of files) {
    const mine = edits.filter((e) => e.file === f.path);
    if (mine.length === 0) {
      out.push(f);
      continue;
    }
    const at = mine.map((e) => ({ start: offsetOf(f.text, e.range.start), end: offsetOf(f.text, e.range.end), newText: e.newText }));
    if (at.some((e) => e.start === undefined || e.end === undefined || e.end < e.start)) return undefined;
    at.sort((a, b) => b.start! - a.start! || b.end! - a.end!);
    let text = f.text;
    let limit = Infinity;
    for (const e of at) {
      if (e.end! > limit) return undefined; // overlapping edits
      text = text.slice(0, e.start) + e.newText + text.slice(e.end);
      limit = e.start!;
    }
    out.push({ ...f, text });
  }
  return edits.every((e) => files.some((f) => f.path === e.file)) ? out : undefined;
}

function valueOf(s: Setting): string {
  if (s.kind === 'scalar') return JSON.stringify(s.value);
  if (s.kind === 'list') return JSON.stringify(s.items.map((i) => (i.nested ? `<${i.nested}>` : i.value)));
  if (s.kind === 'map') return JSON.stringify(s.items.map((i) => [i.key, i.nested ? `<${i.nested}>` : i.value]));
  return s.kind;
}

type LineMap = Map<string, [number, number][]>;

function addLines(m: LineMap, file: string, a: number, b: number): void {
  (m.get(file) ?? m.set(file, []).get(file)!).push([a, b]);
}

/** Lines edited or targeted, by file, and the analysis whose payload spans (a cloud-config's files) they map through. */
interface Lines {
  byFile: Map<string, [number, number][]>;
  analysis: Analysis;
}

/** A span in its carrier's lines when it lies in an embedded payload (fixes edit the carrier). */
function hostSpan(analysis: Analysis, sp: { file: string; range: Range }): { file: string; range: Range } {
  const known = analysis.payloads?.get(sp.file);
  if (known) return { file: known.host, range: rangeToHost(known.payload, sp.range) };
  const host = carrierOf(sp.file);
  const payload = host === undefined ? undefined : analysis.files.get(host)?.embedded?.find((p) => payloadPath(host, p.target) === sp.file);
  return payload ? { file: host!, range: rangeToHost(payload, sp.range) } : sp;
}

function on(span: { file: string; range: Range } | undefined, lines: Lines): boolean {
  if (span === undefined) return false;
  const sp = hostSpan(lines.analysis, span);
  return (lines.byFile.get(sp.file) ?? []).some(([a, b]) => sp.range.start.line <= b && a <= sp.range.end.line);
}

function writtenOn(s: Setting, lines: Lines): boolean {
  const spans = [s.from.span, s.kind === 'scalar' ? s.span : undefined, ...(s.kind === 'list' || s.kind === 'map' ? s.items.map((i) => i.valueSpan) : [])];
  return spans.some((sp) => on(sp, lines));
}

/**
 * Why a setting's change is not the fix's doing, or undefined: a setting (in a map, each entry) that changes must be
 * written on a targeted line, before or after the fix. (Renaming a map key onto an existing key, `gpu` to `cpu`
 * beside `cpu: 500m`, passes this: the duplicate key it makes is a finding the fix adds, which is not excused.)
 */
function untargetedChange(field: string, x: Setting | undefined, y: Setting | undefined, lines: { before: Lines; after: Lines }): string | undefined {
  if (x?.kind === 'map' && y?.kind === 'map') {
    const entry = (s: Setting & { kind: 'map' }) => new Map(s.items.map((i) => [i.key ?? '', i]));
    const a = entry(x);
    const b = entry(y);
    for (const k of new Set([...a.keys(), ...b.keys()])) {
      const i = a.get(k);
      const j = b.get(k);
      if (i && j && JSON.stringify([i.nested, i.value]) === JSON.stringify([j.nested, j.value])) continue;
      if (!(i && (on(i.valueSpan, lines.before) || on(x.from.span, lines.before))) && !(j && on(j.valueSpan, lines.after))) return `${field}.${k}`;
    }
    return undefined;
  }
  if (!(x && writtenOn(x, lines.before)) && !(y && writtenOn(y, lines.after))) return field;
  return undefined;
}

/** Lines the fix (or a refactor, without a finding) targets, in the original text and in the fixed one. */
function targetLines(f: Finding | undefined, edits: readonly TextEdit[]): { before: LineMap; after: LineMap } {
  const before: LineMap = new Map();
  const after: LineMap = new Map();
  const extra = f && CONTINUATION.has(f.code) ? 1 : 0;
  if (f) addLines(before, f.file, f.range.start.line, f.range.end.line + extra);
  const byFile = new Map<string, TextEdit[]>();
  for (const e of edits) (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
  for (const [file, list] of byFile) {
    list.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    let shift = 0;
    for (const e of list) {
      const added = e.newText.split(/\r\n|\r|\n/).length - 1;
      addLines(before, file, e.range.start.line, e.range.end.line + extra);
      addLines(after, file, e.range.start.line + shift, e.range.start.line + shift + added + extra);
      shift += added - (e.range.end.line - e.range.start.line);
    }
  }
  // A finding in a file the fix leaves as it is (a k3s list a later file's key replaces) keeps its lines: they are
  // the target after the fix too.
  if (f && !byFile.has(f.file)) addLines(after, f.file, f.range.start.line, f.range.end.line + extra);
  return { before, after };
}

function counts(findings: readonly Finding[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of findings) m.set(`${f.code}\0${f.file}`, (m.get(`${f.code}\0${f.file}`) ?? 0) + 1);
  return m;
}

/**
 * Why applying `edits` (a fix of `f`, or a refactor when `f` is undefined) would make things worse, or undefined
 * when it is safe.
 */
export function fixProblem(
  files: readonly SourceFile[],
  options: AnalyzeOptions,
  before: Analysis,
  f: Finding | undefined,
  edits: readonly TextEdit[],
  analyze: Analyze,
  /** Files a refactor creates (with their text), before its edits apply. */
  creates: readonly { path: string; text: string }[] = [],
): string | undefined {
  if (creates.some((c) => files.some((x) => x.path === c.path))) return 'it would create a file that exists';
  const fixed = applyFix([...files, ...creates.map((c) => ({ path: c.path, text: c.text }))], edits);
  if (!fixed) return 'its edits do not fit the text';
  let after: Analysis;
  try {
    after = analyze(fixed, options);
  } catch (e) {
    return `the fixed text cannot be analysed (${e instanceof Error ? e.message : String(e)})`;
  }
  const had = counts(before.findings);
  const target = targetLines(f, edits);
  const lines = { before: { byFile: target.before, analysis: before }, after: { byFile: target.after, analysis: after } };
  const written = targetLines(undefined, edits).after;
  const lesser = (g: Finding) =>
    f !== undefined && !OVERRIDES.has(g.code) && RANK[g.severity] > RANK[f.severity] && (written.get(g.file) ?? []).some(([a, b]) => a <= g.range.start.line && g.range.end.line <= b);
  for (const [k, n] of counts(after.findings)) {
    const was = had.get(k) ?? 0;
    if (n <= was) continue;
    const excused = after.findings.filter((g) => `${g.code}\0${g.file}` === k && lesser(g)).length;
    if (n - excused > was) return `it adds a finding ${k.replace('\0', ' in ')}`;
  }
  const nodesBefore = new Map(before.nodes.map((n) => [n.node.id, n.node.settings]));
  for (const n of after.nodes) {
    const s1 = nodesBefore.get(n.node.id);
    if (!s1) continue;
    const s2 = n.node.settings;
    for (const field of new Set([...s1.keys(), ...s2.keys()])) {
      const x = s1.get(field);
      const y = s2.get(field);
      if ((x && y && valueOf(x) === valueOf(y)) || (!x && !y)) continue;
      const what = untargetedChange(field, x, y, lines);
      if (what) return `it changes ${what}, which it does not target`;
    }
  }
  return undefined;
}

/** `analysis` with every fix that would make things worse left out (the CLI's report). */
export function withSafeFixes(files: readonly SourceFile[], options: AnalyzeOptions, analysis: Analysis, analyze: Analyze): Analysis {
  const findings = analysis.findings.map((f) => {
    if (!f.fixes?.length) return f;
    const fixes = f.fixes.filter((fix) => fixProblem(files, options, analysis, f, fix.edits, analyze) === undefined);
    if (fixes.length === f.fixes.length) return f;
    const { fixes: _drop, ...rest } = f;
    void _drop;
    return fixes.length ? { ...rest, fixes } : rest;
  });
  return { ...analysis, findings };
}
