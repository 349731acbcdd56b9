/**
 * Findings at template placeholders. A value that is a template expression is unknown until the template is
 * rendered: nothing said about it (its type, its quantity, its enum, its key) can be a mistake of the file. The
 * parsers mark those places (TemplateSpans); the engine drops the findings that point at one. A partly literal
 * value (`{{ .mem }}Gi`) keeps the checks that read its literal part (the rules see it with `1` in place of each
 * expression).
 */
import type { Finding } from '../model/finding.ts';
import { comparePos, TextMap, type Range, type Segment, type Span } from '../model/range.ts';
import type { ExecCommand, RawExecWord, TemplateSpans } from '../parse/types.ts';
import type { NodeModel } from './model.ts';

/** Codes whose finding on a partly literal value is about its literal text (a unit suffix, a duration unit). */
export const PARTIAL_CHECKED: ReadonlySet<string> = new Set(['quantity-invalid', 'quantity-negative', 'eviction-syntax', 'eviction-grace-invalid']);

/** Rules whose finding says that a setting is missing (or that nothing else is set beside it). */
const ABSENCE = new Set([
  'reservations-missing', 'cpu-manager-static-needs-reservation', 'reserved-cgroup-missing', 'enforce-reservation-empty',
  'eviction-soft-without-grace', 'memory-manager-reserved-mismatch', 'eviction-defaults-dropped',
]);

/** Is this finding about a missing setting, in a config whose template may add it? */
export function mayBeRendered(f: Finding, inView: boolean): boolean {
  return !inView && ABSENCE.has(f.code);
}

/** The node's template places, or undefined when it has none (the common case costs nothing). */
export function templatePlaces(node: Pick<NodeModel, 'templates' | 'kubeletConfigs' | 'kubeadm'>): TemplateSpans[] | undefined {
  let out: TemplateSpans[] | undefined = node.templates?.slice();
  for (const d of node.kubeletConfigs) if (d.template && !out?.includes(d.template)) (out ??= []).push(d.template);
  for (const d of node.kubeadm) if (d.template && !out?.includes(d.template)) (out ??= []).push(d.template);
  return out;
}

/**
 * Does a finding point at a template placeholder (so that it says nothing about the file)? The places are indexed
 * once (TemplatePlaces), so each finding costs a binary search: a unit template with thousands of expressions and
 * as many findings (every flag of a long command line) must not cost their product.
 */
export function placeholderTest(places: readonly TemplateSpans[]): (f: Finding) => boolean {
  const index = new TemplatePlaces(places);
  // A partly literal value keeps the findings about its literal text; only a value that is nothing else silences them.
  return (f) => index.touches({ file: f.file, range: f.range }, PARTIAL_CHECKED.has(f.code));
}

/**
 * A loud finding whose related places (the value it conflicts with, the assignment a word came from) hold a template
 * expression rests on what the template renders: information, said as a condition (node/evidence.ts does the same for
 * the settings a rule looked up).
 */
export function restsOnPlaceholder(places: readonly TemplateSpans[]): (f: Finding) => Finding {
  const index = new TemplatePlaces(places);
  // Files whose directives choose between branches: two of their lines need not be in one rendered file.
  const branches = new Set(places.flatMap((p) => (p.branches ? [p.branches] : [])));
  return (f) => {
    if ((f.severity !== 'error' && f.severity !== 'warning') || !f.related?.length) return f;
    if (branches.has(f.file) && f.related.some((r) => r.span.file === f.file)) {
      return { ...f, severity: 'information', message: `Only if the template renders these lines together (its directives choose between branches). ${f.message}` };
    }
    const at = f.related.find((r) => index.touches(r.span));
    if (!at) return f;
    return { ...f, severity: 'information', message: `Only if the template expression at ${at.span.file} line ${at.span.range.start.line + 1} renders as read here. ${f.message}` };
  };
}

/**
 * Are all the node's config settings in its literal text? Not when a template expression inserts lines, or a key is
 * one (it may name any field): a finding that a setting is missing must then stay silent.
 */
export function settingsInView(node: NodeModel): boolean {
  for (const d of node.kubeletConfigs) {
    if (d.template?.inserts) return false;
    if (d.template && d.root.entries.some((e) => e.keyTemplate)) return false;
  }
  return true;
}

function overlaps(a: Range, b: Range): boolean {
  // Empty ranges touch what they sit in; otherwise the ranges must share a character.
  if (comparePos(a.start, b.start) === 0) return true;
  return comparePos(a.start, b.end) < 0 && comparePos(b.start, a.end) < 0;
}

interface Place extends Range {
  /** A place of TemplateSpans.unknown: a value that is nothing but template expressions. */
  whole: boolean;
  /** The latest end of this place and every place before it in the list. */
  reach: Range['end'];
}

/**
 * Where a node's template places lie, by file and in order, to ask of a flag's value whether a template expression
 * writes it: `--max-pods={{ max_pods }}` in a Jinja unit, `memory=${kr}` in a Terraform one, `{{ .kr }}` as a
 * kubeletExtraArgs value. Such a value is as unknown as the same expression in a KubeletConfiguration.
 */
export class TemplatePlaces {
  private readonly byFile = new Map<string, Place[]>();

  constructor(places: readonly TemplateSpans[]) {
    for (const p of places) {
      for (const [list, whole] of [[p.unknown, true], [p.partial, false]] as const) {
        for (const s of list) {
          let l = this.byFile.get(s.file);
          if (!l) this.byFile.set(s.file, (l = []));
          l.push({ start: s.range.start, end: s.range.end, whole, reach: s.range.end });
        }
      }
    }
    for (const l of this.byFile.values()) {
      l.sort((a, b) => comparePos(a.start, b.start));
      for (let i = 1; i < l.length; i++) if (comparePos(l[i].reach, l[i - 1].reach) < 0) l[i].reach = l[i - 1].reach;
    }
  }

  /**
   * `whole` when one placeholder holds all of the span (the value is nothing else), `partial` when a placeholder
   * shares some of it (`{{ .mem }}Gi`), undefined when none touches it.
   */
  of(span: Span | undefined): 'whole' | 'partial' | undefined {
    let found: 'partial' | undefined;
    for (const p of this.near(span)) {
      if (p.whole && comparePos(p.start, span!.range.start) <= 0 && comparePos(span!.range.end, p.end) <= 0) return 'whole';
      found = 'partial';
    }
    return found;
  }

  /** Does a placeholder share some of the span? With `unknownOnly`, a place of TemplateSpans.unknown. */
  touches(span: Span, unknownOnly = false): boolean {
    return this.near(span).some((p) => !unknownOnly || p.whole);
  }

  /** Does a placeholder share some of the span outside every one of `inside` (it writes the `=` or `,` between them)? */
  outside(span: Span, inside: readonly (Span | undefined)[]): boolean {
    return this.near(span).some((p) => !inside.some((s) => s && s.file === span.file && overlaps(p, s.range)));
  }

  /**
   * The places that share some of the span. An env file's whole value nests the expressions in it, so the scan back
   * stops where no place before can reach the span (`reach`), not at the first place that ends before it.
   */
  private near(span: Span | undefined): Place[] {
    const l = span && this.byFile.get(span.file);
    if (!l) return [];
    const r = span.range;
    // Places starting at or before the span's end, looked at backwards.
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (comparePos(l[mid].start, r.end) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const out: Place[] = [];
    for (let i = lo - 1; i >= 0 && comparePos(l[i].reach, r.start) >= 0; i--) if (overlaps(l[i], r)) out.push(l[i]);
    return out;
  }
}

/**
 * The words of a command line with the pieces of one template expression joined: systemd splits
 * `{{ bin_dir }}/kubelet` at its blanks into `{{`, `bin_dir` and `}}/kubelet`, but the rendered unit has one word
 * there (`/usr/local/bin/kubelet`), so the program is the kubelet and `--max-pods={{ max_pods }}` is one flag. A
 * joined word's text has one space where the expression had blanks; its map points at the words it was made of.
 */
export function joinTemplateWords(cmd: ExecCommand, places: readonly TemplateSpans[] | undefined): ExecCommand {
  if (!places?.length || cmd.words.length < 2) return cmd;
  const file = cmd.words[0].span.file;
  const spans = places.flatMap((p) => p.unknown.filter((s) => s.file === file)).map((s) => s.range).sort((a, b) => comparePos(a.start, b.start));
  if (spans.length === 0) return cmd;
  // An expression crosses the blank between two words: it starts before the first ends and ends after the second
  // starts. Words and expressions are both in order (expressions never overlap), so one pass over each suffices.
  let j = 0;
  const crosses = (a: RawExecWord, b: RawExecWord) => {
    const aEnd = a.span.range.end;
    while (j < spans.length && comparePos(spans[j].end, aEnd) <= 0) j++;
    const bStart = b.span.range.start;
    for (let k = j; k < spans.length && comparePos(spans[k].start, aEnd) < 0; k++) if (comparePos(bStart, spans[k].end) < 0) return true;
    return false;
  };
  const words: RawExecWord[] = [cmd.words[0]];
  let changed = false;
  for (let i = 1; i < cmd.words.length; i++) {
    const w = cmd.words[i];
    const last = words[words.length - 1];
    if (w.span.file === file && last.span.file === file && crosses(last, w)) {
      words[words.length - 1] = joined(last, w);
      changed = true;
    } else words.push(w);
  }
  return changed ? { ...cmd, words } : cmd;
}

/** `a` and `b` as one word, a space between them. */
function joined(a: RawExecWord, b: RawExecWord): RawExecWord {
  const segs: Segment[] = [];
  const add = (m: TextMap, at: number) => {
    for (const s of m.segments) segs.push({ ...s, offset: at + s.offset });
  };
  add(a.map, 0);
  const end = a.span.range.end;
  segs.push({ offset: a.text.length, line: end.line, character: end.character, length: 0 });
  add(b.map, a.text.length + 1);
  return {
    text: a.text + ' ' + b.text,
    span: { file: a.span.file, range: { start: a.span.range.start, end: b.span.range.end } },
    map: new TextMap(a.map.file, segs),
  };
}
