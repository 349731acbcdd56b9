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
import { LineIndex, offsetOf, type Position } from '../model/range.ts';
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

/**
 * The workspace with `edits` applied; undefined when an edit does not fit its file (then the fix is not safe). Linear in
 * the files and edits: a group of fixes (withSafeFixes) may hold thousands of edits of one long carrier.
 */
export function applyFix(files: readonly SourceFile[], edits: readonly TextEdit[]): SourceFile[] | undefined {
  const byFile = new Map<string, TextEdit[]>();
  for (const e of edits) (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
  const out: SourceFile[] = [];
  const used = new Set<string>();
  for (const f of files) {
    const mine = byFile.get(f.path);
    if (!mine) {
      out.push(f);
      continue;
    }
    used.add(f.path);
    const text = applyEdits(f.text, mine);
    if (text === undefined) return undefined;
    out.push({ ...f, text });
  }
  // (every edit's file must be one of the workspace's; two entries of one path both take its edits, as before)
  return used.size === byFile.size ? out : undefined;
}

/** `text` with `edits` applied, or undefined when one does not fit it or two overlap. */
function applyEdits(text: string, edits: readonly TextEdit[]): string | undefined {
  // A few edits find their offsets by scanning (offsetOf); many share one line index.
  const lines = edits.length > 2 ? new LineIndex(text) : undefined;
  const offset = (p: Position): number | undefined => {
    if (!lines) return offsetOf(text, p);
    const start = lines.starts[p.line];
    if (start === undefined || p.character < 0) return undefined;
    return p.character <= lines.lineText(p.line).length ? start + p.character : undefined;
  };
  const at: { start: number; end: number; newText: string }[] = [];
  for (const e of edits) {
    const start = offset(e.range.start);
    const end = offset(e.range.end);
    if (start === undefined || end === undefined || end < start) return undefined;
    at.push({ start, end, newText: e.newText });
  }
  at.sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let from = 0;
  for (const e of at) {
    if (e.start < from) return undefined; // overlapping edits
    parts.push(text.slice(from, e.start), e.newText);
    from = e.end;
  }
  parts.push(text.slice(from));
  return parts.join('');
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
  const list = lines.byFile.get(sp.file);
  return list !== undefined && meets(list, sp.range.start.line, sp.range.end.line);
}

/** Line ranges sorted by start, with the furthest end so far at each, made once per list (a group's lists are long). */
const SORTED = new WeakMap<[number, number][], { starts: number[]; reach: number[] }>();

/** Whether lines a..b meet one of the ranges: the last range starting at or before b, or one before it, reaches a. */
function meets(list: [number, number][], a: number, b: number): boolean {
  if (list.length < 8) return list.some(([x, y]) => a <= y && x <= b);
  let s = SORTED.get(list);
  if (!s) {
    const sorted = [...list].sort((x, y) => x[0] - y[0]);
    const reach: number[] = [];
    sorted.forEach(([, y], i) => reach.push(Math.max(y, i ? reach[i - 1] : -Infinity)));
    SORTED.set(list, (s = { starts: sorted.map(([x]) => x), reach }));
  }
  let lo = 0;
  let hi = s.starts.length - 1;
  let i = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s.starts[mid] <= b) {
      i = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return i >= 0 && s.reach[i] >= a;
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
  if (f && stillThere(f, before, target.before, after, target.after)) return 'the finding it fixes is still there';
  return settingsProblem(before, after, lines);
}

/**
 * Whether the finding a fix is for is still there after it: as many findings of its code and words on the lines it
 * targets as before. A fix must do what its title says; a finding less severe on the text it wrote is excused, so
 * this is what caught ` --kube-reserved-cgroup=...` added inside an unquoted Environment= assignment (npm run fuzz,
 * seed 20261208).
 */
function stillThere(f: Finding, before: Analysis, linesBefore: LineMap, after: Analysis, linesAfter: LineMap): boolean {
  const count = (a: Analysis, m: LineMap) => {
    const list = m.get(f.file);
    let n = 0;
    if (list) for (const g of a.findings) if (g.code === f.code && g.file === f.file && g.message === f.message && meets(list, g.range.start.line, g.range.end.line)) n++;
    return n;
  };
  return count(after, linesAfter) >= count(before, linesBefore);
}

/** A setting of a node that the fix changes though it is written on none of the lines the fix targets. */
function settingsProblem(before: Analysis, after: Analysis, lines: { before: Lines; after: Lines }): string | undefined {
  const nodesBefore = new Map(before.nodes.map((n) => [n.node.id, n.node.settings]));
  for (const n of after.nodes) {
    const s1 = nodesBefore.get(n.node.id);
    if (!s1) continue;
    const s2 = n.node.settings;
    if (s1 === s2) continue;
    for (const field of new Set([...s1.keys(), ...s2.keys()])) {
      const x = s1.get(field);
      const y = s2.get(field);
      // (the same object: a platform's base setting, which every node shares)
      if (x === y || (x && y && valueOf(x) === valueOf(y))) continue;
      const what = untargetedChange(field, x, y, lines);
      if (what) return `it changes ${what}, which it does not target`;
    }
  }
  return undefined;
}

/** Up to this many fixes are checked one by one; more are checked together (see withSafeFixes). */
const ONE_BY_ONE = 4;

/**
 * Fixes of one node are checked one round each (they may change each other's results): a node's fixes after this
 * many are not checked, so not offered. A node with thousands of fixable findings (generated input) would otherwise
 * cost an analysis of that node per fix, the square of its size (issue #28); real nodes have a handful.
 */
export const MAX_FIX_ROUNDS = 64;

interface Candidate {
  /** The finding's index in the analysis, and the fix's among its fixes. */
  at: number;
  fix: number;
  f: Finding;
  edits: readonly TextEdit[];
}

/**
 * `analysis` with every fix that would make things worse left out (the CLI's report).
 *
 * Checking each fix with an analysis of the whole workspace of its own grows with the square of the fixes (issues
 * #28, #29: a fleet of 2,000 nodes took 279 s, a stream of 20,000 documents did not finish). Fixes of different nodes
 * do not change each other's results, so they are applied together and checked with one analysis
 * (`groupProblem`), which is stricter than `fixProblem`: every finding of the fixed text must be one the original
 * had at the same place with the same words, or one that fixProblem excuses on the text its own fix wrote. A group
 * that fails is halved until the fix that fails is alone; a fix alone is checked by fixProblem, so what is offered
 * is what checking every fix on its own offers, at one analysis per group in the usual case where all are safe.
 */
export function withSafeFixes(files: readonly SourceFile[], options: AnalyzeOptions, analysis: Analysis, analyze: Analyze, onUnchecked?: (count: number) => void): Analysis {
  const all: Candidate[] = [];
  analysis.findings.forEach((f, at) => f.fixes?.forEach((x, fix) => all.push({ at, fix, f, edits: x.edits })));
  const safe = new Set<string>();
  const id = (c: Candidate) => `${c.at}:${c.fix}`;
  const alone = (c: Candidate) => {
    if (fixProblem(files, options, analysis, c.f, c.edits, analyze) === undefined) safe.add(id(c));
  };
  const together = (group: Candidate[]): void => {
    if (group.length === 1) return alone(group[0]);
    const fixed = applyFix(files, group.flatMap((c) => c.edits));
    let after: Analysis | undefined;
    try {
      after = fixed && analyze(fixed, options);
    } catch {
      after = undefined;
    }
    if (after && groupProblem(analysis, after, group) === undefined) {
      for (const c of group) safe.add(id(c));
      return;
    }
    const half = Math.ceil(group.length / 2);
    together(group.slice(0, half));
    together(group.slice(half));
  };
  if (all.length <= ONE_BY_ONE) all.forEach(alone);
  else {
    const list = rounds(analysis, all);
    for (const round of list.slice(0, MAX_FIX_ROUNDS)) together(round);
    const unchecked = list.slice(MAX_FIX_ROUNDS).reduce((n, r) => n + r.length, 0);
    if (unchecked) onUnchecked?.(unchecked);
  }
  const findings = analysis.findings.map((f, at) => {
    if (!f.fixes?.length) return f;
    const fixes = f.fixes.filter((_, fix) => safe.has(`${at}:${fix}`));
    if (fixes.length === f.fixes.length) return f;
    const { fixes: _drop, ...rest } = f;
    void _drop;
    return fixes.length ? { ...rest, fixes } : rest;
  });
  return { ...analysis, findings };
}

/**
 * The fixes in groups that may be applied together: no two of a group touch the same node (its files, or the lines of
 * a carrier that hold its payloads) or fix the same finding. A fix that touches no node's lines (a carrier's own
 * text) shares its group with no other fix of that file.
 */
function rounds(analysis: Analysis, all: readonly Candidate[]): Candidate[][] {
  const fileNodes = new Map<string, string[]>();
  const hostLines = new Map<string, Map<number, string[]>>();
  const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);
  for (const { node } of analysis.nodes) {
    for (const file of node.files) {
      const p = analysis.payloads?.get(file);
      if (!p) {
        push(fileNodes, file, node.id);
        continue;
      }
      const { map } = p.payload;
      const from = map.host.position(map.offsets[0]).line;
      const to = map.host.position(map.offsets[map.offsets.length - 1]).line;
      const lines = hostLines.get(p.host) ?? hostLines.set(p.host, new Map()).get(p.host)!;
      for (let l = from; l <= to; l++) push(lines, l, node.id);
    }
  }
  const keysAt = (file: string, range: Range, into: Set<string>) => {
    let found = false;
    for (const n of fileNodes.get(file) ?? []) found = !!into.add(n);
    const lines = hostLines.get(file);
    if (lines) for (let l = range.start.line; l <= range.end.line; l++) for (const n of lines.get(l) ?? []) found = !!into.add(n);
    if (!found) into.add(`file\0${file}`);
  };
  const next = new Map<string, number>();
  const out: Candidate[][] = [];
  for (const c of all) {
    const keys = new Set<string>([`finding\0${c.at}`]);
    keysAt(c.f.file, c.f.range, keys);
    for (const e of c.edits) keysAt(e.file, e.range, keys);
    let r = 0;
    for (const k of keys) r = Math.max(r, next.get(k) ?? 0);
    for (const k of keys) next.set(k, r + 1);
    (out[r] ??= []).push(c);
  }
  return out;
}

/** Whether both analyses have the same nodes, each of the same files. */
function sameNodes(a: Analysis, b: Analysis): boolean {
  if (a.nodes.length !== b.nodes.length) return false;
  const files = new Map(a.nodes.map((n) => [n.node.id, n.node.files]));
  return b.nodes.every((n) => {
    const f = files.get(n.node.id);
    return f !== undefined && f.length === n.node.files.length && f.every((x, i) => x === n.node.files[i]);
  });
}

/**
 * Why applying a group of fixes together would make things worse, or undefined. Stricter than fixProblem for each:
 * a finding of the fixed text counts as old only when the original had one of its code and words at the same line
 * (moved by the lines the edits add or take away) or on the lines the same fix targets; a new one is excused only on
 * the text its fix wrote and less severe than the finding it fixes. A setting may change only where a fix of the
 * group targets.
 */
function groupProblem(before: Analysis, after: Analysis, group: readonly Candidate[]): string | undefined {
  // Fixes of different nodes leave each other's results alone only while the nodes stay what they were: a fix that
  // makes a drop-in's EnvironmentFile= reach another node's env file joins the two, and the other fix is then judged
  // in a node it was not checked for (npm run fuzz, seed 20261205). Such a group is checked fix by fix.
  if (!sameNodes(before, after)) return 'it changes which files make a node';
  // Per file, the edits in order, each with its fix, its lines before and after, and the lines it adds.
  interface Placed {
    k: number;
    a: number;
    b: number;
    a2: number;
    b2: number;
    extra: number;
  }
  const placed = new Map<string, Placed[]>();
  group.forEach((c, k) => {
    for (const e of c.edits) (placed.get(e.file) ?? placed.set(e.file, []).get(e.file)!).push({ k, a: e.range.start.line, b: e.range.end.line, a2: 0, b2: e.newText.split(/\r\n|\r|\n/).length - 1, extra: CONTINUATION.has(c.f.code) ? 1 : 0 });
  });
  for (const list of placed.values()) {
    list.sort((x, y) => x.a - y.a || x.b - y.b);
    let shift = 0;
    for (const p of list) {
      const added = p.b2;
      p.a2 = p.a + shift;
      p.b2 = p.a + shift + added;
      shift += added - (p.b - p.a);
    }
  }
  // The last edit of a file that starts at or before a line (edits of one group do not overlap, so their lines
  // before and after the fix both ascend).
  const last = (list: readonly Placed[], line: number, start: (p: Placed) => number): number => {
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (start(list[mid]) <= line) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const beforeAnchor = (file: string, line: number): string => {
    const list = placed.get(file);
    if (!list) return `L${line}`;
    const i = last(list, line, (p) => p.a);
    if (i >= 0 && line <= list[i].b + list[i].extra) return `fix${list[i].k}`;
    if (i >= 1 && line <= list[i - 1].b + list[i - 1].extra) return `fix${list[i - 1].k}`;
    return `L${line}`;
  };
  const afterAnchor = (file: string, line: number): string => {
    const list = placed.get(file);
    if (!list) return `L${line}`;
    const i = last(list, line, (p) => p.a2);
    if (i >= 0 && line <= list[i].b2 + list[i].extra) return `fix${list[i].k}`;
    if (i >= 1 && line <= list[i - 1].b2 + list[i - 1].extra) return `fix${list[i - 1].k}`;
    // Past edit i: moved by what the edits up to it added or took away.
    return i >= 0 ? `L${line - (list[i].b2 - list[i].b)}` : `L${line}`;
  };
  const key = (g: Finding, anchor: string) => `${g.code}\0${g.file}\0${anchor}\0${g.message}`;
  const had = new Map<string, number>();
  for (const g of before.findings) {
    const k = key(g, beforeAnchor(g.file, g.range.start.line));
    had.set(k, (had.get(k) ?? 0) + 1);
  }
  // Each fix's own finding must be gone (stillThere): at its anchor, fewer findings of its words than before by as
  // many as the group fixes there.
  const fixedAt = new Map<string, number>();
  for (const c of group) {
    const k = key(c.f, beforeAnchor(c.f.file, c.f.range.start.line));
    fixedAt.set(k, (fixedAt.get(k) ?? 0) + 1);
  }
  const hadAt = new Map([...fixedAt.keys()].map((k) => [k, had.get(k) ?? 0]));
  const left = new Map<string, number>();
  for (const g of after.findings) {
    const anchor = afterAnchor(g.file, g.range.start.line);
    const k = key(g, anchor);
    if (fixedAt.has(k)) left.set(k, (left.get(k) ?? 0) + 1);
    const n = had.get(k) ?? 0;
    if (n > 0) {
      had.set(k, n - 1);
      continue;
    }
    const mine = anchor.startsWith('fix') ? group[Number(anchor.slice(3))] : undefined;
    const written = mine && (placed.get(g.file) ?? []).some((p) => group[p.k] === mine && p.a2 <= g.range.start.line && g.range.end.line <= p.b2);
    if (!(mine && written && !OVERRIDES.has(g.code) && RANK[g.severity] > RANK[mine.f.severity])) return `it adds a finding ${g.code} in ${g.file}`;
  }
  for (const [k, n] of fixedAt) if ((left.get(k) ?? 0) > hadAt.get(k)! - n) return 'a finding it fixes is still there';
  // Settings: as in fixProblem, with the lines every fix of the group targets.
  const target = { before: new Map() as LineMap, after: new Map() as LineMap };
  for (const c of group) {
    const t = targetLines(c.f, []);
    for (const [file, list] of t.before) for (const [a, b] of list) addLines(target.before, file, a, b);
    if (!placed.has(c.f.file)) addLines(target.after, c.f.file, c.f.range.start.line, c.f.range.end.line + (CONTINUATION.has(c.f.code) ? 1 : 0));
  }
  for (const [file, list] of placed) {
    for (const p of list) {
      addLines(target.before, file, p.a, p.b + p.extra);
      addLines(target.after, file, p.a2, p.b2 + p.extra);
    }
  }
  const lines = { before: { byFile: target.before, analysis: before }, after: { byFile: target.after, analysis: after } };
  return settingsProblem(before, after, lines);
}
