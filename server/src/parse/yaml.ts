/**
 * The YAML reader: the `yaml` library composes each document
 * (failsafe schema, so every scalar stays a string and no Date/number objects
 * are made); this module then types scalars the way go-yaml v2 does
 * (yaml-scalar.ts), resolves aliases and `<<` merges itself (one anchor table,
 * O(1) per alias; the library's Alias.resolve is a document walk per alias),
 * detects duplicate keys with one Map per mapping, and bounds alias expansion
 * like go-yaml's "excessive aliasing" check.
 */
import { parseAllDocuments, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { LineIndex } from '../model/range.ts';
import type { Span } from '../model/range.ts';
import { LazySpan } from '../model/lazy-span.ts';
import { finding } from '../model/finding.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigNode, DuplicateKey, MapEntry, MapNode, ScalarNode, SeqNode } from './types.ts';
import { MAX_DEPTH, MAX_EXPANDED_NODES, keyString, resolvePlainScalar } from './yaml-scalar.ts';

export interface ConvertedDoc {
  /** Undefined for an empty document. */
  root?: ConfigNode;
  /** Whole document text range (without the `---` marker). */
  span: Span;
  index: number;
  duplicates: DuplicateKey[];
}

export interface YamlStreamResult {
  docs: ConvertedDoc[];
  /** Syntax errors, alias problems, nesting limits (code config-syntax / config-alias). */
  problems: Finding[];
  lines: LineIndex;
}

interface AnchorInfo {
  node?: ConfigNode;
  inProgress: boolean;
  dec: number;
  ali: number;
}

/** go-yaml v2 decode.go allowedAliasRatio. */
function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= 400000) return 0.99;
  if (decodeCount >= 4000000) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - 400000) / 3600000);
}

const TAG = 'tag:yaml.org,2002:';

class YamlConverter {
  anchors = new Map<string, AnchorInfo>();
  dec = 0;
  ali = 0;
  aliasBlocked = false;
  depthCut = false;
  duplicates: DuplicateKey[] = [];

  constructor(
    readonly file: string,
    readonly lines: LineIndex,
    readonly problems: Finding[],
  ) {}

  /** Offsets turned into a range when first read (model/lazy-span.ts): a large config has tens of thousands of spans. */
  span(start: number, end: number): Span {
    return new LazySpan(this.file, this.lines, start, end);
  }

  nodeSpan(n: YNode): Span {
    const r = n.range;
    if (!r) return this.span(0, 0);
    return this.span(r[0], r[1]);
  }

  emptyScalar(at: number): ScalarNode {
    return { kind: 'scalar', value: null, source: '', span: this.span(at, at) };
  }

  convert(n: YNode | null | undefined, depth: number, at: number): ConfigNode {
    if (n == null) return this.emptyScalar(at);
    this.dec++;
    if (depth > MAX_DEPTH) {
      if (!this.depthCut) {
        this.depthCut = true;
        this.problems.push(
          finding('config-syntax', 'error', this.nodeSpan(n),
            `Nesting is deeper than ${MAX_DEPTH} levels; the analyzer stops reading here. Such a file is almost certainly not a real configuration.`),
        );
      }
      return this.emptyScalar(n.range ? n.range[0] : at);
    }
    if (isAlias(n)) return this.alias(n.source, n.range ? n.range[0] : at, n.range ? n.range[1] : at);
    const anchor = (n as { anchor?: string }).anchor;
    let info: AnchorInfo | undefined;
    let dec0 = 0;
    let ali0 = 0;
    if (anchor) {
      info = { inProgress: true, dec: 0, ali: 0 };
      this.anchors.set(anchor, info);
      dec0 = this.dec - 1;
      ali0 = this.ali;
    }
    let out: ConfigNode;
    if (isScalar(n)) out = this.scalar(n);
    else if (isMap(n)) out = this.map(n, depth);
    else if (isSeq(n)) out = this.seq(n, depth);
    else out = this.emptyScalar(at);
    if (info) {
      info.node = out;
      info.inProgress = false;
      info.dec = this.dec - dec0;
      info.ali = this.ali - ali0;
    }
    return out;
  }

  alias(name: string, start: number, end: number): ConfigNode {
    const info = this.anchors.get(name);
    const sp = this.span(start, end);
    if (!info) {
      this.problems.push(finding('config-syntax', 'error', sp, `Unknown anchor '${name}' referenced: no '&${name}' appears before this alias in the document.`));
      return { kind: 'scalar', value: null, source: '', span: sp };
    }
    if (info.inProgress || !info.node) {
      this.problems.push(finding('config-alias', 'error', sp, `Anchor '${name}' contains itself. The alias is inside the node it refers to, so the value would be infinite (go-yaml: "anchor '${name}' value contains itself").`));
      return { kind: 'scalar', value: null, source: '', span: sp };
    }
    if (this.aliasBlocked) return { kind: 'scalar', value: null, source: '', span: sp };
    this.ali += 1 + info.ali;
    this.dec += info.dec;
    const goFails = this.ali > 100 && this.dec > 1000 && this.ali / this.dec > allowedAliasRatio(this.dec);
    if (goFails || !Number.isFinite(this.dec) || this.dec > MAX_EXPANDED_NODES) {
      this.aliasBlocked = true;
      const msg = goFails
        ? `Excessive aliasing: expanding the aliases gives about ${fmtCount(this.dec)} nodes, most of them copies; go-yaml (used by the kubelet and kubeadm) refuses such a document ("document contains excessive aliasing"). The analyzer does not expand this or later aliases.`
        : `Aliases expand to more than ${fmtCount(MAX_EXPANDED_NODES)} nodes; the analyzer does not expand this or later aliases.`;
      this.problems.push(finding('config-alias', 'error', sp, msg));
      return { kind: 'scalar', value: null, source: '', span: sp };
    }
    // Shared, not copied: memory stays proportional to the text.
    return info.node;
  }

  scalar(n: Scalar): ScalarNode {
    const r = n.range ?? [0, 0, 0];
    const src = typeof n.source === 'string' ? n.source : String(n.value ?? '');
    const span = this.span(r[0], r[1]);
    const t = n.type;
    const quoted = t === 'QUOTE_DOUBLE' || t === 'QUOTE_SINGLE' || t === 'BLOCK_LITERAL' || t === 'BLOCK_FOLDED';
    const tag = n.tag;
    let value: string | number | boolean | null;
    if (tag && tag !== '!') {
      if (tag === TAG + 'str' || tag === TAG + 'binary' || tag === TAG + 'timestamp') value = src;
      else if (tag === TAG + 'int' || tag === TAG + 'float' || tag === TAG + 'bool' || tag === TAG + 'null') {
        const v = resolvePlainScalar(src);
        const want = tag.slice(TAG.length);
        const ok =
          (want === 'int' && typeof v === 'number' && Number.isInteger(v)) ||
          (want === 'float' && typeof v === 'number') ||
          (want === 'bool' && typeof v === 'boolean') ||
          (want === 'null' && v === null);
        if (!ok) {
          this.problems.push(finding('config-syntax', 'error', span, `Cannot decode !!${want} \`${src}\`: the value does not match its tag.`));
        }
        value = v;
      } else value = src; // unknown tags: go-yaml keeps the text
    } else if (quoted || tag === '!') value = src;
    else value = resolvePlainScalar(src);
    return { kind: 'scalar', value, source: src, span };
  }

  seq(n: YAMLSeq, depth: number): SeqNode {
    const r = n.range ?? [0, 0, 0];
    const items: ConfigNode[] = [];
    for (const it of n.items as (YNode | Pair | null)[]) {
      if (it && isPair(it)) {
        // `- a: b` inside a flow sequence: a single-pair map.
        const m = this.pairsToMap([it], depth + 1, r[0]);
        items.push(m);
      } else items.push(this.convert(it as YNode | null, depth + 1, r[0]));
    }
    return { kind: 'seq', items, span: this.span(r[0], r[1]) };
  }

  map(n: YAMLMap, depth: number): MapNode {
    const m = this.pairsToMap(n.items as Pair[], depth, n.range ? n.range[0] : 0);
    const r = n.range;
    if (r) m.span = this.span(r[0], r[1]);
    return m;
  }

  pairsToMap(pairs: Pair[], depth: number, at: number): MapNode {
    const entries: MapEntry[] = [];
    const index = new Map<string, number>();
    const explicit: boolean[] = [];
    let dead = 0;
    const add = (e: MapEntry, isExplicit: boolean) => {
      const prev = index.get(e.key);
      if (prev !== undefined) {
        const p = entries[prev];
        if (isExplicit && explicit[prev]) this.duplicates.push({ key: e.key, first: p.keySpan, second: e.keySpan });
        (entries as (MapEntry | undefined)[])[prev] = undefined;
        dead++;
      }
      index.set(e.key, entries.length);
      entries.push(e);
      explicit.push(isExplicit);
    };
    let first = -1;
    let last = at;
    for (const p of pairs) {
      const k = p.key as YNode | null;
      const kr = k && k.range ? k.range : null;
      const keyStart = kr ? kr[0] : last;
      if (first < 0) first = keyStart;
      // merge key `<<` (plain, untagged or !!merge)
      if (k && isScalar(k) && k.source === '<<' && (k.type === 'PLAIN' || k.type === undefined) && (!k.tag || k.tag === TAG + 'merge')) {
        this.dec++;
        const v = this.convert(p.value as YNode | null, depth + 1, keyStart);
        const sources: ConfigNode[] = v.kind === 'seq' ? [...v.items].reverse() : [v];
        for (const s of sources) {
          if (s.kind === 'map') for (const e of s.entries) add(e, false);
          else if (!(s.kind === 'scalar' && s.value === null && this.aliasBlocked)) {
            this.problems.push(finding('config-syntax', 'error', s.span, 'A merge key (<<) needs a mapping, an alias of a mapping, or a list of those.'));
          }
        }
        const vr = (p.value as YNode | null)?.range;
        if (vr) last = vr[1];
        continue;
      }
      let key: string;
      let keySpan: Span;
      if (k == null) {
        key = 'null';
        keySpan = this.span(keyStart, keyStart);
      } else if (isScalar(k) || isAlias(k)) {
        const kn = this.convert(k, depth + 1, keyStart);
        keySpan = this.nodeSpan(k);
        if (kn.kind === 'scalar') key = keyString(kn.value);
        else {
          this.problems.push(finding('config-syntax', 'error', keySpan, 'A mapping key must be a plain value, not a mapping or a list (Go cannot decode such a key).'));
          continue;
        }
      } else {
        keySpan = this.nodeSpan(k);
        this.problems.push(finding('config-syntax', 'error', keySpan, 'A mapping key must be a plain value, not a mapping or a list (Go cannot decode such a key).'));
        continue;
      }
      const vEnd = kr ? kr[1] : keyStart;
      const value = this.convert(p.value as YNode | null, depth + 1, vEnd);
      const vr = (p.value as YNode | null)?.range;
      last = vr ? vr[1] : vEnd;
      add({ key, keySpan, value }, true);
    }
    const out = dead ? entries.filter((e) => e !== undefined) : entries;
    return { kind: 'map', entries: out, span: this.span(first < 0 ? at : first, last) };
  }
}

function fmtCount(n: number): string {
  if (!Number.isFinite(n) || n > 1e15) return 'more than 10^15';
  // Grouped by hand: toLocaleString would load ICU's number formatting (several MB of RSS) for one message.
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}

function plainYamlError(message: string): string {
  // The library's messages are already plain; drop any trailing context it adds.
  const i = message.indexOf(' at line ');
  return i > 0 ? message.slice(0, i) : message;
}

/**
 * Parse a YAML stream (all documents) with the `yaml` library and convert every document.
 * Never throws; syntax errors become `config-syntax` problems at their position.
 */
/**
 * Parse a YAML stream (all documents) once and convert every document.
 * Never throws; syntax errors become `config-syntax` problems at their position.
 */
export function parseYamlStream(file: string, text: string, lines: LineIndex = new LineIndex(text)): YamlStreamResult {
  const problems: Finding[] = [];
  const docs: ConvertedDoc[] = [];
  let parsed: Document.Parsed[];
  try {
    const r = parseAllDocuments(text, {
      uniqueKeys: false,
      schema: 'failsafe',
      version: '1.1',
      merge: false,
      prettyErrors: false,
      strict: false,
      stringKeys: false,
    });
    parsed = Array.isArray(r) ? r : [];
  } catch (e) {
    problems.push(finding('config-syntax', 'error', { file, range: lines.range(0, 0) }, `The YAML parser failed: ${(e as Error).message}`));
    return { docs, problems, lines };
  }
  for (let i = 0; i < parsed.length; i++) {
    const d = parsed[i];
    for (const e of d.errors) {
      // the yaml package reports errors at the end of input as [length, length + 1]: keep them inside the text
      // (and never between the \r and \n of a CRLF, which an editor shows as one line end)
      const inside = (o: number) => (o > 0 && text.charCodeAt(o - 1) === 13 && text.charCodeAt(o) === 10 ? o - 1 : o);
      const s = inside(Math.min(e.pos[0], text.length));
      const en = inside(Math.min(e.pos[1], text.length));
      let msg = plainYamlError(e.message);
      if (/Maximum call stack size exceeded/.test(msg)) msg = 'Nesting is too deep for the analyzer to read (thousands of levels); no real configuration looks like this.';
      problems.push(finding('config-syntax', 'error', { file, range: lines.range(s, Math.max(s, en)) }, `YAML syntax error: ${msg}`));
    }
    const conv = new YamlConverter(file, lines, problems);
    const dr = d.range;
    const c = d.contents as YNode | null;
    const empty = c == null || (isScalar(c) && c.source === '' && (c.type === 'PLAIN' || c.type === undefined) && !c.tag && !(c as { anchor?: string }).anchor);
    let root: ConfigNode | undefined;
    if (!empty) {
      try {
        root = conv.convert(c, 0, dr[0]);
      } catch (e) {
        if (e instanceof RangeError) {
          problems.push(finding('config-syntax', 'error', { file, range: lines.range(dr[0], dr[0]) }, 'Nesting is too deep for the analyzer to read; no real configuration looks like this.'));
        } else throw e;
      }
    }
    docs.push({ root, span: { file, range: lines.range(dr[0], dr[1]) }, index: i, duplicates: conv.duplicates });
  }
  return { docs, problems, lines };
}
