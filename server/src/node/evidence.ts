/**
 * How each effective setting is known, and what a rule's verdict rested on. A finding may be an error or a warning
 * only when every setting its rule looked up is known: written in a file, or the kubelet's or platform's default. A
 * value that a template, a variable or a marker fills in later is *rendered*: whatever the rule concluded from it
 * holds only if the rendered value is the one read here, so the engine lowers such a finding to information and says
 * so (issue #36). Rules do not do this themselves: they read the node through a view that records their look-ups.
 */
import type { Finding } from '../model/finding.ts';
import { spanInside } from '../model/range.ts';
import { NEWEST_VERSION } from '../catalog/flags.ts';
import type { NodeModel, Setting } from './model.ts';
import { PARTIAL_CHECKED } from './template.ts';

/**
 * - `written`: literally in a file whose format and role are known;
 * - `rendered`: a template expression, variable or marker that something fills in later, or a map or list with one;
 * - `defaulted`: the kubelet's or the platform's default (how: 'default', 'platform');
 * - `assumed`: a platform default for something no file states (Provenance.assumed: a Talos machine of no stated type).
 * What the tool assumes because no file states it is a fact of the node, not of a setting
 * (NodeModel.kubernetesVersionAssumed).
 */
export type Certainty = 'written' | 'rendered' | 'defaulted' | 'assumed';

export function certaintyOf(s: Setting): Certainty {
  if (assumedIn(s) !== undefined) return 'assumed';
  if (s.kind === 'scalar' && s.template) return 'rendered';
  if (s.kind === 'map' || s.kind === 'list') for (const i of s.items) if (i.template || i.keyTemplate) return 'rendered';
  if (s.from.how === 'default' || s.from.how === 'platform') return 'defaulted';
  return 'written';
}

/** The condition a platform default of this setting rests on (Provenance.assumed), if any. */
function assumedIn(s: Setting): string | undefined {
  if (s.from.assumed) return s.from.assumed;
  if (s.kind === 'map' || s.kind === 'list') for (const i of s.items) if (i.from.assumed) return i.from.assumed;
  return undefined;
}

/** Rendered only in partly literal values (`{{ .mem }}Gi`): no value or key is a template expression as a whole. */
function partlyLiteral(s: Setting): boolean {
  if (s.kind === 'scalar') return s.template === 'partial';
  if (s.kind === 'map' || s.kind === 'list') return s.items.every((i) => i.template !== 'whole' && !i.keyTemplate);
  return false;
}

const NO_CONDITIONS: ReadonlySet<string> = new Set();

/** The recorder's `rendered` while nothing is recorded: never written to (a first entry makes a map of its own). */
const EMPTY: ReadonlyMap<string, Setting> = new Map();

/**
 * The node's settings as a rule reads them, remembering each rendered setting it looked up by name (`get`, `has`).
 * Walking every setting (`for ... of`) records nothing: a rule that walks them reports about the setting at hand,
 * and a finding at a template expression is the template's to decide (node/template.ts placeholderTest).
 */
export class LookupRecorder implements ReadonlyMap<string, Setting> {
  /** Rendered settings looked up since the last `clear`, by field (made on the first one: most nodes have none). */
  rendered: ReadonlyMap<string, Setting> = EMPTY;
  /** Whether one of them is unknown as a whole (not only a partly literal value such as `{{ .mem }}Gi`). */
  whole = false;
  /** Whether a look-up found nothing: the verdict rests on a setting being absent. */
  missed = false;
  /** Conditions of assumed platform defaults looked up (Provenance.assumed), made on the first one. */
  assumed: ReadonlySet<string> = NO_CONDITIONS;

  constructor(private readonly inner: ReadonlyMap<string, Setting>) {}

  clear(): void {
    if (this.rendered.size) this.rendered = EMPTY;
    this.whole = false;
    this.missed = false;
    if (this.assumed.size) this.assumed = NO_CONDITIONS;
  }

  get(field: string): Setting | undefined {
    const s = this.inner.get(field);
    const condition = s && s.from.how === 'platform' ? assumedIn(s) : undefined;
    if (!s) this.missed = true;
    else if (condition !== undefined) {
      const set = this.assumed === NO_CONDITIONS ? new Set<string>() : (this.assumed as Set<string>);
      set.add(condition);
      this.assumed = set;
    } else if (certaintyOf(s) === 'rendered') {
      const m = this.rendered === EMPTY ? new Map<string, Setting>() : (this.rendered as Map<string, Setting>);
      m.set(field, s);
      this.rendered = m;
      if (!partlyLiteral(s)) this.whole = true;
    }
    return s;
  }

  has(field: string): boolean {
    return this.get(field) !== undefined;
  }

  get size(): number {
    return this.inner.size;
  }

  forEach(cb: (value: Setting, key: string, map: ReadonlyMap<string, Setting>) => void, thisArg?: unknown): void {
    this.inner.forEach((v, k) => cb.call(thisArg, v, k, this));
  }

  entries(): MapIterator<[string, Setting]> {
    return this.inner.entries();
  }

  keys(): MapIterator<string> {
    return this.inner.keys();
  }

  values(): MapIterator<Setting> {
    return this.inner.values();
  }

  [Symbol.iterator](): MapIterator<[string, Setting]> {
    return this.inner.entries();
  }
}

/** Every minor version a kubelet may be when no file says which: 1.0 through the newest the catalog knows. */
const VERSIONS: readonly string[] = Object.freeze(Array.from({ length: Number(NEWEST_VERSION.split('.')[1]) + 1 }, (_, i) => `1.${i}`));

/**
 * What one rule's run looked at: rendered settings it looked up, and whether it read the node's version. Made once
 * per node and cleared before each rule; it belongs to the analysis that made it (no module-level state).
 */
export class Evidence {
  readonly settings: LookupRecorder;
  /** The node as rules see it: the same model, its settings and version read through this recorder. */
  readonly view: NodeModel;
  versionRead = false;

  constructor(private readonly node: NodeModel) {
    this.settings = new LookupRecorder(node.settings);
    const self = this;
    this.view = Object.create(node, {
      settings: { value: this.settings, enumerable: true },
      kubernetesVersion: {
        enumerable: true,
        get() {
          self.versionRead = true;
          return node.kubernetesVersion;
        },
      },
    }) as NodeModel;
  }

  clear(): void {
    this.settings.clear();
    this.versionRead = false;
  }

  /**
   * The rule's findings as the evidence allows them. An error or a warning that rests on an assumed version must
   * come at every version a kubelet may be (the rule runs again at each); one that rests on a rendered setting is
   * information. Either way the message first says on what it depends.
   */
  judge<C extends { node: NodeModel }>(run: (ctx: C) => Finding[], ctx: C, found: Finding[]): Finding[] {
    if (!found.some(loud)) return found;
    let out = found;
    if (this.versionRead && this.node.kubernetesVersionAssumed) out = acrossVersions(run, ctx, out, this.node.kubernetesVersion);
    const rendered = this.settings.rendered;
    // A finding about a partly literal value's literal text (`{{ .mem }}Gx`) rests on what is written.
    const about = (f: Finding) => this.settings.whole || !PARTIAL_CHECKED.has(f.code);
    if (rendered.size) {
      out = out.map((f) => {
        if (!loud(f) || !about(f)) return f;
        const names = [...rendered].filter(([, s]) => !anchoredIn(s, f)).map(([name]) => name);
        return names.length ? lowered(f, renderedCondition(names)) : f;
      });
    }
    // A platform default for a role or type no file states (issue #37): the finding holds only for that one.
    const assumed = this.settings.assumed;
    if (assumed.size) out = out.map((f) => (loud(f) ? lowered(f, `Only if ${[...assumed].join(' and ')}.`) : f));
    // A node with files the tool could not read: what rests on a setting being absent may be set there (issue #37).
    const unread = this.node.unread;
    if (unread?.length && this.settings.missed) out = out.map((f) => (loud(f) ? lowered(f, unreadCondition(unread.map((u) => u.path))) : f));
    return out;
  }
}

/**
 * Is the finding about a written part of this map or list (a gate's name whose value is a template, a literal item
 * beside templated ones)? Then the other items' templates are not what it rests on.
 */
function anchoredIn(s: Setting, f: Finding): boolean {
  if (s.kind !== 'map' && s.kind !== 'list') return false;
  for (const i of s.items) {
    if (i.keySpan && !i.keyTemplate && spanInside(f, i.keySpan)) return true;
    if (i.valueSpan && !i.template && spanInside(f, i.valueSpan)) return true;
  }
  return false;
}

/** An error or a warning. */
export function loud(f: Finding): boolean {
  return f.severity === 'error' || f.severity === 'warning';
}

/** The finding as information, its condition said first. */
export function lowered(f: Finding, condition: string): Finding {
  return { ...f, severity: 'information', message: `${condition} ${f.message}` };
}

function renderedCondition(names: readonly string[]): string {
  const what = names.length === 1 ? `${names[0]}'s template renders` : `the templates of ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} render`;
  return `Only if ${what} as read here.`;
}

/** "Only if 20-extra.conf, not read here, sets nothing this depends on." */
function unreadCondition(paths: readonly string[]): string {
  const names = paths.slice(0, 2).map((p) => p.slice(p.lastIndexOf('/') + 1));
  const more = paths.length > 2 ? ` and ${paths.length - 2} more` : '';
  return `Only if ${names.join(' and ')}${more}, not read here, ${paths.length === 1 ? 'sets' : 'set'} nothing this depends on.`;
}

/** A finding's identity across two readings of a node: code, file and range. */
export function findingKey(f: Finding): string {
  const r = f.range;
  return `${f.code}\0${f.file}\0${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** Each loud finding kept loud when the rule gives it at every version, else lowered with the versions that give it. */
function acrossVersions<C extends { node: NodeModel }>(run: (ctx: C) => Finding[], ctx: C, found: Finding[], assumed: string): Finding[] {
  const at = new Map<string, string[]>();
  for (const f of found) if (loud(f)) at.set(findingKey(f), [assumed]);
  for (const v of VERSIONS) {
    if (v === assumed) continue;
    const node = Object.create(ctx.node, { kubernetesVersion: { value: v, enumerable: true } }) as NodeModel;
    for (const f of run({ ...ctx, node })) at.get(findingKey(f))?.push(v);
  }
  return found.map((f) => {
    const versions = loud(f) ? at.get(findingKey(f)) : undefined;
    if (!versions || versions.length === VERSIONS.length) return f;
    return lowered(f, `Holds for a kubelet ${versionRange(versions)}; no file here states which version runs.`);
  });
}

/** "1.24 or newer", "1.10 or older", "1.10 to 1.29", or a list of such runs. */
function versionRange(versions: readonly string[]): string {
  const has = new Set(versions);
  const runs: [string, string][] = [];
  for (let i = 0; i < VERSIONS.length; i++) {
    if (!has.has(VERSIONS[i])) continue;
    let j = i;
    while (j + 1 < VERSIONS.length && has.has(VERSIONS[j + 1])) j++;
    runs.push([VERSIONS[i], VERSIONS[j]]);
    i = j;
  }
  const last = VERSIONS[VERSIONS.length - 1];
  const words = runs.map(([a, b]) => (a === b ? a : b === last ? `${a} or newer` : a === VERSIONS[0] ? `${b} or older` : `${a} to ${b}`));
  return words.join(', ');
}
