/**
 * The kubelet's effective configuration: the config file (and --config-dir
 * drop-ins), then the command-line flags re-applied on top
 * (cmd/kubelet/app/server.go kubeletConfigFlagPrecedence), then defaults.
 *
 * - A map flag (MapStringString, LangleSeparatedMapStringString) clears the
 *   map on its first Set, so it replaces the file's whole map; repeating it
 *   accumulates keys.
 * - A list flag (pflag StringSlice) replaces on the first Set and appends after.
 * - Feature gates from the file and the flag are merged, the flag winning per gate.
 * - Scalars: the last flag wins.
 */
import type { Finding } from '../model/finding.ts';
import { finding } from '../model/finding.ts';
import type { Span } from '../model/range.ts';
import type { ConfigNode, KubeletConfigDoc } from '../parse/types.ts';
import { parseLangleMap, parseMapStringBool, parseMapStringString } from '../quantity/mapflag.ts';
import { valueSubSpan } from './command-line.ts';
import type { FlagUse, Item, PlatformReplaced, Provenance, Setting } from './model.ts';
import type { PlatformBase } from './platform.ts';
import type { TemplatePlaces } from './template.ts';

export interface ConfigSource {
  doc: KubeletConfigDoc;
  how: 'config' | 'config-dir';
  /** What the user's file calls the fragment when it is no drop-in on disk (OpenShift `spec.kubeletConfig`). */
  label?: string;
}

export function effectiveSettings(
  configs: readonly ConfigSource[],
  flags: readonly FlagUse[],
  base?: PlatformBase,
  places?: TemplatePlaces,
): { settings: Map<string, Setting>; flagOnly: Map<string, FlagUse>; shadowed: Map<string, Setting>; problems: Finding[]; replaced: PlatformReplaced[] } {
  const settings = new Map<string, Setting>();
  const shadowed = new Map<string, Setting>();
  const flagOnly = new Map<string, FlagUse>();
  const problems: Finding[] = [];
  const replaced: PlatformReplaced[] = [];
  // A platform whose config is the kubelet's --config and the user's a drop-in over it (nodeadm).
  if (base?.rule === 'merge-patch') for (const [k, v] of base.settings) settings.set(k, v);

  for (const { doc, how, label } of configs) {
    for (const e of doc.root.entries) {
      if (e.key === 'apiVersion' || e.key === 'kind') continue;
      const from: Provenance = label ? { how, span: e.keySpan, field: e.key, label } : { how, span: e.keySpan, field: e.key };
      const next = fromNode(e.value, from);
      const prev = settings.get(e.key);
      // --config-dir drop-ins are merged like a JSON merge patch: maps merge by key, the rest is replaced.
      if (how === 'config-dir' && prev?.kind === 'map' && next.kind === 'map') {
        settings.set(e.key, { kind: 'map', items: mergeItems(prev.items, next.items), from });
      } else settings.set(e.key, next);
    }
  }

  // A platform that fills the fields the user's config leaves unset (Talos): a map of the user's replaces its map.
  if (base?.rule === 'fill-unset') {
    for (const [k, v] of base.settings) {
      const cur = settings.get(k);
      if (!cur || (cur.kind === 'map' && cur.items.length === 0 && v.kind === 'map')) settings.set(k, v);
      else if (v.kind === 'map' && cur.kind === 'map') replaced.push({ field: k, base: v, by: cur });
    }
  }

  const seen = new Set<string>();
  // Repeated map and list flags (hundreds of --node-labels) accumulate: each field keeps the item lists given since
  // its last reset and they are merged once at the end, in O(n), to what merging them flag by flag gives.
  const pending = new Map<string, Pending>();
  for (const f of flags) {
    const info = f.info;
    if (!info) continue;
    if (!info.field) {
      flagOnly.set(f.name, f);
      continue;
    }
    const from = new FlagProvenance(f, info.field);
    const first = !seen.has(f.name);
    seen.add(f.name);
    const before = settings.get(info.field);
    if (before && (before.from.how === 'config' || before.from.how === 'config-dir') && !shadowed.has(info.field)) {
      shadowed.set(info.field, before);
    }
    const syn = info.syntax;
    if (syn.type === 'map' && first && before?.kind === 'map' && before.from.how === 'platform' && f.name !== 'feature-gates') {
      replaced.push({ field: info.field, base: before, by: before });
    }
    if (syn.type === 'map') {
      const items = mapItems(f, syn.form, syn.value === 'bool', from, problems);
      // A placeholder that writes more than one key or value (`--kube-reserved={{ kr }}`) leaves the whole map unknown.
      if (places && f.valueSpan && places.outside(f.valueSpan, items.flatMap((i) => [i.keySpan, i.valueSpan]))) {
        const text = f.value ?? '';
        settings.set(info.field, { kind: 'scalar', value: text, text, span: f.valueSpan, from, template: 'whole' });
        pending.delete(info.field);
        continue;
      }
      if (places) markItems(items, places);
      const prev = settings.get(info.field);
      let lists: Item[][];
      if (f.name === 'feature-gates') lists = continued(pending.get(info.field), prev, 'map', items, true);
      else if (first || prev?.kind !== 'map') lists = [items];
      else lists = continued(pending.get(info.field), prev, 'map', items, false);
      const set: Setting = { kind: 'map', items: lists.length === 1 && f.name !== 'feature-gates' ? items : PENDING, from };
      pending.set(info.field, { setting: set, lists });
      settings.set(info.field, set);
    } else if (syn.type === 'list') {
      const items = listItems(f, from);
      if (places) markItems(items, places);
      const prev = settings.get(info.field);
      const lists = first || prev?.kind !== 'list' ? [items] : continued(pending.get(info.field), prev, 'list', items, false);
      const set: Setting = { kind: 'list', items: lists.length === 1 ? items : PENDING, from };
      pending.set(info.field, { setting: set, lists });
      settings.set(info.field, set);
    } else {
      const text = f.value ?? 'true';
      const template = places?.of(f.valueSpan);
      settings.set(info.field, template ? { kind: 'scalar', value: text, text, span: f.valueSpan, from, template } : { kind: 'scalar', value: text, text, span: f.valueSpan, from });
    }
  }
  for (const [field, p] of pending) {
    const s = settings.get(field);
    if (s !== p.setting || (s.kind !== 'map' && s.kind !== 'list') || s.items !== PENDING) continue;
    settings.set(field, { kind: s.kind, items: s.kind === 'map' ? mergeLists(p.lists) : p.lists.flat(), from: s.from } as Setting);
  }
  // A flag that replaced a platform map: the user's side is what the flags made of it.
  for (const r of replaced) if (r.by === r.base) r.by = settings.get(r.field) ?? r.base;
  return { settings, flagOnly, shadowed, problems, replaced };
}

/** Where a flag's value came from; the flag's span is read when someone asks (most never are). */
class FlagProvenance implements Provenance {
  readonly how: Provenance['how'];
  readonly flag: string;
  readonly via: Provenance['via'];
  readonly label: string | undefined;
  constructor(
    private readonly use: FlagUse,
    readonly field: string | undefined,
  ) {
    this.how = use.from === 'kubeadm-extra-args' ? 'kubeadm-extra-args' : 'flag';
    this.flag = use.name;
    this.via = use.nameWord.via;
    this.label = use.argsLabel;
  }
  get span(): Span {
    return this.use.span;
  }
  toJSON(): Provenance {
    return { how: this.how, span: this.span, flag: this.flag, via: this.via, field: this.field, label: this.label };
  }
}

/** A field's map or list items given since its last reset; `setting` is the Setting the latest flag made. */
interface Pending {
  setting: Setting;
  lists: Item[][];
}

/** Items of a Setting whose items are merged at the end (never seen outside effectiveSettings). */
const PENDING: Item[] = [];

/**
 * The lists to merge when `items` is added to the field's current value `prev`: the pending lists when `prev` is
 * what the previous flag made, else `prev`'s own items (from the config file, or a flag of another kind).
 */
function continued(p: Pending | undefined, prev: Setting | undefined, kind: 'map' | 'list', items: Item[], emptyBase: boolean): Item[][] {
  if (p && p.setting === prev && prev.kind === kind) {
    p.lists.push(items);
    return p.lists;
  }
  if (prev?.kind === kind) return [prev.items, items];
  return emptyBase ? [[], items] : [items];
}

/**
 * mergeItems(mergeItems(l0, l1), l2)...: an item survives when no later list has its key (items of one list do
 * not replace each other), in list order.
 */
function mergeLists(lists: Item[][]): Item[] {
  const later = new Set<string | undefined>();
  const kept: Item[][] = [];
  for (let i = lists.length - 1; i >= 0; i--) {
    const l = lists[i];
    kept.push(i === lists.length - 1 ? l : l.filter((it) => !later.has(it.key)));
    for (const it of l) later.add(it.key);
  }
  const out: Item[] = [];
  for (let i = kept.length - 1; i >= 0; i--) for (const it of kept[i]) out.push(it);
  return out;
}

function mergeItems(base: readonly Item[], over: readonly Item[]): Item[] {
  const keys = new Set(over.map((i) => i.key));
  return [...base.filter((i) => !keys.has(i.key)), ...over];
}

function fromNode(n: ConfigNode, from: Provenance): Setting {
  switch (n.kind) {
    case 'scalar':
      return n.template
        ? { kind: 'scalar', value: n.value, text: n.source, span: n.span, from, template: n.template }
        : { kind: 'scalar', value: n.value, text: n.source, span: n.span, from };
    case 'map':
      return {
        kind: 'map',
        items: n.entries.map((e) => ({
          key: e.key,
          value: e.value.kind === 'scalar' ? e.value.value : null,
          text: e.value.kind === 'scalar' ? e.value.source : '',
          keySpan: e.keySpan,
          valueSpan: e.value.span,
          from,
          nested: e.value.kind !== 'scalar' ? e.value.kind : undefined,
          ...(e.keyTemplate || (e.value.kind === 'scalar' && e.value.template)
            ? { template: e.value.kind === 'scalar' ? e.value.template : undefined, keyTemplate: e.keyTemplate }
            : {}),
        })),
        from,
      };
    case 'seq':
      return {
        kind: 'list',
        items: n.items.map((i): Item => {
          const item: Item = {
            value: i.kind === 'scalar' ? i.value : null,
            text: i.kind === 'scalar' ? i.source : '',
            valueSpan: i.span,
            from,
            nested: i.kind !== 'scalar' ? i.kind : undefined,
          };
          // Only when set: a list may have hundreds of thousands of items.
          if (i.kind === 'scalar' && i.template) item.template = i.template;
          return item;
        }),
        from,
      };
  }
}

function mapItems(f: FlagUse, form: 'key=value' | 'signal<value', bool: boolean, from: Provenance, problems: Finding[]): Item[] {
  const text = f.value ?? '';
  const parsed = bool ? parseMapStringBool(text) : form === 'signal<value' ? parseLangleMap(text) : parseMapStringString(text);
  for (const e of parsed.errors) {
    problems.push(
      finding('flag-value-invalid', 'error', valueSubSpan(f, e.start, e.end), `--${f.written}: ${e.message}. The kubelet refuses to start ("invalid argument").`),
    );
  }
  return parsed.entries.map((e) => ({
    key: e.key,
    value: e.value,
    text: e.value,
    keySpan: valueSubSpan(f, e.keyStart, e.keyEnd),
    valueSpan: valueSubSpan(f, e.valueStart, e.valueEnd),
    from,
  }));
}

const HAS_EXPRESSION = /\{\{|\{%|\$\{/;

/** Items of a flag whose key or value a template expression writes, marked as a config's are. */
function markItems(items: Item[], places: TemplatePlaces): void {
  for (const i of items) {
    const template = places.of(i.valueSpan);
    // A YAML value with literal text around its expressions is one place (`cpu=1,memory={{ .m }}`): an item placed
    // exactly and holding no expression is literal; one placed only approximately (at a point) may be either.
    if (template === 'whole' || (template === 'partial' && (isPoint(i.valueSpan) || HAS_EXPRESSION.test(i.text)))) i.template = template;
    if (i.keySpan && !isPoint(i.keySpan) && places.of(i.keySpan)) i.keyTemplate = true;
  }
}

const isPoint = (s: Span | undefined) => !!s && s.range.start.line === s.range.end.line && s.range.start.character === s.range.end.character;

/** pflag StringSlice: comma-separated (CSV), each item with its own span. */
function listItems(f: FlagUse, from: Provenance): Item[] {
  const text = f.value ?? '';
  if (text === '') return [];
  const out: Item[] = [];
  let start = 0;
  for (const part of text.split(',')) {
    const lead = part.length - part.trimStart().length;
    const item = part.trim();
    const span: Span = valueSubSpan(f, start + lead, start + lead + item.length);
    out.push({ value: item, text: item, valueSpan: span, from });
    start += part.length + 1;
  }
  return out;
}
