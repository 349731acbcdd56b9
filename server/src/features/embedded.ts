/**
 * Editor features inside a carrier's payloads (embed/payload.ts): the position is moved into the payload, the
 * feature runs on the payload as on any file, and the ranges it answers are moved back to the carrier. Text a
 * completion inserts is written for the carrier (re-indented, re-escaped); an item whose text the carrier cannot
 * hold is left out.
 */
import type { CodeAction, CodeLens, CompletionItem, DocumentLink, Hover, InlayHint, Location, Position, Range } from 'vscode-languageserver-types';
import { codeLenses } from './code-lens.ts';
import type { Analysis } from '../engine.ts';
import { hostOffset, offsetAt, payloadOffset, payloadPath, readablePath, type Payload } from '../embed/payload.ts';
import type { LineIndex } from '../model/range.ts';
import { editToHost, rangeToHost, readableText, type PayloadOf } from '../embed/to-host.ts';
import { CodeActionKind } from 'vscode-languageserver-types';
import { refactorActions, wanted } from './code-actions.ts';
import { refactorsAt, type PlainEdit } from './refactors/index.ts';
import { completion } from './completion.ts';
import { hover } from './hover.ts';
import { inlayHints } from './inlay-hints.ts';
import { before, payloadOf } from './locate.ts';
import { definition, documentLinks } from './links.ts';

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

/**
 * The innermost analysed payload of carrier `path` that holds `pos` (a script's here-document rather than the script,
 * both named with the outer file as their host), and the position in it.
 */
export function innermostPayloadAt(analysis: Analysis, path: string, pos: Position): At | undefined {
  let best: At | undefined;
  let depth = -1;
  for (const [vp, payload] of payloadsIn(analysis, path)) {
    if (!analysis.files.has(vp)) continue;
    const o = payloadOffset(payload.map, offsetAt(payload.map.host, pos));
    if (o === undefined) continue;
    const d = vp.split('//').length;
    if (d > depth) {
      best = { path: vp, payload, pos: payload.lines.position(o) };
      depth = d;
    }
  }
  return best;
}

export function hoverAt(analysis: Analysis, path: string, pos: Position): Hover | null {
  const at = payloadAt(analysis, path, pos);
  const h = at ? hover(analysis, at.path, at.pos) : hover(analysis, path, pos);
  if (!h) return h;
  // Places and paths in payloads, as the user reads them (a hover in a plain file may cite a payload too).
  const lookup = payloadOf(analysis);
  const contents = typeof h.contents === 'object' && 'kind' in h.contents ? { ...h.contents, value: readableText(h.contents.value, lookup) } : h.contents;
  return { ...h, contents, ...(at && h.range ? { range: rangeToHost(at.payload, h.range) } : {}) };
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
  const lookup = payloadOf(analysis);
  for (const [vp, payload] of payloads) {
    if (!analysis.files.has(vp)) continue;
    const all = { start: { line: 0, character: 0 }, end: { line: payload.lines.lineCount, character: 0 } };
    for (const h of inlayHints(analysis, vp, all)) {
      const position = lineEndFor(payload.map.host, rangeToHost(payload, { start: h.position, end: h.position }).start);
      const typed = typing && position.line >= typing.start && position.line <= typing.end;
      const tooltip = typeof h.tooltip === 'string' ? { tooltip: readableText(h.tooltip, lookup) } : {};
      if (!typed && !broken.has(position.line) && !before(position, range.start) && !before(range.end, position)) out.push({ ...h, ...tooltip, position });
    }
  }
  return out;
}

/**
 * A payload's hint at the end of a carrier line, never inside the carrier's text: a payload's line is rarely the
 * carrier's whole line (a quoted string, a kind patch), and a header the carrier adds (a Karpenter spec.kubelet)
 * maps to the block's first key. A place with only blanks before it goes after the line above (after `kubelet:`).
 */
function lineEndFor(host: LineIndex, p: Position): Position {
  const text = host.lineText(p.line);
  if (p.line > 0 && text.slice(0, p.character).trim() === '') return { line: p.line - 1, character: host.lineText(p.line - 1).length };
  return { line: p.line, character: text.length };
}

/**
 * A place a link or definition leads to, for the editor: a payload is opened as its carrier, at the payload's line
 * there (a whole file: the payload's first line).
 */
function placeFor(lookup: PayloadOf, path: string, range: Range | undefined, toUri: (path: string) => string): { uri: string; range: Range } {
  const p = lookup(path);
  const start: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  if (!p) return { uri: toUri(path), range: range ?? start };
  return { uri: toUri(p.host), range: rangeToHost(p.payload, range ?? start) };
}

/**
 * Go to Definition inside a payload as in a file (EnvironmentFile=, --config=, --config-dir=, `$VAR`, the cgroup
 * driver), the places found moved to the carriers that hold them; the links.ts answers are asked with the
 * workspace paths as their URIs, so that a payload's path can be told from a file's.
 */
export function definitionIn(analysis: Analysis, path: string, pos: Position, toUri: (path: string) => string): Location[] {
  const at = payloadAt(analysis, path, pos);
  const found = at ? definition(analysis, at.path, at.pos, (p) => p) : definition(analysis, path, pos, (p) => p);
  const lookup = payloadOf(analysis);
  return found.map((l) => placeFor(lookup, l.uri, l.range, toUri));
}

/**
 * Document links of the payloads too, at their lines in the carrier. A link to a payload opens its carrier at the
 * payload's first line (a `#L<line>` fragment, which VS Code's opener selects).
 */
export function documentLinksIn(analysis: Analysis, path: string, toUri: (path: string) => string): DocumentLink[] {
  const lookup = payloadOf(analysis);
  const out: DocumentLink[] = [];
  const add = (links: DocumentLink[], payload?: Payload) => {
    for (const l of links) {
      const to = l.target!;
      const place = placeFor(lookup, to, undefined, toUri);
      const target = lookup(to) ? `${place.uri}#L${place.range.start.line + 1}` : place.uri;
      out.push({ range: payload ? rangeToHost(payload, l.range) : l.range, target, tooltip: `Open ${readablePath(to)}` });
    }
  };
  add(documentLinks(analysis, path, (p) => p));
  for (const [vp, payload] of payloadsIn(analysis, path)) if (analysis.files.has(vp)) add(documentLinks(analysis, vp, (p) => p), payload);
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
