/**
 * Refactor "Move kubelet flags into the KubeletConfiguration file": every flag that has a
 * config field and can move is removed from wherever it is written (ExecStart=, an
 * Environment= or env-file variable), and its field is written into the --config file with
 * the value the kubelet uses today. The kubelet applies flags over the file
 * (kubelet-facts §9), so the field takes the flags' effective value:
 * - a scalar: the last flag's value;
 * - a map flag (--kube-reserved, --eviction-hard, ...): the first one replaces the file's
 *   whole map, repeats add keys;
 * - a list flag (pflag StringSlice): the first one replaces the file's list, repeats append;
 * - --feature-gates: merged into the file's featureGates, the flag winning per gate.
 * The per-flag conversion is the quick fix's (rules/lib/migrate.ts flagFieldValue); the result is
 * checked against the engine's effective setting before anything is written.
 *
 * A field stays a flag (all of its flags stay) when moving could change what the kubelet does
 * or the file could not hold it; `kept` says why for each. See `blocked` below.
 */
import { closeGaps } from './close-gaps.ts';
import type { Analysis, NodeResult } from '../../engine.ts';
import { compareVersions, flagInfo, type FlagInfo } from '../../catalog/flags.ts';
import { fieldInfo } from '../../catalog/fields.ts';
import type { Finding } from '../../model/finding.ts';
import { comparePos, type Range } from '../../model/range.ts';
import type { FlagUse, NodeModel, Setting } from '../../node/model.ts';
import { kubeadmRewrites, kubeadmWrites } from '../../node/kubeadm.ts';
import { parseGoBool } from '../../quantity/mapflag.ts';
import type { Word } from '../../parse/types.ts';
import { fieldTakesFlagValue, flagFieldValue, valueStartConflict, type FieldValue } from '../../rules/lib/migrate.ts';
import { configTarget, setFields, type ConfigTarget } from './config-writer.ts';
import { createConfigRefactor } from './create-config.ts';
import type { PlainEdit, Refactor } from './types.ts';

export interface MovePlan {
  /** Path of the KubeletConfiguration file the fields go to. */
  config: string;
  /** Fields written, with the flags they replace. */
  moved: { field: string; flags: string[] }[];
  /** Fields whose flags stay, and why. */
  kept: { field: string; flags: string[]; why: string }[];
  edits: PlainEdit[];
}

/** The refactor for the nodes whose command line is at `range` of `path` (an ExecStart= line or any of its flags). */
export function moveFlagsRefactors(analysis: Analysis, path: string, range: Range): Refactor[] {
  const out: Refactor[] = [];
  for (const result of analysis.nodes) {
    const { node } = result;
    const exec = node.service?.execStart?.span;
    const onExec = exec !== undefined && exec.file === path && touches(exec.range, range);
    const onFlag = node.flags.some((f) => f.from === 'command-line' && wordsOf(f).some((w) => w.span.file === path && touches(w.span.range, range)));
    if (!onExec && !onFlag) continue;
    const rewritten = kubeadmRewrites(node, configPath(node));
    if (rewritten) {
      out.push({ title: 'Move kubelet flags into the KubeletConfiguration file', kind: 'refactor.rewrite', edits: [], disabled: rewritten });
      continue;
    }
    const plan = planMoveFlags(analysis, result);
    if (!plan) {
      // No --config at all: offer to create the file and point the kubelet at it.
      const created = createConfigRefactor(analysis, result);
      if (created) out.push(created);
      continue;
    }
    if (plan.moved.length === 0) continue;
    const names = plan.moved.flatMap((m) => m.flags);
    const list = names.length <= 3 ? names.map((n) => `--${n}`).join(', ') : `${names.length} flags`;
    out.push({ title: `Move kubelet flags into the KubeletConfiguration file ${plan.config.slice(plan.config.lastIndexOf('/') + 1)} (${list})`, kind: 'refactor.rewrite', edits: plan.edits });
  }
  return out;
}

/** What the refactor would do on this node, or undefined when the node has no config file it can write. */
export function planMoveFlags(analysis: Analysis, result: NodeResult, into?: ConfigTarget): MovePlan | undefined {
  const { node } = result;
  const target = into ?? configTarget(analysis, result);
  if ('why' in target) return undefined;

  const byField = new Map<string, { info: FlagInfo; flags: FlagUse[] }>();
  for (const f of node.flags) {
    const info = flagInfo(f.name);
    if (!info?.field) continue;
    const g = byField.get(info.field);
    if (g) g.flags.push(f);
    else byField.set(info.field, { info, flags: [f] });
  }

  const plan: MovePlan = { config: target.doc.path, moved: [], kept: [], edits: [] };
  const candidates = new Map<string, { value: FieldValue; words: Word[]; names: string[] }>();
  for (const [field, { info, flags }] of byField) {
    const names = [...new Set(flags.map((f) => f.name))];
    const keep = (why: string) => plan.kept.push({ field, flags: names, why });
    const why = blocked(analysis, node, field, flags);
    if (why) {
      keep(why);
      continue;
    }
    const value = combined(node, field, info, flags);
    if (!value) {
      keep('the value cannot be written as the field the same way (a value the flag rejects, a number pflag reads differently, an unknown key)');
      continue;
    }
    if (!sameAsEffective(value, node.settings.get(field))) {
      keep('the combined value differs from what the engine says is in effect');
      continue;
    }
    const words = flags.flatMap(wordsOf);
    if (words.some((w) => !removeWord(analysis, node, w))) {
      keep('a flag cannot be removed alone: its variable is used elsewhere, or the word spans lines or is shared with another node');
      continue;
    }
    candidates.set(field, { value, words, names });
  }
  for (let field = leadingWordConflict(node, candidates); field; field = leadingWordConflict(node, candidates)) {
    plan.kept.push({ field, flags: candidates.get(field)!.names, why: 'it opens a variable\'s value, and the words after it would then be read differently (a quote where a value starts)' });
    candidates.delete(field);
  }
  const values: [string, FieldValue][] = [];
  const removals: PlainEdit[] = [];
  for (const [field, c] of candidates) {
    values.push([field, c.value]);
    removals.push(...c.words.map((w) => removeWord(analysis, node, w)!));
    plan.moved.push({ field, flags: c.names });
  }
  if (values.length === 0) return plan;
  const configEdits = setFields(target, values);
  if (!configEdits) {
    plan.kept.push(...plan.moved.map((m) => ({ ...m, why: `${target.doc.path} sets the field more than once, or cannot hold the value in its format` })));
    plan.moved = [];
    return plan;
  }
  const edits = [...configEdits, ...closeGaps(node, wholeLines(analysis, node, removals))];
  if (overlapping(edits)) return undefined;
  plan.edits = edits;
  return plan;
}

/** Why a field's flags stay where they are; undefined when they can move. */
function blocked(analysis: Analysis, node: NodeModel, field: string, flags: FlagUse[]): string | undefined {
  // Nested fields (logging.verbosity for --v, authentication.*): the node model reads only top-level fields of the
  // file, so the move could not be checked; they stay.
  if (field.includes('.')) return 'a nested config field; the refactor writes top-level fields only';
  const fi = fieldInfo(field);
  if (!fi || !fieldTakesFlagValue(field)) return 'the config field has another shape than the flag (objects, not strings)';
  // A field newer than the target kubelet is an unknown field to it: ignored (config-field-unavailable).
  if (fi.since && compareVersions(node.kubernetesVersion, fi.since) < 0) return `the field arrived in ${fi.since}, after the target kubelet ${node.kubernetesVersion}`;
  // kubeadm writes kubeletExtraArgs into kubeadm-flags.env, and `kubeadm join` takes the KubeletConfiguration from the
  // cluster, not from the file: moving them into the file's document would not reach the kubelet the same way.
  if (flags.some((f) => f.from !== 'command-line')) return 'kubeadm kubeletExtraArgs stay where kubeadm reads them';
  // kubeadm writes kubeadm-flags.env itself from kubeletExtraArgs (init, join, upgrade node): an edit there is lost.
  if (flags.some((f) => wordsOf(f).some((w) => kubeadmWrites(w.span.file)))) return 'kubeadm writes kubeadm-flags.env itself: change kubeletExtraArgs in its configuration instead';
  // --config-dir drop-ins are applied after the --config file: a field they set would win over the moved value.
  const dropIn = node.configRefs.some((r) => r.flag === 'config-dir') && node.kubeletConfigs.some((d) => d.path !== configPath(node) && d.root.entries.some((e) => e.key === field));
  if (dropIn) return 'a --config-dir drop-in sets the field and would win over the config file';
  // A flag the engine reports an error on stays where the error is reported: moving it would only move the problem
  // (or make the config file fail to decode).
  if (flags.some((f) => wordsOf(f).some((w) => hasError(analysis.findings, w)))) return 'the flag has an error to fix first';
  return undefined;
}

function configPath(node: NodeModel): string | undefined {
  return node.configRefs.find((r) => r.flag === 'config')?.resolved?.[0];
}

/** The field's value after all of its flags are applied over the file (kubelet-facts §9, node/effective.ts). */
function combined(node: NodeModel, field: string, info: FlagInfo, flags: FlagUse[]): FieldValue | undefined {
  const each: FieldValue[] = [];
  for (const f of flags) {
    const v = flagFieldValue(field, info, f.value);
    if (!v) return undefined;
    each.push(v);
  }
  const last = each.at(-1)!;
  if (last.kind === 'list' && !info.lastWins) {
    // pflag's StringSlice is CSV: a quote in an item would be read differently from the plain split.
    const items = each.flatMap((v) => (v.kind === 'list' ? v.items : []));
    return items.some((i) => i.includes('"')) ? undefined : { kind: 'list', items };
  }
  if (last.kind === 'map') {
    const m = new Map<string, string | boolean>();
    if (field === 'featureGates') {
      // Gates from the file merge with the flag's; a gate written as anything but a YAML/JSON bool is left alone.
      const file = node.shadowed.get(field) ?? node.settings.get(field);
      if (file && file.from.how !== 'flag') {
        if (file.kind !== 'map') return undefined;
        for (const i of file.items) {
          if (typeof i.value !== 'boolean' || i.key === undefined) return undefined;
          m.set(i.key, i.value);
        }
      }
    }
    for (const v of each) {
      if (v.kind !== 'map') return undefined;
      for (const [k, x] of v.entries) {
        m.delete(k);
        m.set(k, x);
      }
    }
    return { kind: 'map', entries: [...m] };
  }
  return last;
}

/** The combined value against the engine's effective setting, compared as the kubelet would read both. */
function sameAsEffective(v: FieldValue, s: Setting | undefined): boolean {
  if (!s) return false;
  const text = (x: string | number | boolean | null) => (x === null ? '' : String(x));
  switch (v.kind) {
    case 'bool':
      return s.kind === 'scalar' && (typeof s.value === 'boolean' ? s.value : parseGoBool(text(s.value))) === v.value;
    case 'number':
      return s.kind === 'scalar' && Number(s.value) === Number(v.text);
    case 'string':
      return s.kind === 'scalar' && text(s.value) === v.value;
    case 'list':
      return s.kind === 'list' && s.items.length === v.items.length && s.items.every((i, k) => text(i.value) === v.items[k]);
    case 'map': {
      if (s.kind !== 'map') return false;
      const have = new Map(s.items.map((i) => [i.key ?? '', i.value]));
      return (
        have.size === v.entries.length &&
        v.entries.every(([k, x]) => {
          if (!have.has(k)) return false;
          const h = have.get(k)!;
          return typeof x === 'boolean' ? (typeof h === 'boolean' ? h : parseGoBool(text(h))) === x : text(h) === x;
        })
      );
    }
  }
}

function wordsOf(f: FlagUse): Word[] {
  return f.valueWord ? [f.nameWord, f.valueWord] : [f.nameWord];
}

/**
 * An edit deleting one argument. The word is deleted and its blanks stay: systemd and the
 * env-file reader split on any run of blanks and drop leading and trailing ones. Undefined when
 * deleting it would change more than this kubelet's argument list.
 */
function removeWord(analysis: Analysis, node: NodeModel, w: Word): PlainEdit | undefined {
  const r = w.span.range;
  if (r.start.line !== r.end.line || r.end.character <= r.start.character) return undefined;
  // The file must not be read by another node (a shared env file or drop-in would change it too).
  if (analysis.nodes.filter((n) => n.node.files.includes(w.span.file)).length !== 1) return undefined;
  const via = w.via;
  // `${NAME}` substituted in place: the word is written in ExecStart= itself, like a literal one.
  const inPlace = via !== undefined && via.span.file === w.span.file && comparePos(r.start, via.span.range.start) <= 0 && comparePos(via.span.range.end, r.end) <= 0;
  if (via && !inPlace && node.service) {
    // A whole-word `$NAME`: the word lives in the variable's assignment, which every reference shares.
    const refs = (node.execReferences ?? []).filter((x) => x.variable === via.variable);
    if (refs.length !== 1) return undefined;
    // Other commands of the service (ExecStartPre=, ExecStop=, ...) may use the variable too. This is a conservative
    // look at the directive's value: any mention of the name counts.
    const exec = node.service.execStart;
    const elsewhere = node.service.files.some((u) => u.directives.some((d) => d !== exec && d.key.startsWith('Exec') && d.value.includes(via.variable)));
    if (elsewhere) return undefined;
  }
  return { path: w.span.file, range: r, newText: '' };
}

/**
 * Deleting only the word leaves a line of blanks and "\\" where a flag stood alone on a continued line of
 * ExecStart=. When every argument written on such a line goes, the whole line goes, its "\\" with it (the line
 * above still continues onto the next one). Never the directive's first or last line, and not when the directive
 * holds several commands (the words of the others are not in the node's argv, so the line may hold more).
 */
function wholeLines(analysis: Analysis, node: NodeModel, removals: PlainEdit[]): PlainEdit[] {
  const exec = node.service?.execStart;
  if (!exec) return removals;
  const file = exec.keySpan.file;
  const first = exec.keySpan.range.start.line;
  const inExec = (line: number) => line > first && line < exec.lastLine;
  if (analysis.findings.some((f) => f.code === 'exec-multiple' && f.file === file && f.range.start.line >= first && f.range.start.line <= exec.lastLine)) return removals;
  // Everything written on each line of the directive: the program, every argument or the variable reference it came from.
  const occupants = new Map<number, Range[]>();
  const add = (r: Range | undefined) => r && occupants.set(r.start.line, [...(occupants.get(r.start.line) ?? []), r]);
  add(node.program?.span.file === file ? node.program.span.range : undefined);
  for (const w of node.argv) add(w.span.file === file ? w.span.range : w.via?.span.file === file ? w.via.span.range : undefined);
  for (const r of node.execReferences ?? []) add(r.span.file === file ? r.span.range : undefined);
  const same = (a: Range, b: Range) => comparePos(a.start, b.start) === 0 && comparePos(a.end, b.end) === 0;
  const out: PlainEdit[] = [];
  const done = new Set<number>();
  for (const e of removals) {
    const line = e.range.start.line;
    if (e.path !== file || !inExec(line)) {
      out.push(e);
      continue;
    }
    if (done.has(line)) continue;
    const here = removals.filter((x) => x.path === file && x.range.start.line === line);
    const all = (occupants.get(line) ?? []).every((r) => here.some((x) => same(x.range, r)));
    if (!all) {
      out.push(e);
      continue;
    }
    done.add(line);
    out.push({ path: file, range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, newText: '' });
  }
  return out;
}

/** A field whose flags open a variable's value that would then be read differently (rules/lib/migrate.ts valueStartConflict). */
function leadingWordConflict(node: NodeModel, candidates: Map<string, { words: Word[] }>): string | undefined {
  const fieldOf = new Map<Word, string>();
  for (const [field, c] of candidates) for (const w of c.words) fieldOf.set(w, field);
  const w = valueStartConflict(node, new Set(fieldOf.keys()));
  return w && fieldOf.get(w);
}

function hasError(findings: readonly Finding[], w: Word): boolean {
  return findings.some((f) => f.severity === 'error' && f.file === w.span.file && overlaps(f.range, w.span.range));
}

/** Ranges share a character (an empty range counts when it lies inside the other). */
function overlaps(a: Range, b: Range): boolean {
  if (comparePos(a.start, a.end) === 0) return comparePos(b.start, a.start) <= 0 && comparePos(a.start, b.end) < 0;
  return comparePos(a.start, b.end) < 0 && comparePos(b.start, a.end) < 0;
}

/** A requested range (often an empty cursor range) touches a span, ends included. */
function touches(span: Range, req: Range): boolean {
  return comparePos(req.start, span.end) <= 0 && comparePos(span.start, req.end) <= 0;
}

function overlapping(edits: readonly PlainEdit[]): boolean {
  const byPath = new Map<string, PlainEdit[]>();
  for (const e of edits) (byPath.get(e.path) ?? byPath.set(e.path, []).get(e.path)!).push(e);
  for (const list of byPath.values()) {
    list.sort((a, b) => comparePos(a.range.start, b.range.start));
    for (let i = 1; i < list.length; i++) if (comparePos(list[i].range.start, list[i - 1].range.end) < 0) return true;
  }
  return false;
}
