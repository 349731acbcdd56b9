/**
 * Completion where a platform file writes kubelet flags as YAML: Talos `extraArgs` (a map of names), k3s/RKE2
 * `kubelet-arg` and nodeadm `kubelet.flags` (lists of `name=value`), and the values of kubeadm and Cluster API
 * `kubeletExtraArgs` (their names are completion-extra-args.ts's). In a value, after `=` or `,`, the flag's values
 * (completion-values.ts, as on a command line); on a name, the flag names, replacing the whole name typed so far
 * (an editor's own word stops at `-`). The typed text comes from the parse tree's scalars and their spans.
 */
import { CompletionItemKind, CompletionItemTag, MarkupKind, type CompletionItem, type Position, type Range } from 'vscode-languageserver-types';
import { FLAGS, flagStatusAt } from '../catalog/flags.ts';
import { TextMap } from '../model/range.ts';
import type { ParsedFile } from '../node/parse-files.ts';
import type { ConfigNode, MapEntry, MapNode, ScalarNode } from '../parse/types.ts';
import { flagValueItems } from './completion-values.ts';
import { offeredFlag } from './flag-offer.ts';
import { contains } from './locate.ts';

/** Undefined when `pos` is in no flag map or list of the file. */
export function flagArgItems(file: ParsedFile | undefined, pos: Position, version: string): CompletionItem[] | undefined {
  const cfg = file?.config;
  if (!cfg) return undefined;
  for (const k of cfg.kubeadm) {
    const n = k.kubeletExtraArgsNode;
    if (!n) continue;
    const v = n.value;
    if (!n.list && v.kind === 'map') {
      const hit = inMapValue(file.path, v, pos, version);
      if (hit) return hit;
    }
    if (n.list && v.kind === 'seq') {
      for (const item of v.items) {
        if (item.kind !== 'map') continue;
        const name = item.entries.find((e) => e.key === 'name')?.value;
        const value = item.entries.find((e) => e.key === 'value');
        if (name?.kind !== 'scalar' || name.value === null || !value) continue;
        const hit = valueOfEntry(file!.path, String(name.value), value, pos, version);
        if (hit) return hit;
      }
    }
  }
  const platform = cfg.platform;
  for (const a of platform?.args ?? []) {
    const n = a.node;
    if (!n || pos.line < a.span.range.start.line || pos.line > a.span.range.end.line) continue;
    if (a.style === 'map') return mapItems(file.path, n, pos, version);
    return listItems(file.path, n, pos, version, a.bare === true);
  }
  return undefined;
}

// ---------- a map of names (Talos extraArgs; kubeadm v1beta3 kubeletExtraArgs values) ----------

function mapItems(path: string, n: ConfigNode, pos: Position, version: string): CompletionItem[] {
  // The first name typed, with no colon yet, is read as the map's string (`extraArgs:` then `eviction-h`).
  if (n.kind === 'scalar') {
    const r = n.span.range;
    return r.start.line === r.end.line && contains(r, pos) ? nameItems(version, new Set(), r, (f) => `${f}: `) : [];
  }
  if (n.kind !== 'map') return [];
  const inValue = inMapValue(path, n, pos, version);
  if (inValue) return inValue;
  const used = (self?: MapEntry) => new Set(n.entries.filter((e) => e !== self).map((e) => e.key));
  for (const e of n.entries) {
    const r = e.keySpan.range;
    if (!contains(r, pos)) continue;
    if (r.start.line === r.end.line) return nameItems(version, used(e), r, (f) => (bare(e) ? `${f}: ` : f));
    // A name typed above another entry is read as one key over both lines ("eviction-h cgroup-driver"): the name
    // is the part on the cursor's line up to the cursor, and it needs its own `: ` (an editor drops a range over lines).
    return pos.line === r.start.line ? nameItems(version, used(e), { start: r.start, end: pos }, (f) => `${f}: `) : [];
  }
  // A line of its own inside the map: a new entry.
  if (n.entries.some((e) => e.keySpan.range.start.line === pos.line || e.value.span.range.start.line === pos.line)) return [];
  return nameItems(version, used(), { start: pos, end: pos }, (f) => `${f}: `);
}

/** The value of one of the map's entries at `pos`: that flag's values. */
function inMapValue(path: string, m: MapNode, pos: Position, version: string): CompletionItem[] | undefined {
  for (const e of m.entries) {
    const hit = valueOfEntry(path, e.key, e, pos, version);
    if (hit) return hit;
  }
  return undefined;
}

function valueOfEntry(path: string, name: string, e: MapEntry, pos: Position, version: string): CompletionItem[] | undefined {
  const v = e.value;
  const keyEnd = e.keySpan.range.end;
  if (v.kind === 'scalar' && v.value === null) {
    // `name: ` with nothing typed yet: the value starts at the cursor.
    const onKeyLine = pos.line === keyEnd.line && pos.character > keyEnd.character && v.span.range.start.line === pos.line;
    return onKeyLine ? values(path, name, '', pos, pos, version) : undefined;
  }
  for (const s of v.kind === 'scalar' ? [v] : v.kind === 'seq' ? v.items : []) {
    if (s.kind !== 'scalar') continue;
    const typed = typedIn(s, pos);
    if (typed) return values(path, name, typed.text, typed.start, pos, version);
  }
  return undefined;
}

// ---------- a list of `name=value` (PlatformInfo.args style list: k3s kubelet-arg, nodeadm kubelet.flags) ----------

function listItems(path: string, n: ConfigNode, pos: Position, version: string, bare: boolean): CompletionItem[] {
  const items = n.kind === 'seq' ? n.items : n.kind === 'scalar' ? [n] : [];
  for (const it of items) {
    if (it.kind !== 'scalar') continue;
    const typed = typedIn(it, pos);
    if (!typed) continue;
    const eq = typed.text.indexOf('=');
    if (eq >= 0) {
      const name = typed.text.slice(0, eq).replace(/^--?/, '');
      return values(path, name, typed.text.slice(eq + 1), { line: pos.line, character: typed.start.character + eq + 1 }, pos, version);
    }
    const siblings = items.filter((x): x is ScalarNode => x !== it && x.kind === 'scalar' && typeof x.value === 'string' && x.source !== '');
    const used = new Set(siblings.map((x) => x.source.replace(/^--?/, '').split('=')[0]));
    // k3s takes an item with or without its leading `--` (parse/k3s.ts): follow the list's own style, and the
    // k3s docs' (no dashes) when it has none yet. nodeadm passes the items verbatim: always `--`.
    const typedDashes = typed.text.startsWith('-');
    const dashes = typedDashes || !bare || siblings.some((x) => x.source.startsWith('-')) ? '--' : '';
    // The whole name is replaced, up to a `=` already written (which is kept, not doubled).
    const written = it.source.indexOf('=');
    const range = { start: typed.start, end: { line: pos.line, character: typed.start.character + (written < 0 ? it.source.length : written) } };
    return nameItems(version, used, range, (f) => `${dashes}${f}${written < 0 ? '=' : ''}`, (f) => (typedDashes ? `--${f}` : f));
  }
  return [];
}

// ---------- shared ----------

/** The text of a one-line scalar before the cursor, and where the scalar's text starts (after a quote). */
function typedIn(s: ScalarNode, pos: Position): { text: string; start: Position } | undefined {
  const r = s.span.range;
  if (r.start.line !== r.end.line || pos.line !== r.start.line) return undefined;
  const width = r.end.character - r.start.character;
  // Only a scalar whose characters are its source's, one for one (no escapes, no folded lines).
  const quote = width === s.source.length + 2 ? 1 : width === s.source.length ? 0 : -1;
  if (quote < 0) return undefined;
  const start = { line: r.start.line, character: r.start.character + quote };
  const at = pos.character - start.character;
  if (at < 0 || at > s.source.length) return undefined;
  return { text: s.source.slice(0, at), start };
}

/** A flag's values after `typed` (the text of its value up to the cursor, starting at `at`). */
function values(path: string, name: string, typed: string, at: Position, pos: Position, version: string): CompletionItem[] {
  const prefix = `--${name}=`;
  const map = new TextMap(path, [{ offset: prefix.length, line: at.line, character: at.character, length: typed.length }]);
  return flagValueItems(prefix + typed, map, prefix.length + typed.length, pos, version) ?? [];
}

/** A key typed with nothing after it yet (`cgroup-dr` alone on its line): the completion adds `: `. */
function bare(e: MapEntry): boolean {
  const v = e.value;
  const k = e.keySpan.range;
  return v.kind === 'scalar' && v.value === null && v.span.range.start.line === k.start.line && v.span.range.start.character <= k.end.character;
}

export function nameItems(
  version: string, used: ReadonlySet<string>, range: Range, text: (flag: string) => string, filter: (flag: string) => string = (f) => f,
): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const f of FLAGS) {
    const status = flagStatusAt(f, version);
    if (status === 'removed' || used.has(f.name) || !offeredFlag(f.name, (x) => used.has(x))) continue;
    out.push({
      label: f.name,
      kind: CompletionItemKind.Property,
      detail: f.syntaxText + (status === 'deprecated' ? ' (deprecated)' : ''),
      documentation: { kind: MarkupKind.Markdown, value: f.description },
      tags: status === 'deprecated' && f.removedIn ? [CompletionItemTag.Deprecated] : undefined,
      sortText: (status === 'deprecated' ? '1' : '0') + f.name,
      // The whole name typed so far is what the client filters on and what the item replaces.
      filterText: filter(f.name),
      textEdit: { range, newText: text(f.name) },
      data: { flag: f.name },
    });
  }
  return out;
}
