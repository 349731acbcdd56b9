/**
 * Completion: kubelet flags after `--` in command lines and env files, and
 * KubeletConfiguration keys, enum values, reservable resources and eviction
 * signals in config files. The context comes from the parse structures; the
 * word being typed is read from the engine's logical values (never from raw text).
 */
import { CompletionItemKind, CompletionItemTag, InsertTextFormat, MarkupKind, type CompletionItem, type Position, type Range } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import { EVICTION_SIGNALS, RESERVABLE_RESOURCES } from '../catalog/defaults.ts';
import { FEATURE_GATES, gateAt } from '../catalog/feature-gates.ts';
import { fieldInfo, topLevelFields } from '../catalog/fields.ts';
import { FLAGS, NEWEST_VERSION, compareVersions, flagStatusAt } from '../catalog/flags.ts';
import type { TextMap } from '../model/range.ts';
import type { KubeletConfigDoc, MapEntry, PlatformInfo } from '../parse/types.ts';
import { KUBELET_SIGNALS, fieldSnippet } from './field-snippet.ts';
import { platformOf } from '../registry.ts';
import { flagValueItems } from './completion-values.ts';
import { extraArgItems } from './completion-extra-args.ts';
import { flagArgItems } from './completion-args.ts';
import { offeredFlag } from './flag-offer.ts';
import { assignmentAt, configAt, contains, directiveAt, enclosingRootEntry, nodeOf, offsetIn, parsedFile } from './locate.ts';

const FLAG_KEYS = new Set(['ExecStart', 'Environment']);

export interface CompletionOptions {
  /** The client takes snippets (completionItem.snippetSupport): new config keys come with their value's shape. */
  snippets?: boolean;
}

export function completion(analysis: Analysis, path: string, pos: Position, kubernetesVersion?: string, opts: CompletionOptions = {}): CompletionItem[] {
  const file = parsedFile(analysis, path);
  if (!file) return [];
  const version = nodeOf(analysis, path)?.node.kubernetesVersion ?? kubernetesVersion ?? NEWEST_VERSION;
  const flags = nodeOf(analysis, path)?.node.flags;
  const present = (name: string) => !!flags?.some((f) => f.name === name);

  const d = directiveAt(file, pos);
  if (d && FLAG_KEYS.has(d.key)) {
    const items = flagItems(d.value, d.valueMap, pos, version, present);
    const next = file.unit?.directives.find((x) => x.keySpan.range.start.line === d.lastLine + 1);
    // Typing on the last line of a continued ExecStart= above more flag lines (`--max-pods=2` read as a directive
    // of its own): the new flag's line needs its `\` so the lines below stay part of the command.
    if (pos.line === d.lastLine && next && next.key.startsWith('-')) {
      const end = d.span.range.end;
      const atEnd = pos.line === end.line && pos.character === end.character;
      for (const it of items) {
        if (!it.label.startsWith('--') || !it.textEdit || !('range' in it.textEdit)) continue;
        // At the end of the line an extra edit would touch the completion's own; a snippet puts the cursor before the `\`.
        if (atEnd && opts.snippets) {
          it.textEdit.newText += '$0 \\\\';
          it.insertTextFormat = InsertTextFormat.Snippet;
        } else it.additionalTextEdits = [{ range: { start: end, end }, newText: ' \\' }];
      }
    }
    return items;
  }
  const a = assignmentAt(file, pos);
  if (a) return flagItems(a.value, a.valueMap, pos, version, present);
  // Flags written as YAML (Talos extraArgs, k3s kubelet-arg, nodeadm kubelet.flags; kubeadm and Cluster API values).
  const args = flagArgItems(file, pos, version);
  if (args) return args;
  const extra = extraArgItems(file, pos, version);
  if (extra) return extra;
  if (file.kind === 'kubelet-config' || file.config?.kubeletConfigs.length || file.config?.blocks?.length) return configItems(analysis, path, pos, !!opts.snippets);
  return [];
}

/** The `--name` prefix being typed at `pos` inside a mapped value. */
function flagPrefix(value: string, map: TextMap, pos: Position): { prefix: string; range: Range } | undefined {
  const off = offsetIn(map, pos);
  if (off === undefined) return undefined;
  const m = /(?:^|[\s"'=])(--?)([A-Za-z0-9_-]*)$/.exec(value.slice(0, off));
  if (!m) return undefined;
  const len = m[1].length + m[2].length;
  return { prefix: m[2], range: { start: map.position(off - len), end: pos } };
}

function flagItems(value: string, map: TextMap, pos: Position, version: string, present: (flag: string) => boolean): CompletionItem[] {
  const off = offsetIn(map, pos);
  const values = off === undefined ? undefined : flagValueItems(value, map, off, pos, version);
  if (values) return values;
  const at = flagPrefix(value, map, pos);
  if (!at) return [];
  const out: CompletionItem[] = [];
  for (const f of FLAGS) {
    const status = flagStatusAt(f, version);
    if (status === 'removed' || !offeredFlag(f.name, present)) continue;
    const bare = f.syntax.type === 'bool';
    out.push({
      label: `--${f.name}`,
      kind: CompletionItemKind.Property,
      detail: f.syntaxText + (status === 'deprecated' ? ` (deprecated${f.replacement ? `; use ${f.replacement}` : ''})` : ''),
      documentation: { kind: MarkupKind.Markdown, value: f.description },
      // Struck through only when the flag's removal is scheduled; one that merely has a config field keeps working.
      tags: status === 'deprecated' && f.removedIn ? [CompletionItemTag.Deprecated] : undefined,
      sortText: (status === 'deprecated' ? '1' : '0') + f.name,
      filterText: `--${f.name}`,
      textEdit: { range: at.range, newText: bare ? `--${f.name}` : `--${f.name}=` },
      data: { flag: f.name },
    });
  }
  return out;
}

function valueItems(values: readonly string[], range: Range | undefined, pos: Position, kind: CompletionItemKind, doc?: (v: string) => string | undefined): CompletionItem[] {
  const r = range ?? { start: pos, end: pos };
  return values.map((v) => ({
    label: v === '' ? '""' : v,
    kind,
    documentation: doc?.(v),
    textEdit: { range: r, newText: v === '' ? '""' : v },
  }));
}

function keyItems(
  keys: readonly string[], range: Range | undefined, pos: Position, doc: (k: string) => string | undefined, colon: boolean,
  snippet?: (k: string) => string | undefined,
): CompletionItem[] {
  const r = range ?? { start: pos, end: pos };
  return keys.map((k) => {
    const body = colon ? snippet?.(k) : undefined;
    return {
      label: k,
      kind: CompletionItemKind.Field,
      documentation: doc(k) ? { kind: MarkupKind.Markdown, value: doc(k)! } : undefined,
      textEdit: { range: r, newText: body ?? (colon ? `${k}: ` : k) },
      insertTextFormat: body ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    };
  });
}

/**
 * Snippets for top-level fields of a YAML document (JSON keys are quoted, so they get none); a platform's own field
 * (kops's `evictionHard` flag string) gets none either: the kubelet's shape would be wrong there.
 */
function topLevelSnippet(snippets: boolean, format: 'yaml' | 'json' | 'toml' | undefined, acc: Accepts): ((k: string) => string | undefined) | undefined {
  if (!snippets || format !== 'yaml') return undefined;
  return (k) => {
    const info = acc.shaped(k) ? fieldInfo(k) : undefined;
    return info ? fieldSnippet(info, acc.signals) : undefined;
  };
}

/** A bare key being typed (`cgroupD` with no colon yet) gets `: ` appended. */
function needsColon(e: MapEntry | undefined): boolean {
  if (!e || e.value.kind !== 'scalar' || e.value.value !== null) return false;
  const a = e.value.span.range.start;
  const b = e.keySpan.range.end;
  return a.line === b.line && a.character <= b.character;
}

/**
 * The range the key being typed replaces. A bare word typed on a new line above another key (`me` above
 * `kubeReserved:`) is read by YAML as one implicit key over both lines ("me kubeReserved", an error): the word
 * is only the part on the cursor's line up to the cursor, and it needs its own `: ` (the colon is the next key's).
 * An editor drops an item whose range spans lines, so the whole key's range would offer nothing.
 */
function typedKey(e: MapEntry | undefined, pos: Position): { range: Range | undefined; colon: boolean } {
  const r = e?.keySpan.range;
  if (!r || r.start.line === r.end.line) return { range: r, colon: false };
  return { range: r.start.line === pos.line ? { start: r.start, end: pos } : undefined, colon: true };
}

const signalDoc = (s: string) => EVICTION_SIGNALS.find((e) => e.signal === s)?.note;

/**
 * What a block of kubelet settings takes. A KubeletConfiguration file, or a fragment a platform tool merges (Talos
 * extraConfig, nodeadm kubelet.config, eksctl kubeletExtraConfig): every field a kubelet of this version decodes, less
 * the fields the tool refuses (rules/platform-setting-refused.ts). A tool that reads only some names, or its own
 * (PlatformInfo.keys: Karpenter's typed fields, kops's names): those, and only those.
 */
interface Accepts {
  fields: readonly string[];
  /** Whether the value of top-level field `k` has the KubeletConfiguration field's shape (snippet, map keys, enum values). */
  shaped: (k: string) => boolean;
  doc: (k: string) => string | undefined;
  /** The eviction signals of its eviction maps. */
  signals: readonly string[];
}

/** Top-level fields a platform refuses in its KubeletConfiguration fragment (its PlatformSemantics.refused): never offered. */
function refusedFields(platform: PlatformInfo): ReadonlySet<string> {
  return new Set((platformOf(platform.tool)?.refused?.(platform) ?? []).map((r) => r.field).filter((f) => !f.includes('.')));
}

function acceptsOf(file: ReturnType<typeof parsedFile>, version: string): Accepts {
  const platform = file?.config?.platform;
  const keys = platform?.keys;
  if (!platform || !keys) {
    const refused = platform ? refusedFields(platform) : undefined;
    return { fields: fieldsAt(version, file).filter((k) => !refused?.has(k)), shaped: () => true, doc: (k) => fieldInfo(k)?.description, signals: KUBELET_SIGNALS };
  }
  const shaped = new Set(keys.kubeletShaped ?? keys.fields);
  const doc = (k: string): string | undefined => {
    const flag = keys.flags?.[k];
    if (!flag) return fieldInfo(k)?.description;
    const f = FLAGS.find((x) => x.name === flag);
    const form = shaped.has(k) ? '' : `, written as the flag's value${f ? ` (${f.syntaxText})` : ''}`;
    return `${platformOf(platform.tool)?.name ?? platform.tool} passes it to the kubelet as \`--${flag}\`${form}.${f ? `\n\n${f.description}` : ''}`;
  };
  return { fields: keys.fields, shaped: (k) => shaped.has(k), doc, signals: keys.signals ?? KUBELET_SIGNALS };
}

/** The top-level field a dotted path lies under. */
const rootOf = (field: string) => field.split('.')[0].replace(/\[\]$/, '');

/** Gates a kubelet of this version knows, with their stage and default, for completion inside featureGates. */
function gateKeys(version: string): { names: string[]; doc: (k: string) => string | undefined } {
  const known = new Map<string, string>();
  for (const g of FEATURE_GATES) {
    const st = gateAt(g.name, version);
    if (st.status === 'known') known.set(g.name, `${st.spec.stage}, default ${st.spec.default}${st.spec.locked ? ', locked' : ''}${g.description ? ` — ${g.description}` : ''}`);
  }
  return { names: [...known.keys()].sort(), doc: (k) => known.get(k) };
}

const MAP_FIELDS = new Set(['featureGates', 'kubeReserved', 'systemReserved', 'evictionHard', 'evictionSoft', 'evictionSoftGracePeriod', 'evictionMinimumReclaim']);

/**
 * Completions for what belongs inside a field's value (map keys or list items); `used`: keys the map already has,
 * which are not offered again.
 */
function insideField(
  field: string, range: Range | undefined, pos: Position, asKey: boolean, version: string, acc: Accepts, used: ReadonlySet<string> = new Set(),
): CompletionItem[] {
  if (!acc.shaped(rootOf(field))) return [];
  const fresh = (keys: readonly string[]) => keys.filter((k) => !used.has(k));
  if (field === 'featureGates') {
    const g = gateKeys(version);
    return keyItems(fresh(g.names), range, pos, g.doc, asKey);
  }
  if (field === 'kubeReserved' || field === 'systemReserved') {
    return keyItems(fresh([...RESERVABLE_RESOURCES]), range, pos, () => undefined, asKey);
  }
  if (field === 'evictionHard' || field === 'evictionSoft' || field === 'evictionSoftGracePeriod' || field === 'evictionMinimumReclaim') {
    return keyItems(fresh(acc.signals), range, pos, signalDoc, asKey);
  }
  const info = fieldInfo(field);
  if (info?.valueKind === 'list-string' && info.enumValues) return valueItems(info.enumValues, range, pos, CompletionItemKind.EnumMember);
  return [];
}

/**
 * Top-level fields a kubelet of this version decodes (mergeDefaultEvictionSettings only from 1.33). A fragment in a
 * platform file (Talos extraConfig, nodeadm kubelet.config) gets no apiVersion or kind: the tool writes them.
 */
function fieldsAt(version: string, file?: ReturnType<typeof parsedFile>): string[] {
  const platform = !!file?.config?.platform;
  return topLevelFields()
    .filter((f) => (!f.since || compareVersions(f.since, version) <= 0) && !(platform && (f.path === 'apiVersion' || f.path === 'kind')))
    .map((f) => f.path);
}

function configItems(analysis: Analysis, path: string, pos: Position, snippets: boolean): CompletionItem[] {
  const file = parsedFile(analysis, path);
  // Bottlerocket TOML names fields in its own kebab-case keys: kubelet field names would be wrong there.
  if (file?.config?.kubeletConfigs.some((d) => d.format === 'toml')) return [];
  const version = nodeOf(analysis, path)?.node.kubernetesVersion ?? NEWEST_VERSION;
  const acc = acceptsOf(file, version);
  // kops: its blocks as written, with the keys that are not KubeletConfiguration fields (blocks, parse/types.ts).
  const docs: readonly KubeletConfigDoc[] = file?.config?.blocks ?? file?.config?.kubeletConfigs ?? [];
  const hit = configAt(file, pos, docs);
  if (hit) {
    const typed = typedKey(hit.entry, pos);
    if (hit.on === 'key' && hit.parent === '') {
      const snippet = topLevelSnippet(snippets, hit.doc.format, acc);
      // The key being typed is offered (it may already be complete); the document's other keys are not, again.
      const used = new Set(hit.doc.root.entries.filter((e) => e !== hit.entry).map((e) => e.key));
      const keys = acc.fields.filter((k) => !used.has(k));
      return keyItems(keys, typed.range, pos, acc.doc, typed.colon || needsColon(hit.entry), snippet);
    }
    if (hit.on === 'key') return insideField(hit.parent, typed.range, pos, typed.colon, version, acc, siblingKeys(hit.doc.root.entries, hit.parent, hit.entry));
    const range = hit.scalar && hit.scalar.value !== null ? hit.scalar.span.range : undefined;
    // The first entry being typed under a map field (`featureGates:` then `  AllAl` on the next line) is read as
    // the field's scalar value: complete it as a key.
    if (hit.on === 'value' && hit.parent === '' && MAP_FIELDS.has(hit.field) && hit.scalar && hit.entry && hit.scalar.span.range.start.line > hit.entry.keySpan.range.start.line) {
      return insideField(hit.field, range, pos, true, version, acc);
    }
    if (hit.on === 'item') return insideField(hit.field, range, pos, false, version, acc);
    const info = acc.shaped(rootOf(hit.field)) ? fieldInfo(hit.field) : undefined;
    if (info?.enumValues && info.valueKind !== 'list-string') return valueItems(info.enumValues, range, pos, CompletionItemKind.EnumMember);
    return [];
  }
  const enclosing = enclosingRootEntry(file, pos, docs);
  if (!enclosing) return [];
  if (!enclosing.entry) {
    const used = new Set(enclosing.doc.root.entries.map((e) => e.key));
    return keyItems(acc.fields.filter((k) => !used.has(k)), undefined, pos, acc.doc, true, topLevelSnippet(snippets, enclosing.doc.format, acc));
  }
  const e = enclosing.entry;
  const used = new Set(e.value.kind === 'map' ? e.value.entries.map((x) => x.key) : []);
  // Inside a flow map on the key's line (`kubeReserved: {cpu: 500m, |}`, `,` triggers it): the next key.
  if (enclosing.doc.format === 'yaml' && MAP_FIELDS.has(e.key) && e.value.kind === 'map' && contains(e.value.span.range, pos) && e.value.span.range.start.line === pos.line) {
    return insideField(e.key, undefined, pos, true, version, acc, used);
  }
  // Cursor after `key: ` on the key's own line: value completion.
  if (e.keySpan.range.start.line === pos.line) {
    const info = acc.shaped(e.key) ? fieldInfo(e.key) : undefined;
    if (info?.enumValues && info.valueKind !== 'list-string') return valueItems(info.enumValues, undefined, pos, CompletionItemKind.EnumMember);
    return [];
  }
  return insideField(e.key, undefined, pos, true, version, acc, used);
}

/** Keys of the map at dotted path `parent` other than `self`. */
function siblingKeys(root: readonly MapEntry[], parent: string, self: MapEntry | undefined): Set<string> {
  let entries: readonly MapEntry[] = root;
  for (const k of parent.split('.')) {
    const v = entries.find((e) => e.key === k)?.value;
    if (v?.kind !== 'map') return new Set();
    entries = v.entries;
  }
  return new Set(entries.filter((e) => e !== self).map((e) => e.key));
}
