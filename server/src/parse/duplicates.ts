/**
 * A key written twice in one mapping, as each tool's own decoder takes it (issue #28 point 9). Two behaviours occur:
 *
 * - the decoder refuses the file: go-yaml v3 and v4 decode with unique keys on (gopkg.in/yaml.v3 v3.0.1 decode.go:
 *   newDecoder sets uniqueKeys, mapping() fails with "mapping key ... already defined at line ..."; keys a `<<` merge
 *   brings in are not compared), which Talos (pkg/machinery/config/configloader/internal/decoder/decoder.go, yaml v4),
 *   talhelper (pkg/config/loader.go newConfig, yaml.v3 Unmarshal) and Butane (config/util/util.go unmarshal, yaml.v3
 *   Decoder) use; eksctl reads its ClusterConfig with sigs.k8s.io/yaml UnmarshalStrict first (pkg/eks/api.go
 *   LoadConfigFromFile), whose go-yaml v2 strict mode fails with "key ... already set in map";
 * - the decoder keeps the last value and drops the earlier silently: sigs.k8s.io/yaml's non-strict YAMLToJSON (kops's
 *   universal decoder, pkg/kopscodecs/codecs.go; kubectl and oc, which send the API server JSON made that way, so the
 *   server never sees the duplicate: kubernetes/kubernetes#125885), PyYAML (cloud-init), Go's encoding/json (Ignition).
 *
 * The readers built on the `yaml` package parse with `uniqueKeys: false`, whose `get` finds the first pair of a key:
 * `keepLastKeys` removes the earlier pairs, so every later lookup takes the value the decoders above take.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Pair, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../model/finding.ts';
import { comparePos, type LineIndex } from '../model/range.ts';
import type { ConfigNode, DuplicateKey, MapEntry, MapNode } from './types.ts';

/** An earlier pair of a key that a later pair of the same mapping overrides. */
export interface DroppedPair {
  key: string;
  /** The earlier pair, taken out of its mapping. */
  dropped: Pair;
  /** The later pair, the one every decoder above reads. */
  kept: Pair;
}

const DROPPED = new WeakMap<object, DroppedPair[]>();

/** A scalar key as go-yaml compares it: its text as written (unquoted), not its resolved value. */
function keyText(k: unknown): string | undefined {
  if (!isScalar(k)) return undefined;
  const source = (k as { source?: unknown }).source;
  if (typeof source === 'string') return source;
  return k.value === null || typeof k.value === 'object' ? undefined : String(k.value);
}

function isMergeKey(k: unknown): boolean {
  return isScalar(k) && keyText(k) === '<<' && (k.type === 'PLAIN' || k.type === undefined);
}

/**
 * Takes the earlier pair of each key written twice in one mapping out of the document (in place, once per document):
 * afterwards `get` and `getIn` give the last value. Returns the pairs taken out, in document order.
 */
export function keepLastKeys(doc: Document): DroppedPair[] {
  const done = DROPPED.get(doc);
  if (done) return done;
  const out: DroppedPair[] = [];
  const seen = new Set<object>();
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object' || isAlias(n) || seen.has(n)) return;
    seen.add(n);
    if (isSeq(n)) {
      for (const it of n.items) walk(it);
      return;
    }
    if (!isMap(n)) return;
    const map = n as YAMLMap;
    const last = new Map<string, Pair>();
    const pairs = map.items.filter(isPair) as Pair[];
    for (const p of pairs) {
      const k = keyText(p.key);
      if (k !== undefined && !isMergeKey(p.key)) last.set(k, p);
    }
    if (last.size < pairs.length) {
      const kept: Pair[] = [];
      for (const p of pairs) {
        const k = keyText(p.key);
        const winner = k === undefined || isMergeKey(p.key) ? p : last.get(k)!;
        if (winner === p) kept.push(p);
        else out.push({ key: k!, dropped: p, kept: winner });
      }
      if (kept.length < map.items.length) map.items = kept as typeof map.items;
    }
    for (const p of pairs) walk(p.value);
  };
  walk(doc.contents);
  DROPPED.set(doc, out);
  return out;
}

/** The pairs `keepLastKeys` took out of the document (none before it ran). */
export function droppedPairs(doc: Document): readonly DroppedPair[] {
  return DROPPED.get(doc) ?? [];
}

/** `keepLastKeys`'s pairs as duplicate keys with their spans in `file`. */
export function droppedAsDuplicates(dropped: readonly DroppedPair[], file: string, lines: LineIndex): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  for (const d of dropped) {
    const a = (d.dropped.key as { range?: [number, number, number] }).range;
    const b = (d.kept.key as { range?: [number, number, number] }).range;
    if (!a || !b) continue;
    out.push({ key: d.key, first: { file, range: lines.range(a[0], a[1]) }, second: { file, range: lines.range(b[0], b[1]) } });
  }
  return out;
}

/** How a tool's decoder takes a key written twice. */
export interface DuplicateReader {
  /** The tool, as messages name it ("Talos", "eksctl"). */
  tool: string;
  /** The decoder fails: the file is refused (error). Otherwise one value wins silently (warning). */
  refuses: boolean;
  /** Which value a decoder that does not refuse keeps: the last (most do), or the first (see keepFirstKeys). */
  keeps?: 'first' | 'last';
  /** Why, in a few words with the decoder's name (and its message when it refuses). */
  why: string;
}

/**
 * One finding per key written twice (at the later key, the earlier one related). A refusing decoder does not compare
 * keys a `<<` merge brings in (go-yaml v3 mapping()), so those are left out for it. For a decoder that keeps the
 * first, every later key is the one ignored, and the one kept is the first of its mapping.
 */
export function duplicateFindings(dups: readonly DuplicateKey[], reader: DuplicateReader): Finding[] {
  const out: Finding[] = [];
  const firsts = new Map<MapNode, Map<string, DuplicateKey['first']>>();
  for (const d of dups) {
    if (reader.refuses && d.merged) continue;
    const line = d.first.range.start.line + 1;
    if (reader.refuses) {
      out.push(finding('config-field-duplicate', 'error', d.second,
        `${reader.tool} refuses this file: "${d.key}" is already set on line ${line} of the same mapping. ${reader.why}. Remove one of them.`,
        { related: [{ span: d.first, message: `first "${d.key}"` }] }));
    } else if (reader.keeps === 'first') {
      // (a third of the same key: its d.first is the second, but the first of the mapping is still the one kept)
      const inMap = d.map && (firsts.get(d.map) ?? firsts.set(d.map, new Map()).get(d.map)!);
      const kept = inMap?.get(d.key) ?? d.first;
      inMap?.set(d.key, kept);
      out.push(finding('config-field-duplicate', 'warning', d.second,
        `This "${d.key}" is ignored: ${reader.tool} keeps the first one, on line ${kept.range.start.line + 1}. ${reader.why}. Remove one of them.`,
        { related: [{ span: kept, message: `first "${d.key}", the one used` }] }));
    } else {
      out.push(finding('config-field-duplicate', 'warning', d.second,
        `The "${d.key}" on line ${line} is ignored: ${reader.tool} keeps this later one. ${reader.why}. Remove one of them.`,
        { related: [{ span: d.first, message: `earlier "${d.key}", ignored` }] }));
    }
  }
  return out;
}

/**
 * The tree as a decoder that keeps the first of a key written twice reads it. The YAML converter keeps the last in
 * each mapping (parse/yaml.ts pairsToMap) and records the earlier entries with their mapping (DuplicateKey.earlier,
 * .map): each mapping that had a duplicate is rebuilt with its first entry of that key, in the order written.
 */
export function keepFirstKeys(node: ConfigNode, dups: readonly DuplicateKey[]): ConfigNode {
  const firstOf = new Map<MapNode, Map<string, MapEntry>>();
  for (const d of dups) {
    if (!d.map || !d.earlier) continue;
    const m = firstOf.get(d.map) ?? firstOf.set(d.map, new Map()).get(d.map)!;
    if (!m.has(d.key)) m.set(d.key, d.earlier);
  }
  if (firstOf.size === 0) return node;
  const walk = (n: ConfigNode): ConfigNode => {
    if (n.kind === 'seq') {
      const items = n.items.map(walk);
      return items.every((x, i) => x === n.items[i]) ? n : { ...n, items };
    }
    if (n.kind !== 'map') return n;
    const first = firstOf.get(n);
    let changed = false;
    const entries = n.entries.map((e) => {
      const w = first?.get(e.key) ?? e;
      const value = walk(w.value);
      if (w === e && value === e.value) return e;
      changed = true;
      return value === w.value ? w : { ...w, value };
    });
    if (!changed) return n;
    if (first) entries.sort((a, b) => comparePos(a.keySpan.range.start, b.keySpan.range.start));
    return { ...n, entries };
  };
  return walk(node);
}

const BRANCH = /\{\{-?\s*(?:if|else|range|with)\b|\{%-?\s*(?:if|elif|else|for)\b|%\{\s*(?:if|else|for)\b/;

/**
 * A file kept as a template with branches (`{{ if }}`, `{% if %}`, `%{ if }`): a key written twice is usually one per
 * branch, and only one of them is in the file the tool reads.
 */
export function templateBranches(text: string): boolean {
  return BRANCH.test(text);
}
