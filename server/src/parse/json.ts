/**
 * JSON text -> ConfigNode tree with exact source spans: an iterative parser
 * over jsonc-parser's scanner (jsonc-parser's own parseTree recurses and
 * overflows the stack on 10,000 nested arrays), strict like Go's
 * encoding/json: no comments, no trailing commas, one top-level value.
 * Duplicate keys are found with one Map per object.
 */
import { createScanner, SyntaxKind, ScanError } from 'jsonc-parser';
import { LineIndex } from '../model/range.ts';
import type { Span } from '../model/range.ts';
import { finding } from '../model/finding.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigNode, DuplicateKey, MapEntry, MapNode } from './types.ts';
import { MAX_DEPTH } from './yaml-scalar.ts';

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
      err(o, o + len, `A second JSON value starts here; only one is allowed per file. The first one ended before it (Go: "invalid character after top-level value"). Merge the two objects into one.`);
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
          top.state = 0;
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
