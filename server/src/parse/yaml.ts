/**
 * The YAML reader: the `yaml` library composes each document
 * (failsafe schema, so every scalar stays a string and no Date/number objects
 * are made); this module then types scalars the way go-yaml v2 does
 * (yaml-scalar.ts), resolves aliases and `<<` merges itself (one anchor table,
 * O(1) per alias; the library's Alias.resolve is a document walk per alias),
 * detects duplicate keys with one Map per mapping, and bounds alias expansion
 * like go-yaml's "excessive aliasing" check.
 */
import { Lexer, parseAllDocuments, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { LineIndex, loneCrToLf } from '../model/range.ts';
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

/** The characters go-yaml v2 accepts after `\\` in a double-quoted scalar (and a line break: a continuation). */
const GO_ESCAPES = new Set(['0', 'a', 'b', 't', '\t', 'n', 'v', 'f', 'r', 'e', ' ', '"', "'", '\\', 'N', '_', 'L', 'P', 'x', 'u', 'U', '\n', '\r']);

class YamlConverter {
  anchors = new Map<string, AnchorInfo>();
  dec = 0;
  ali = 0;
  aliasBlocked = false;
  depthCut = false;
  duplicates: DuplicateKey[] = [];

  /** Converting a mapping key (a key may be .inf where a value may not). */
  inKey = false;
  /** Values and keys JSON cannot hold; an error only if they survive into the final tree (see jsonProblems). */
  nonFinite = new Set<ScalarNode>();
  nullKeys = new Set<MapEntry>();
  /** For the tab check (tabProblems), when the text has tabs: plain values with their collection's column ... */
  plains: { start: number; end: number; col: number }[] = [];
  /** ... and quoted scalars, block scalars and flow collections, where go-yaml reads tabs as content. */
  sheltered: [number, number][] = [];
  parentCol = -1;
  readonly hasTabs: boolean;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly lines: LineIndex,
    readonly problems: Finding[],
  ) {
    this.hasTabs = text.includes('\t');
  }

  /** No line break between the last non-blank character before `end` and `end` (a file's unterminated last line). */
  noBreakAfter(end: number): boolean {
    let i = end - 1;
    while (i >= 0 && (this.text[i] === ' ' || this.text[i] === '\t')) i--;
    return i >= 0 && this.text[i] !== '\n' && this.text[i] !== '\r';
  }

  colAt(offset: number): number {
    return offset - this.text.lastIndexOf('\n', offset - 1) - 1;
  }

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
    let src = typeof n.source === 'string' ? n.source : String(n.value ?? '');
    if ((n.type === 'BLOCK_LITERAL' || n.type === 'BLOCK_FOLDED') && src.endsWith('\n') && this.noBreakAfter(r[1])) {
      // go-yaml keeps (clip, keep) only the line breaks that are in the text: a block scalar whose last line ends
      // the file without one has none (`a: |` / `  x` at the end gives "x").
      src = src.slice(0, -1);
    }
    const span = this.span(r[0], r[1]);
    const t = n.type;
    const quoted = t === 'QUOTE_DOUBLE' || t === 'QUOTE_SINGLE' || t === 'BLOCK_LITERAL' || t === 'BLOCK_FOLDED';
    const tag = n.tag;
    let value: string | number | boolean | null;
    if (t === 'QUOTE_DOUBLE') {
      this.checkEscapes(r[0], r[1]);
      if (this.text.slice(r[0], r[1]).includes("\\'")) src = goQuoteEscapes(this.text.slice(r[0], r[1]), src);
    }
    if (this.hasTabs && !this.inKey) {
      if (quoted) this.sheltered.push([r[0], r[1]]);
      else if (t === 'PLAIN') this.plains.push({ start: r[0], end: r[1], col: this.parentCol });
    }
    if (tag && tag !== '!') {
      if (tag === TAG + 'binary') value = this.binary(src, span);
      else if (tag === TAG + 'str' || tag === TAG + 'timestamp') value = src;
      else if (tag === TAG + 'int' || tag === TAG + 'float' || tag === TAG + 'bool' || tag === TAG + 'null') {
        const v = resolvePlainScalar(src);
        const want = tag.slice(TAG.length);
        const ok =
          (want === 'int' && typeof v === 'number' && isYamlInt(src)) ||
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
    const out: ScalarNode = { kind: 'scalar', value, source: src, span };
    if (typeof value === 'number' && !Number.isFinite(value) && !this.inKey) this.nonFinite.add(out);
    return out;
  }

  /**
   * go-yaml v2's escapes in double quotes (scannerc.go): YAML 1.1's, without 1.2's `\/` that the yaml library
   * accepts; an unknown one fails the whole file ("found unknown escape character").
   */
  checkEscapes(start: number, end: number): void {
    const text = this.text;
    for (let i = text.indexOf('\\', start); i !== -1 && i < end - 1; i = text.indexOf('\\', i + 2)) {
      const c = text[i + 1]!;
      if (c === 'u' || c === 'U') {
        // scannerc.go: a \u or \U escape must be a Unicode scalar value: no surrogate half, nothing past 10FFFF
        const hex = text.slice(i + 2, i + 2 + (c === 'u' ? 4 : 8));
        const v = /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : 0;
        if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff) {
          this.problems.push(finding('config-syntax', 'error', this.span(i, i + 2 + hex.length),
            `The escape \`\\${c}${hex}\` is no Unicode character (a surrogate half or past 10FFFF): go-yaml (the kubelet's YAML reader) refuses the file ("found invalid Unicode character escape code").`));
          return;
        }
      }
      if (GO_ESCAPES.has(c)) continue;
      this.problems.push(finding('config-syntax', 'error', this.span(i, i + 2),
        `Unknown escape \`\\${c}\` in a double-quoted string: go-yaml (the kubelet's YAML reader) refuses the file ("found unknown escape character").${c === '/' ? ' Write `/` alone.' : ''}`));
      return;
    }
  }

  /** !!binary: go-yaml decodes the base64 text (line breaks ignored) and fails the file when it is not base64. */
  binary(src: string, span: Span): string {
    const b64 = src.replace(/[\r\n]/g, '');
    if (b64.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return Buffer.from(b64, 'base64').toString('utf8');
    this.problems.push(finding('config-syntax', 'error', span, 'The !!binary value is not base64: go-yaml refuses the file ("!!binary value contains invalid base64 data").'));
    return src;
  }

  /**
   * Tabs go-yaml v2 refuses where the yaml library reads them as separation (scannerc.go): in block context a tab
   * in a line's leading blanks fails ("found character that cannot start any token"), unless a plain scalar is
   * being read, which allows it at a column past its collection's ("found a tab character that violates
   * indentation" before). Blank and comment lines count: `\t# note` under a key breaks the whole file.
   */
  tabProblems(start: number, end: number): void {
    if (!this.hasTabs) return;
    const text = this.text;
    let index: TabIndex | undefined;
    for (let ls = start; ls < end; ) {
      const nl = text.indexOf('\n', ls);
      const le = nl === -1 ? end : Math.min(nl, end);
      let e = ls;
      while (e < le && (text[e] === ' ' || text[e] === '\t')) e++;
      const tab = text.indexOf('\t', ls);
      if (tab !== -1 && tab < e) {
        index ??= new TabIndex(this);
        if (!index.sheltered(ls) && !index.errorLines.has(this.lines.position(ls).line)) {
          // the plain scalar this line continues or follows (only blanks between), if any
          let p = ls - 1;
          while (p >= start && (text[p] === ' ' || text[p] === '\t' || text[p] === '\n' || text[p] === '\r')) p--;
          const plain = index.plainAt(ls, p + 1);
          if (!plain) {
            this.problems.push(finding('config-syntax', 'error', this.span(tab, tab + 1),
              'A tab in the indentation: go-yaml (the kubelet\'s YAML reader) refuses the file ("found character that cannot start any token"), even on a blank or comment line. Use spaces.'));
            return;
          }
          for (let i = ls; i < e; i++) {
            if (text[i] === '\t' && i - ls < plain.col + 1) {
              this.problems.push(finding('config-syntax', 'error', this.span(i, i + 1),
                'A tab in the indentation: go-yaml (the kubelet\'s YAML reader) refuses the file ("found a tab character that violates indentation"), even on a blank or comment line. Use spaces.'));
              return;
            }
          }
        }
      }
      // A tab among the blanks after a block sequence's `-` (also `- -`): go-yaml allows only spaces there, for after
      // the indicator a simple key may start and its scanner skips tabs only where none can ("found character that
      // cannot start any token"); `a:\ttext` is fine.
      else {
        let d = e;
        while (d < le && text[d] === '-' && (text[d + 1] === ' ' || text[d + 1] === '\t' || d + 1 === le)) {
          let b = d + 1;
          while (b < le && (text[b] === ' ' || text[b] === '\t')) b++;
          const t2 = text.indexOf('\t', d + 1);
          if (t2 !== -1 && t2 < b) {
            index ??= new TabIndex(this);
            let p = ls - 1;
            while (p >= start && (text[p] === ' ' || text[p] === '\t' || text[p] === '\n' || text[p] === '\r')) p--;
            // (a line indented past the collection of a plain scalar it follows continues that scalar: text, no `-`)
            const plain = index.plainAt(ls, p + 1);
            if (!index.sheltered(ls) && !index.errorLines.has(this.lines.position(ls).line) && !(plain && e - ls > plain.col)) {
              this.problems.push(finding('config-syntax', 'error', this.span(t2, t2 + 1),
                'A tab after a list item\'s "-": go-yaml (the kubelet\'s YAML reader) refuses the file ("found character that cannot start any token"). Use a space.'));
              return;
            }
            break;
          }
          d = b;
        }
      }
      if (nl === -1) break;
      ls = nl + 1;
    }
  }

  /**
   * What YAMLToJSON cannot write as JSON, in the tree that remains once later keys replaced earlier ones (go-yaml
   * decodes first, then the JSON conversion sees only the survivors): a null key (`~`, `null`, an empty `?`:
   * "Unsupported map key of type: <nil>") and an infinite or NaN float (json.Marshal: "unsupported value").
   */
  jsonProblems(root: ConfigNode): void {
    if (this.nonFinite.size === 0 && this.nullKeys.size === 0) return;
    const seen = new Set<ConfigNode>();
    const stack: ConfigNode[] = [root];
    while (stack.length) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      if (n.kind === 'scalar') {
        if (this.nonFinite.has(n)) {
          this.problems.push(finding('config-syntax', 'error', n.span,
            `\`${n.source}\` is ${Number.isNaN(n.value) ? 'NaN' : 'an infinite float'}, which JSON cannot hold: the kubelet fails to load the file (sigs.k8s.io/yaml: "json: unsupported value"). Quote it for a string.`));
        }
      } else if (n.kind === 'seq') for (const it of n.items) stack.push(it);
      else {
        for (const e of n.entries) {
          if (this.nullKeys.has(e)) {
            this.problems.push(finding('config-syntax', 'error', e.keySpan,
              'A null key (`~`, `null` or nothing) has no JSON form: the kubelet fails to load the file (sigs.k8s.io/yaml: "Unsupported map key"). Quote it for a string.'));
          }
          stack.push(e.value);
        }
      }
    }
  }

  seq(n: YAMLSeq, depth: number): SeqNode {
    const r = n.range ?? [0, 0, 0];
    if (this.hasTabs && n.flow) this.sheltered.push([r[0], r[1]]);
    const col = this.hasTabs ? this.colAt(r[0]) : -1;
    // (map, not push: an exact list, where pushing keeps 17 slots for the usual one or two items)
    const items = (n.items as (YNode | Pair | null)[]).map((it): ConfigNode => {
      this.parentCol = col;
      // `- a: b` inside a flow sequence: a single-pair map.
      return it && isPair(it) ? this.pairsToMap([it], depth + 1, r[0]) : this.convert(it as YNode | null, depth + 1, r[0]);
    });
    return { kind: 'seq', items, span: this.span(r[0], r[1]) };
  }

  map(n: YAMLMap, depth: number): MapNode {
    const r = n.range;
    if (this.hasTabs && n.flow && r) this.sheltered.push([r[0], r[1]]);
    const m = this.pairsToMap(n.items as Pair[], depth, r ? r[0] : 0);
    if (r) m.span = this.span(r[0], r[1]);
    return m;
  }

  pairsToMap(pairs: Pair[], depth: number, at: number): MapNode {
    const entries: MapEntry[] = [];
    const index = new Map<string, number>();
    let dead = 0;
    const mergedIn = new Set<MapEntry>();
    const mine: DuplicateKey[] = [];
    const add = (e: MapEntry, merged = false) => {
      if (merged) mergedIn.add(e);
      const prev = index.get(e.key);
      if (prev !== undefined) {
        const p = entries[prev];
        // Strict decoding (YAMLToJSONStrict) fails on any key set twice, merged (`<<`) ones included (go-yaml v2
        // decode.go mapping(): "key already set in map"; checked with sigs.k8s.io/yaml, test/oracle/yaml.test.ts).
        const d: DuplicateKey = { key: e.key, first: p.keySpan, second: e.keySpan, earlier: p };
        if (merged || mergedIn.has(p)) d.merged = true;
        this.duplicates.push(d);
        mine.push(d);
        (entries as (MapEntry | undefined)[])[prev] = undefined;
        dead++;
      }
      index.set(e.key, entries.length);
      entries.push(e);
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
          if (s.kind === 'map') for (const e of s.entries) add(e, true);
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
      let nullKey = false;
      if (k == null) {
        key = 'null';
        keySpan = this.span(keyStart, keyStart);
        nullKey = true;
      } else if (isScalar(k) || isAlias(k)) {
        this.inKey = true;
        const kn = this.convert(k, depth + 1, keyStart);
        this.inKey = false;
        keySpan = this.nodeSpan(k);
        if (kn.kind === 'scalar') {
          key = keyString(kn.value);
          nullKey = kn.value === null;
        } else {
          this.problems.push(finding('config-syntax', 'error', keySpan, 'A mapping key must be a plain value, not a mapping or a list (Go cannot decode such a key).'));
          continue;
        }
      } else {
        keySpan = this.nodeSpan(k);
        this.problems.push(finding('config-syntax', 'error', keySpan, 'A mapping key must be a plain value, not a mapping or a list (Go cannot decode such a key).'));
        continue;
      }
      const vEnd = kr ? kr[1] : keyStart;
      if (this.hasTabs) this.parentCol = this.colAt(first);
      const value = this.convert(p.value as YNode | null, depth + 1, vEnd);
      const vr = (p.value as YNode | null)?.range;
      last = vr ? vr[1] : vEnd;
      const entry: MapEntry = { key, keySpan, value };
      if (nullKey) this.nullKeys.add(entry);
      add(entry);
    }
    // An exact list either way (pushed one at a time, a map of one or two keys kept 17 slots).
    const out = dead ? entries.filter((e) => e !== undefined) : entries.slice();
    const map: MapNode = { kind: 'map', entries: out, span: this.span(first < 0 ? at : first, last) };
    for (const d of mine) d.map = map;
    return map;
  }
}

/** Lookups for tabProblems(), built when a line starts with a tab: sorted ranges, binary search (O(log n) a line). */
class TabIndex {
  readonly errorLines = new Set<number>();
  private readonly shelter: [number, number][] = [];
  private readonly plains: { start: number; end: number; col: number }[];
  private readonly plainEnds = new Map<number, { start: number; end: number; col: number }>();

  constructor(c: YamlConverter) {
    for (const p of c.problems) if (p.severity === 'error' && p.file === c.file) for (let l = p.range.start.line; l <= p.range.end.line; l++) this.errorLines.add(l);
    // nested ranges (a quoted scalar in a flow map) merged into disjoint ones
    for (const r of [...c.sheltered].sort((a, b) => a[0] - b[0])) {
      const last = this.shelter.at(-1);
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else this.shelter.push([r[0], r[1]]);
    }
    this.plains = [...c.plains].sort((a, b) => a.start - b.start);
    for (const p of this.plains) this.plainEnds.set(p.end, p);
  }

  /** Index of the last range starting before `at`. */
  private static before<T>(xs: readonly T[], start: (x: T) => number, at: number): number {
    let lo = 0;
    let hi = xs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (start(xs[mid]!) < at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  sheltered(at: number): boolean {
    const i = TabIndex.before(this.shelter, (r) => r[0], at);
    return i >= 0 && at < this.shelter[i]![1];
  }

  /** The plain scalar that spans `at` (a continuation line) or ends at `prevEnd` (the line follows it). */
  plainAt(at: number, prevEnd: number): { col: number } | undefined {
    const i = TabIndex.before(this.plains, (p) => p.start, at);
    if (i >= 0 && at < this.plains[i]!.end) return this.plains[i];
    return this.plainEnds.get(prevEnd);
  }
}

/**
 * A quoted scalar continued on a line that starts with a tab: go-yaml folds it (the line's leading blanks go), the
 * `yaml` library refuses it ("Tabs are not allowed as indentation"). Those tabs become spaces before the library
 * reads the text: same length, same value. The library's lexer finds the quoted scalars.
 */
const LINE_START_TAB = /\n *\t/;

function untabQuotedContinuations(text: string): string {
  let out: string[] | undefined;
  let off = 0;
  let open = ''; // the quote of a scalar the lexer left open at a line end
  let lineStart = false;
  for (const tok of new Lexer().lex(text)) {
    // the lexer's control tokens (document, scalar, flow markers) are not in the text
    if (tok.length === 1 && tok.charCodeAt(0) < 0x20 && tok !== '\n' && tok !== '\t' && tok !== '\r') continue;
    if (open && lineStart && /^[ \t]+$/.test(tok) && tok.includes('\t')) {
      out ??= [...text];
      for (let i = 0; i < tok.length; i++) if (tok[i] === '\t') out[off + i] = ' ';
    }
    if (open) {
      if (quoteCloses(tok, open, 0)) open = '';
    } else if ((tok[0] === '"' || tok[0] === "'") && !quoteCloses(tok, tok[0], 1)) open = tok[0];
    // (the lexer gives a line's indentation and the blanks after it as separate tokens)
    lineStart = tok.endsWith('\n') || (lineStart && /^[ \t]+$/.test(tok));
    off += tok.length;
  }
  return out ? out.join('') : text;
}

/** Whether `tok` holds the closing `quote` at or after `from` (`\"` escapes a double quote, `''` is a single one). */
function quoteCloses(tok: string, quote: string, from: number): boolean {
  for (let i = from; i < tok.length; i++) {
    if (quote === '"' && tok[i] === '\\') i++;
    else if (tok[i] === quote) {
      if (quote === "'" && tok[i + 1] === "'") i++;
      else return true;
    }
  }
  return false;
}

/** 1300000 -> "1,300,000". */
export function fmtCount(n: number): string {
  if (!Number.isFinite(n) || n > 1e15) return 'more than 10^15';
  // Grouped by hand: toLocaleString would load ICU's number formatting (several MB of RSS) for one message.
  // A loop, not /\B(?=(\d{3})+$)/g, whose lookahead rescans the rest of the digits at every position.
  const s = String(Math.abs(Math.round(n)));
  let out = s.slice(0, s.length % 3 || 3);
  for (let i = out.length; i < s.length; i += 3) out += ',' + s.slice(i, i + 3);
  return n < 0 ? `-${out}` : out;
}

function plainYamlError(message: string): string {
  // The library's messages are already plain; drop any trailing context it adds.
  const i = message.indexOf(' at line ');
  return i > 0 ? message.slice(0, i) : message;
}

/**
 * Parse a YAML stream (all documents) once and convert every document.
 * Never throws; syntax errors become `config-syntax` problems at their position.
 */
export function parseYamlStream(file: string, original: string, lines: LineIndex = new LineIndex(original)): YamlStreamResult {
  const text = loneCrToLf(original);
  const problems: Finding[] = [];
  const docs: ConvertedDoc[] = [];
  let parsed: Document.Parsed[];
  try {
    const cut = dedentEnd(text);
    if (cut !== -1) {
      const k = /^\ufeff?( *)/.exec(text.slice(0, cut).split('\n').find((l) => /^\ufeff? *[^ \t\r#]/.test(l)) ?? '')![1]!.length;
      const le = text.indexOf('\n', cut);
      problems.push(finding('config-syntax', 'warning', { file, range: lines.range(cut, le === -1 ? text.length : le) },
        `This line and every line below it are ignored: the document starts indented ${k} spaces and this line less, which ends it. ` +
          'go-yaml (the kubelet\'s YAML reader) stops there without an error, so these settings silently have no effect. Indent the first lines like the rest.'));
    }
    const source = cut === -1 ? text : text.slice(0, cut);
    const r = parseAllDocuments(LINE_START_TAB.test(source) ? untabQuotedContinuations(source) : source, {
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
  let scanFrom = 0;
  for (let i = 0; i < parsed.length; i++) {
    const d = parsed[i];
    for (const e of d.errors) {
      // `\'` in double quotes is an escape of go-yaml v2 (scannerc.go), not of the yaml package, which keeps both
      // characters: the scalar's value is corrected where it is read (YamlConverter.scalar)
      if (e.code === 'BAD_DQ_ESCAPE' && text[e.pos[0]] === '\\' && text[e.pos[0] + 1] === "'") continue;
      // the yaml package reports errors at the end of input as [length, length + 1]: keep them inside the text
      // (and never between the \r and \n of a CRLF, which an editor shows as one line end)
      const inside = (o: number) => (o > 0 && text.charCodeAt(o - 1) === 13 && text.charCodeAt(o) === 10 ? o - 1 : o);
      const s = inside(Math.min(e.pos[0], text.length));
      const en = inside(Math.min(e.pos[1], text.length));
      let msg = plainYamlError(e.message);
      if (/Maximum call stack size exceeded/.test(msg)) msg = 'Nesting is too deep for the analyzer to read (thousands of levels); no real configuration looks like this.';
      problems.push(finding('config-syntax', 'error', { file, range: lines.range(s, Math.max(s, en)) }, `YAML syntax error: ${msg}`));
    }
    const conv = new YamlConverter(file, text, lines, problems);
    const dr = d.range;
    const c = d.contents as YNode | null;
    const empty = c == null || (isScalar(c) && c.source === '' && (c.type === 'PLAIN' || c.type === undefined) && !c.tag && !(c as { anchor?: string }).anchor);
    let root: ConfigNode | undefined;
    if (!empty) {
      try {
        root = conv.convert(c, 0, dr[0]);
        conv.jsonProblems(root);
        conv.tabProblems(scanFrom, dr[2]);
      } catch (e) {
        if (e instanceof RangeError) {
          problems.push(finding('config-syntax', 'error', { file, range: lines.range(dr[0], dr[0]) }, 'Nesting is too deep for the analyzer to read; no real configuration looks like this.'));
        } else throw e;
      }
    }
    scanFrom = dr[2];
    docs.push({ root, span: { file, range: lines.range(dr[0], dr[1]) }, index: i, duplicates: conv.duplicates });
  }
  return { docs, problems, lines };
}

/**
 * Whether go-yaml v2 resolves a plain scalar as an integer (resolve.go: strconv.ParseInt or ParseUint with base 0
 * after dropping `_`, or a 0b binary): !!int takes only those; `1e3` resolves as a float, and !!int 1e3 fails
 * ("cannot decode !!float `1e3` as a !!int").
 */
function isYamlInt(src: string): boolean {
  const s = src.replaceAll('_', '');
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return false;
  let body = m[2]!;
  if (/^0[0-7]+$/.test(body)) body = `0o${body.slice(1)}`;
  const v = BigInt(body) * (m[1] === '-' ? -1n : 1n);
  return v >= -(1n << 63n) && v < 1n << 64n;
}

/**
 * A double-quoted scalar's value with go-yaml's `\'` escape (an apostrophe), which the yaml package keeps as both
 * characters. `raw` is the scalar as written, `value` the package's reading: the n-th `\'` of the value is turned
 * into `'` when the n-th place of the raw text that gives `\'` is that escape (and not `\\` before a `'`).
 */
function goQuoteEscapes(raw: string, value: string): string {
  const escapes: boolean[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== '\\') continue;
    if (raw[i + 1] === "'") escapes.push(true);
    else if (raw[i + 1] === '\\' && raw[i + 2] === "'") escapes.push(false);
    i++;
  }
  let k = 0;
  return value.replace(/\\'/g, (m) => (escapes[k++] ? "'" : m));
}

/**
 * Where go-yaml v2 ends a one-document file without an error: the first content line starts a block mapping or list
 * indented k > 0 spaces, and a later content line is indented less. The indentation drop closes the root node, and
 * yaml.Unmarshal reads the first document only: the rest is dropped silently (checked against sigs.k8s.io/yaml,
 * test/oracle/yaml.test.ts). -1 when nothing is dropped, or another document follows.
 */
function dedentEnd(text: string): number {
  const MARKER = /^(?:---|\.\.\.)(?:[ \t\r]|$)/;
  let k = -1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    const end = nl === -1 ? text.length : nl;
    let s = i;
    while (s < end && text.charCodeAt(s) === 32) s++;
    const c = text[s];
    const line = text.slice(i, end);
    // directives and a `---` before the content start the document; a marker after it ends it as usual (and then
    // a stream of several documents, kubeadm's, is read whole)
    if (k < 0 && (line.startsWith('%') || MARKER.test(line))) {
      // (skipped)
    } else if (s < end && c !== '\r' && c !== '#' && c !== '\t') {
      if (k < 0) {
        // the root must be a block collection: `key:` or `- item` (a plain scalar's lines may be indented less)
        if (s === i || !/^(?:-(?:[ \t]|$)|(?:[^#'"{[\s][^#]*?|"[^"]*"|'[^']*'):(?:[ \t]|$))/.test(text.slice(s, end))) return -1;
        k = s - i;
      } else if (s - i < k) {
        if (MARKER.test(line)) return -1;
        // several documents: leave the stream to the parser
        for (let j = text.indexOf('\n', i); j !== -1; j = text.indexOf('\n', j + 1)) if (/^---(?:[ \t\r\n]|$)/.test(text.slice(j + 1, j + 5))) return -1;
        return i;
      }
    }
    if (nl === -1) break;
    i = nl + 1;
  }
  return -1;
}
