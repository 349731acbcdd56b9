/**
 * YAML and JSON text -> ConfigNode trees with exact source spans.
 *
 * YAML: the `yaml` library builds the document (failsafe schema, so every
 * scalar stays a string and no Date/number objects are made); this module
 * then types scalars the way go-yaml v2 does (sigs.k8s.io/yaml uses it for
 * YAMLToJSON: YAML 1.1 booleans yes/no/on/off/y/n, 0x/0o/0b/leading-0 ints,
 * `_` in numbers, timestamps stay strings), resolves aliases and `<<` merges
 * itself (one anchor table, O(1) per alias; the library's Alias.resolve is a
 * document walk per alias), detects duplicate keys with one Map per mapping,
 * and bounds alias expansion like go-yaml's "excessive aliasing" check.
 *
 * JSON: an iterative parser over jsonc-parser's scanner (jsonc-parser's own
 * parseTree recurses and overflows the stack on 10,000 nested arrays), strict
 * like Go's encoding/json: no comments, no trailing commas, one top-level value.
 */
import { parseAllDocuments, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { createScanner, SyntaxKind, ScanError } from 'jsonc-parser';
import { LineIndex } from '../model/range.ts';
import type { Span } from '../model/range.ts';
import { finding } from '../model/finding.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigNode, MapEntry, MapNode, ScalarNode, SeqNode } from './types.ts';

/** A key written twice in one mapping/object. Go keeps the last one (see parse/config.ts). */
export interface DuplicateKey {
  key: string;
  /** The earlier occurrence (overridden). */
  first: Span;
  /** The later occurrence (the one the kubelet's lenient decoding keeps). */
  second: Span;
}

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

/** Deepest nesting converted; deeper content is cut with a problem (go-yaml itself stops at 10,000). */
export const MAX_DEPTH = 1000;
/** The analyzer's own bound on nodes reachable through aliases. */
export const MAX_EXPANDED_NODES = 2_000_000;

// ---------------------------------------------------------------------------
// go-yaml v2 scalar resolution (gopkg.in/yaml.v2 resolve.go)

const BOOL_TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const BOOL_FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const FLOAT_SPECIAL: Record<string, number> = {
  '.nan': NaN, '.NaN': NaN, '.NAN': NaN,
  '.inf': Infinity, '.Inf': Infinity, '.INF': Infinity,
  '+.inf': Infinity, '+.Inf': Infinity, '+.INF': Infinity,
  '-.inf': -Infinity, '-.Inf': -Infinity, '-.INF': -Infinity,
};
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT_DEC = /^[-+]?[0-9]+$/;
const INT_HEX = /^[-+]?0[xX][0-9a-fA-F]+$/;
const INT_OCT_O = /^[-+]?0[oO][0-7]+$/;
const INT_BIN = /^[-+]?0[bB][01]+$/;
const INT_OCT_LEGACY = /^[-+]?0[0-7]+$/;
const GO_FLOAT_DOT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;

function parseGoInt(s: string): number | undefined {
  // strconv.ParseInt(s, 0, 64) / ParseUint: sign, then 0x / 0o / 0b / 0 (octal) / decimal.
  let sign = 1;
  let body = s;
  if (body[0] === '+' || body[0] === '-') {
    if (body[0] === '-') sign = -1;
    body = body.slice(1);
  }
  let v: number;
  if (INT_HEX.test(s)) v = parseInt(body.slice(2), 16);
  else if (INT_OCT_O.test(s)) v = parseInt(body.slice(2), 8);
  else if (INT_BIN.test(s)) v = parseInt(body.slice(2), 2);
  else if (INT_OCT_LEGACY.test(s)) v = parseInt(body.slice(1), 8);
  else if (INT_DEC.test(s)) v = parseInt(body, 10);
  else return undefined;
  if (v > 18446744073709551615) return undefined; // beyond uint64: not an int for Go
  return sign * v;
}

/**
 * The value go-yaml v2 gives an untagged plain scalar (what sigs.k8s.io/yaml
 * then writes to JSON). Timestamps stay strings (v2 keeps them as strings when
 * decoding into interface{}).
 */
export function resolvePlainScalar(s: string): string | number | boolean | null {
  if (NULLS.has(s)) return null;
  const c = s.charCodeAt(0);
  // resolveTable hints: only these first characters can start a non-string.
  const isDigitOrSign = (c >= 48 && c <= 57) || c === 43 || c === 45; // 0-9 + -
  if (BOOL_TRUE.has(s)) return true;
  if (BOOL_FALSE.has(s)) return false;
  if (s in FLOAT_SPECIAL) return FLOAT_SPECIAL[s];
  if (c === 46 /* . */) {
    if (GO_FLOAT_DOT.test(s)) return parseFloat(s);
    return s;
  }
  if (!isDigitOrSign) return s;
  const plain = s.indexOf('_') >= 0 ? s.replace(/_/g, '') : s;
  const i = parseGoInt(plain);
  if (i !== undefined) return i;
  if (YAML_STYLE_FLOAT.test(plain)) return parseFloat(plain);
  return s;
}

/** How Go's YAMLToJSON turns a resolved map key into a JSON object key. */
function keyString(v: string | number | boolean | null): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Number.isNaN(v)) return '.nan';
  if (v === Infinity) return '.inf';
  if (v === -Infinity) return '-.inf';
  return String(v);
}

// ---------------------------------------------------------------------------
// YAML

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

  span(start: number, end: number): Span {
    return { file: this.file, range: this.lines.range(start, end) };
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
      this.problems.push(finding('config-alias', 'error', sp, `Anchor '${name}' contains itself: the alias is inside the node it refers to, so the value would be infinite (go-yaml: "anchor '${name}' value contains itself").`));
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
  return Math.round(n).toLocaleString('en-US');
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

// ---------------------------------------------------------------------------
// JSON

export interface JsonResult {
  /** Undefined when no value could be read at all. */
  root?: ConfigNode;
  problems: Finding[];
  duplicates: DuplicateKey[];
  lines: LineIndex;
}

interface Frame {
  kind: 'map' | 'seq';
  start: number;
  entries: MapEntry[];
  items: ConfigNode[];
  index: Map<string, number>;
  dead: number;
  /** Object: key waiting for its value. */
  key?: string;
  keySpan?: Span;
  /** 0 expect key/value or close, 1 expect ':' (object), 2 expect value, 3 expect ',' or close */
  state: number;
  sawComma: boolean;
  /** Object: a value is being read only to stay in sync after a syntax error (no key): it is dropped, not an entry "". */
  orphan?: boolean;
}

function tokenName(k: SyntaxKind, text: string): string {
  switch (k) {
    case SyntaxKind.OpenBraceToken: return "'{'";
    case SyntaxKind.CloseBraceToken: return "'}'";
    case SyntaxKind.OpenBracketToken: return "'['";
    case SyntaxKind.CloseBracketToken: return "']'";
    case SyntaxKind.CommaToken: return "','";
    case SyntaxKind.ColonToken: return "':'";
    case SyntaxKind.StringLiteral: return 'a string';
    case SyntaxKind.NumericLiteral: return 'a number';
    case SyntaxKind.TrueKeyword:
    case SyntaxKind.FalseKeyword: return 'a boolean';
    case SyntaxKind.NullKeyword: return 'null';
    case SyntaxKind.EOF: return 'the end of the file';
    case SyntaxKind.LineCommentTrivia:
    case SyntaxKind.BlockCommentTrivia: return 'a comment (JSON has no comments)';
    default: return `'${text.slice(0, 20)}'`;
  }
}

const SCAN_ERRORS: Record<number, string> = {
  [ScanError.InvalidUnicode]: 'invalid \\u escape in a string',
  [ScanError.InvalidEscapeCharacter]: 'invalid escape character in a string',
  [ScanError.UnexpectedEndOfString]: 'the string is not closed (missing ")',
  [ScanError.UnexpectedEndOfNumber]: 'the number is incomplete',
  [ScanError.UnexpectedEndOfComment]: 'the comment is not closed',
  [ScanError.InvalidCharacter]: 'invalid control character in a string',
};

/**
 * Parse JSON as Go's encoding/json does (strict: no comments, no trailing
 * commas, one top-level value), iteratively. Recovers from common mistakes
 * (missing comma, trailing comma) so the rest of the file still yields values.
 * A leading BOM is skipped.
 */
export function parseJsonText(file: string, text: string, lines: LineIndex = new LineIndex(text)): JsonResult {
  const problems: Finding[] = [];
  const duplicates: DuplicateKey[] = [];
  const sc = createScanner(text, false);
  const sp = (s: number, e: number): Span => ({ file, range: lines.range(s, e) });
  const err = (s: number, e: number, msg: string) => problems.push(finding('config-syntax', 'error', sp(s, e), msg));
  if (text.charCodeAt(0) === 0xfeff) sc.setPosition(1);
  const stack: Frame[] = [];
  let root: ConfigNode | undefined;
  let done = false;
  let depthCut = false;

  const next = (): SyntaxKind => {
    for (;;) {
      const k = sc.scan();
      if (k === SyntaxKind.Trivia || k === SyntaxKind.LineBreakTrivia) continue;
      if (k === SyntaxKind.LineCommentTrivia || k === SyntaxKind.BlockCommentTrivia) {
        err(sc.getTokenOffset(), sc.getTokenOffset() + sc.getTokenLength(), 'JSON does not allow comments (Go\'s encoding/json rejects them).');
        continue;
      }
      const e = sc.getTokenError();
      if (e !== ScanError.None) {
        const o = sc.getTokenOffset();
        err(o, o + sc.getTokenLength(), `JSON syntax error: ${SCAN_ERRORS[e] ?? 'invalid token'}.`);
      }
      return k;
    }
  };

  const attach = (v: ConfigNode) => {
    const top = stack[stack.length - 1];
    if (!top) {
      root = v;
      done = true;
      return;
    }
    if (top.kind === 'seq') {
      top.items.push(v);
      top.state = 3;
    } else if (top.orphan) {
      top.orphan = false;
      top.key = undefined;
      top.keySpan = undefined;
      top.state = 3;
    } else {
      const key = top.key ?? '';
      const keySpan = top.keySpan ?? v.span;
      const prev = top.index.get(key);
      if (prev !== undefined) {
        duplicates.push({ key, first: top.entries[prev].keySpan, second: keySpan });
        (top.entries as (MapEntry | undefined)[])[prev] = undefined;
        top.dead++;
      }
      top.index.set(key, top.entries.length);
      top.entries.push({ key, keySpan, value: v });
      top.key = undefined;
      top.keySpan = undefined;
      top.state = 3;
    }
  };

  const close = (end: number) => {
    const f = stack.pop()!;
    const s = sp(f.start, end);
    const node: ConfigNode =
      f.kind === 'map'
        ? { kind: 'map', entries: f.dead ? f.entries.filter((e) => e !== undefined) : f.entries, span: s }
        : { kind: 'seq', items: f.items, span: s };
    attach(node);
  };

  let k = next();
  while (k !== SyntaxKind.EOF) {
    const o = sc.getTokenOffset();
    const len = sc.getTokenLength();
    const top = stack[stack.length - 1];
    if (done) {
      err(o, o + len, `Only one JSON value is allowed per file, but another value starts here after the first one ended (Go: "invalid character after top-level value"). Merge the two objects into one.`);
      break;
    }
    if (top && top.kind === 'map' && (top.state === 0 || top.state === 3)) {
      if (k === SyntaxKind.CloseBraceToken) {
        if (top.sawComma && top.state === 0) err(o, o + len, "Trailing comma before '}': JSON does not allow it.");
        close(o + len);
      } else if (k === SyntaxKind.CommaToken && top.state === 3) {
        top.state = 0;
        top.sawComma = true;
      } else if (k === SyntaxKind.StringLiteral) {
        if (top.state === 3) {
          const prevKey = top.entries.length ? top.entries[top.entries.length - 1]?.key : undefined;
          err(o, o + len, `Missing comma: expected ',' or '}' after ${prevKey !== undefined ? `the value of "${prevKey}"` : 'the previous value'}, found a string.`);
        }
        top.key = sc.getTokenValue();
        top.keySpan = sp(o, o + len);
        top.state = 1;
      } else if (k === SyntaxKind.CloseBracketToken) {
        err(o, o + len, "Unexpected ']': an object is closed with '}'.");
        close(o);
      } else {
        err(o, o + len, `Expected ${top.state === 3 ? "',' or '}'" : "a property name in double quotes or '}'"}, found ${tokenName(k, sc.getTokenValue())}.`);
        if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) {
          // treat as a value without key to stay in sync
          top.orphan = true;
          top.state = 2;
          continue;
        }
      }
      k = next();
      continue;
    }
    if (top && top.kind === 'map' && top.state === 1) {
      if (k === SyntaxKind.ColonToken) {
        top.state = 2;
        k = next();
      } else {
        err(o, o + len, `Expected ':' after the property name "${top.key}", found ${tokenName(k, sc.getTokenValue())}.`);
        top.state = 2; // recover: read the value
      }
      continue;
    }
    if (top && top.kind === 'seq' && top.state === 3) {
      if (k === SyntaxKind.CommaToken) {
        top.state = 0;
        top.sawComma = true;
        k = next();
        continue;
      }
      if (k === SyntaxKind.CloseBracketToken) {
        close(o + len);
        k = next();
        continue;
      }
      if (k === SyntaxKind.CloseBraceToken) {
        err(o, o + len, "Unexpected '}': a list is closed with ']'.");
        close(o);
        k = next();
        continue;
      }
      err(o, o + len, `Missing comma: expected ',' or ']' after a list item, found ${tokenName(k, sc.getTokenValue())}.`);
      top.state = 0;
      continue;
    }
    if (top && top.kind === 'seq' && top.state === 0 && k === SyntaxKind.CloseBracketToken) {
      if (top.sawComma) err(o, o + len, "Trailing comma before ']': JSON does not allow it.");
      close(o + len);
      k = next();
      continue;
    }
    // expecting a value
    switch (k) {
      case SyntaxKind.OpenBraceToken:
      case SyntaxKind.OpenBracketToken:
        if (stack.length >= MAX_DEPTH * 10) {
          if (!depthCut) err(o, o + len, `Nesting is deeper than ${MAX_DEPTH * 10} levels; the analyzer stops reading here.`);
          depthCut = true;
          k = SyntaxKind.EOF;
          continue;
        }
        stack.push({
          kind: k === SyntaxKind.OpenBraceToken ? 'map' : 'seq',
          start: o, entries: [], items: [], index: new Map(), dead: 0, state: 0, sawComma: false,
        });
        break;
      case SyntaxKind.StringLiteral: {
        const v = sc.getTokenValue();
        attach({ kind: 'scalar', value: v, source: v, span: sp(o, o + len) });
        break;
      }
      case SyntaxKind.NumericLiteral: {
        const raw = text.slice(o, o + len);
        if (/^-?0[0-9]/.test(raw)) err(o, o + len, `Invalid number ${raw}: JSON numbers cannot have leading zeros.`);
        attach({ kind: 'scalar', value: Number(raw), source: raw, span: sp(o, o + len) });
        break;
      }
      case SyntaxKind.TrueKeyword:
      case SyntaxKind.FalseKeyword:
      case SyntaxKind.NullKeyword: {
        const raw = text.slice(o, o + len);
        attach({ kind: 'scalar', value: k === SyntaxKind.NullKeyword ? null : k === SyntaxKind.TrueKeyword, source: raw, span: sp(o, o + len) });
        break;
      }
      default: {
        const what = tokenName(k, text.slice(o, o + len));
        err(o, o + Math.max(len, 1), `Expected a value (string, number, true, false, null, object or list), found ${what}.`);
        if (top && (k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken)) {
          if (top.kind === 'map') { top.key = undefined; top.state = 3; } else top.state = 3;
          continue; // let the container handle its close
        }
        if (top && k === SyntaxKind.CommaToken) {
          top.state = top.kind === 'map' ? 0 : 0;
          if (top.kind === 'map') top.key = undefined;
        }
        if (!top && (k === SyntaxKind.Unknown || k === SyntaxKind.CommaToken || k === SyntaxKind.ColonToken)) {
          // garbage before any value: give up on the file
          k = SyntaxKind.EOF;
          continue;
        }
      }
    }
    k = next();
  }
  if (!done && !depthCut) {
    const end = text.length;
    if (stack.length || root === undefined) {
      err(end, end, stack.length
        ? `Unexpected end of file: ${stack.length} ${stack.length === 1 ? 'object or list is' : 'objects or lists are'} not closed.`
        : 'The file holds no JSON value.');
    }
  }
  // Close what remains so the values read so far are still available.
  while (stack.length) close(text.length);
  return { root, problems, duplicates, lines };
}

// ---------------------------------------------------------------------------
// helpers for consumers

/** Entry of a map by key (the effective one: duplicates were already reduced to the last). */
export function getEntry(m: MapNode, key: string): MapEntry | undefined {
  const es = m.entries;
  for (let i = es.length - 1; i >= 0; i--) if (es[i].key === key) return es[i];
  return undefined;
}

/** String value of a scalar entry, or undefined. */
export function getString(m: MapNode, key: string): string | undefined {
  const e = getEntry(m, key);
  return e && e.value.kind === 'scalar' && typeof e.value.value === 'string' ? e.value.value : undefined;
}
