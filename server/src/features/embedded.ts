/**
 * Editor features inside a carrier's payloads (embed/payload.ts): the position is moved into the payload, the
 * feature runs on the payload as on any file, and the ranges it answers are moved back to the carrier. Text a
 * completion inserts is written for the carrier (re-indented, re-escaped); an item whose text the carrier cannot
 * hold is left out.
 */
import type { CodeAction, CodeLens, CompletionItem, Hover, InlayHint, Position, Range } from 'vscode-languageserver-types';
import { codeLenses } from './code-lens.ts';
import type { Analysis } from '../engine.ts';
import { carrierOf, hostOffset, offsetAt, payloadOffset, payloadPath, type Payload } from '../embed/payload.ts';
import { editToHost, rangeToHost, textToHost, type PayloadOf } from '../embed/to-host.ts';
import { CodeActionKind } from 'vscode-languageserver-types';
import { refactorActions, wanted } from './code-actions.ts';
import { refactorsAt, type PlainEdit } from './refactors/index.ts';
import { completion } from './completion.ts';
import { hover } from './hover.ts';
import { inlayHints } from './inlay-hints.ts';
import { before } from './locate.ts';

interface At {
  path: string;
  payload: Payload;
  pos: Position;
}

/** The analysed payload of carrier `path` that holds `pos`, and the position in it. */
export function payloadAt(analysis: Analysis, path: string, pos: Position): At | undefined {
  for (const [vp, payload] of payloadsIn(analysis, path)) {
    if (!analysis.files.has(vp)) continue;
    const o = payloadOffset(payload.map, offsetAt(payload.map.host, pos));
    if (o !== undefined) return { path: vp, payload, pos: payload.lines.position(o) };
  }
  return undefined;
}

export function hoverAt(analysis: Analysis, path: string, pos: Position): Hover | null {
  const at = payloadAt(analysis, path, pos);
  if (!at) return hover(analysis, path, pos);
  const h = hover(analysis, at.path, at.pos);
  if (!h) return h;
  const lookup = payloadOf(analysis);
  const contents = typeof h.contents === 'object' && 'kind' in h.contents ? { ...h.contents, value: textToHost(h.contents.value, lookup) } : h.contents;
  return { ...h, contents, ...(h.range ? { range: rangeToHost(at.payload, h.range) } : {}) };
}

export function completionAt(analysis: Analysis, path: string, pos: Position, kubernetesVersion?: string, opts?: { snippets?: boolean }): CompletionItem[] {
  const at = payloadAt(analysis, path, pos);
  if (!at) return completion(analysis, path, pos, kubernetesVersion, opts);
  const out: CompletionItem[] = [];
  for (const item of completion(analysis, at.path, at.pos, kubernetesVersion, opts)) {
    const te = item.textEdit;
    if (!te || !('range' in te)) {
      out.push(item);
      continue;
    }
    const range = rangeToHost(at.payload, te.range);
    const newText = at.payload.map.encode(te.newText, hostOffset(at.payload.map, offsetAt(at.payload.lines, te.range.start)));
    if (newText !== undefined) out.push({ ...item, textEdit: { range, newText } });
  }
  return out;
}

export function inlayHintsIn(analysis: Analysis, path: string, range: Range, typing?: { start: number; end: number }): InlayHint[] {
  const out = inlayHints(analysis, path, range, typing);
  const payloads = payloadsIn(analysis, path);
  // A payload's findings are reported in the carrier: its broken lines are the carrier's lines with an error.
  const broken = new Set<number>();
  if (payloads.length) for (const f of analysis.findings) if (f.file === path && f.severity === 'error') broken.add(f.range.start.line);
  for (const [vp, payload] of payloads) {
    if (!analysis.files.has(vp)) continue;
    const all = { start: { line: 0, character: 0 }, end: { line: payload.lines.lineCount, character: 0 } };
    for (const h of inlayHints(analysis, vp, all)) {
      const position = rangeToHost(payload, { start: h.position, end: h.position }).start;
      const typed = typing && position.line >= typing.start && position.line <= typing.end;
      if (!typed && !broken.has(position.line) && !before(position, range.start) && !before(range.end, position)) out.push({ ...h, position });
    }
  }
  return out;
}

/** Code lenses of the payloads too, at their lines; they open the carrier's effective configuration. */
export function codeLensesIn(analysis: Analysis, path: string, uri: string): CodeLens[] {
  const out = codeLenses(analysis, path, uri);
  for (const [vp, payload] of payloadsIn(analysis, path)) {
    if (analysis.files.has(vp)) for (const l of codeLenses(analysis, vp, uri)) out.push({ ...l, range: rangeToHost(payload, l.range) });
  }
  return out;
}

/** The payload at a workspace path of this analysis, with its carrier. */
function payloadOf(analysis: Analysis): PayloadOf {
  return (path) => {
    const known = analysis.payloads?.get(path);
    if (known) return known;
    const host = carrierOf(path);
    const payload = host === undefined ? undefined : analysis.files.get(host)?.embedded?.find((p) => payloadPath(host, p.target) === path);
    return payload && { host: host!, payload };
  };
}

/** The payloads that lie in carrier `path` (payloads of its payloads too), by workspace path. */
function payloadsIn(analysis: Analysis, path: string): [string, Payload][] {
  if (analysis.payloads) return [...analysis.payloads].filter(([, p]) => p.host === path).map(([vp, p]) => [vp, p.payload]);
  return (analysis.files.get(path)?.embedded ?? []).map((p) => [payloadPath(path, p.target), p]);
}

/** Refactors inside a payload: offered only when every edit can be written into the carrier. */
export function refactorActionsAt(
  analysis: Analysis,
  path: string,
  range: Range,
  toUri: (path: string) => string,
  only?: readonly string[],
  safe: (edits: readonly PlainEdit[], creates?: readonly { path: string; text: string }[]) => boolean = () => true,
): CodeAction[] {
  const at = payloadAt(analysis, path, range.start);
  if (!at) return refactorActions(analysis, path, range, toUri, only, safe);
  const end = payloadAt(analysis, path, range.end);
  const inPayload = { start: at.pos, end: end?.path === at.path ? end.pos : at.pos };
  if (!wanted(CodeActionKind.RefactorRewrite, only)) return [];
  const lookup = payloadOf(analysis);
  const out: CodeAction[] = [];
  for (const r of refactorsAt(analysis, at.path, inPayload)) {
    // A payload cannot gain a file of its own; an unavailable refactor still says why.
    if (r.creates?.length) continue;
    if (r.disabled) {
      out.push({ title: r.title, kind: r.kind, disabled: { reason: r.disabled } });
      continue;
    }
    const edits = r.edits.map((e) => editToHost({ file: e.path, range: e.range, newText: e.newText }, lookup));
    if (edits.some((e) => e === undefined)) continue;
    if (!safe(edits.map((e) => ({ path: e!.file, range: e!.range, newText: e!.newText })))) continue;
    const changes: Record<string, { range: Range; newText: string }[]> = {};
    for (const e of edits) (changes[toUri(e!.file)] ??= []).push({ range: e!.range, newText: e!.newText });
    out.push({ title: r.title, kind: r.kind, edit: { changes } });
  }
  return out;
}
