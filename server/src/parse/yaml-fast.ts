/**
 * The fast YAML reader: block-style YAML (what kubelet and kubeadm configs
 * almost always are) read in one pass, with the result parse/yaml-document.ts
 * gives for the same text, ranges included.
 *
 * It is a transcription of the `yaml` library's own pipeline (v2: lexer.js,
 * parser.js, compose/*) restricted to what such files contain: block mappings
 * and sequences, plain and quoted scalars on one line, the empty flow
 * collections `[]` and `{}` as values, comments, blank lines and `---`
 * between documents. Where the library places whitespace and
 * comments (item start, separator, node end; "indented comments"; the trailing
 * item a collection hands to its parent) decides the ranges of mappings,
 * sequences, empty values and documents, so those rules are ported as they
 * are, token for token. Scalars are typed by yaml-scalar.ts like the other
 * reader does.
 *
 * Anything outside that subset, and anything the library would report as an
 * error, makes the reader give up (`undefined`): the caller then uses the
 * general reader, so results never depend on which reader ran. Giving up is
 * cheap (it happens at the first such character). The subset: no tabs, CRs,
 * BOM or other control characters; no flow collections other than `[]` and
 * `{}`; no anchors, aliases, tags, block scalars, explicit keys, directives or
 * `...`; no multi-line or escaped (backslash) scalars; no `<<` keys; no scalar
 * document roots.
 * test/unit/yaml-fast.test.ts compares the two readers on the corpus and on
 * generated text.
 */
import type { LineIndex, Span } from '../model/range.ts';
import { LazySpan } from '../model/lazy-span.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigNode, MapEntry, MapNode, ScalarNode, SeqNode } from './types.ts';
import type { ConvertedDoc, DuplicateKey, YamlStreamResult } from './yamljson.ts';
import { keyString, resolvePlainScalar } from './yaml-scalar.ts';

// Token types (the library's names in comments).
const SPACE = 0; // space
const COMMENT = 1; // comment
const NEWLINE = 2; // newline
const SEQ_IND = 3; // seq-item-ind
const MAP_IND = 4; // map-value-ind
const DOC_START = 5; // doc-start
const DOC_MODE = 6; // doc-mode (a document starts; no text)
const PLAIN = 7; // scalar
const SQUOTE = 8; // single-quoted-scalar
const DQUOTE = 9; // double-quoted-scalar
/** `[]` and `{}`: a flow-collection with no items, as one token whose `end` starts with the closing bracket. */
const EMPTY_SEQ = 10;
const EMPTY_MAP = 11;
// CST nodes.
const BLOCK_MAP = 20;
const BLOCK_SEQ = 21;
const DOCUMENT = 22;

/** Thrown (and caught in readYamlFast) when the text leaves the subset. */
const GIVE_UP = { giveUp: true };

/** A lexical token; scalar tokens collect the tokens after them on their line in `end`. */
class Tok {
  end: Tok[] | undefined = undefined;
  constructor(
    readonly type: number,
    readonly offset: number,
    readonly len: number,
    readonly indent: number,
  ) {}
}

class Item {
  constructor(
    public start: Tok[],
    public key: Tok | Coll | undefined = undefined,
    public sep: Tok[] | undefined = undefined,
    public value: Tok | Coll | undefined = undefined,
  ) {}
}

class Coll {
  constructor(
    readonly type: number, // BLOCK_MAP | BLOCK_SEQ
    readonly offset: number,
    readonly indent: number,
    readonly items: Item[],
  ) {}
}

class Doc {
  readonly type = DOCUMENT;
  value: Tok | Coll | undefined = undefined;
  end: Tok[] | undefined = undefined;
  constructor(
    readonly offset: number,
    readonly start: Tok[],
  ) {}
}

type StackEntry = Doc | Coll | Tok;

const isEmptyFlow = (t: number): boolean => t === EMPTY_SEQ || t === EMPTY_MAP;
const isTrivia = (t: number): boolean => t === SPACE || t === COMMENT || t === NEWLINE;

function findNonEmptyIndex(list: Tok[]): number {
  for (let i = 0; i < list.length; ++i) if (!isTrivia(list[i].type)) return i;
  return -1;
}

function includesToken(list: Tok[], type: number): boolean {
  for (let i = 0; i < list.length; ++i) if (list[i].type === type) return true;
  return false;
}

/** parser.js getPrevProps. */
function getPrevProps(parent: StackEntry): Tok[] {
  if (parent instanceof Doc) return parent.start;
  if (parent instanceof Coll) {
    const it = parent.items[parent.items.length - 1];
    return parent.type === BLOCK_MAP ? (it.sep ?? it.start) : it.start;
  }
  return [];
}

/** parser.js getFirstKeyStartProps (modifies `prev`). */
function getFirstKeyStartProps(prev: Tok[]): Tok[] {
  if (prev.length === 0) return [];
  let i = prev.length;
  loop: while (--i >= 0) {
    switch (prev[i].type) {
      case DOC_START:
      case MAP_IND:
      case SEQ_IND:
      case NEWLINE:
        break loop;
    }
  }
  while (prev[++i]?.type === SPACE) {
    /* skip */
  }
  return prev.splice(i, prev.length);
}

/** parser.js Parser, for the token types above; an error token or an unported path gives up. */
class Parser {
  private readonly stack: StackEntry[] = [];
  private indent = 0;
  private atNewLine = true;
  private onKeyLine = false;
  private type = SPACE;
  private tok: Tok = new Tok(SPACE, 0, 0, 0);

  constructor(private readonly onDoc: (doc: Doc) => void) {}

  next(type: number, offset: number, len: number): void {
    this.type = type;
    if (type === DOC_MODE) {
      this.tok = new Tok(type, offset, 0, this.indent);
      this.step();
      return;
    }
    if (type === PLAIN) this.atNewLine = false;
    this.tok = new Tok(type, offset, len, this.indent);
    if (type === EMPTY_SEQ || type === EMPTY_MAP) this.tok.end = [new Tok(-1, offset + 1, 1, this.indent)];
    this.step();
    switch (type) {
      case NEWLINE:
        this.atNewLine = true;
        this.indent = 0;
        break;
      case SPACE:
      case SEQ_IND:
      case MAP_IND:
        if (this.atNewLine) this.indent += len;
        break;
      default:
        this.atNewLine = false;
    }
  }

  end(): void {
    while (this.stack.length > 0) this.pop();
  }

  private peek(n: number): StackEntry | undefined {
    return this.stack[this.stack.length - n];
  }

  private step(): void {
    const top = this.peek(1);
    if (!top) return this.stream();
    if (top instanceof Doc) return this.document(top);
    if (top instanceof Coll) return top.type === BLOCK_MAP ? this.blockMap(top) : this.blockSequence(top);
    return this.scalar(top);
  }

  private pop(): void {
    const token = this.stack.pop()!;
    if (this.stack.length === 0) {
      if (!(token instanceof Doc)) throw GIVE_UP;
      this.onDoc(token);
      return;
    }
    if (token instanceof Doc) throw GIVE_UP;
    const top = this.peek(1)!;
    if (top instanceof Doc) {
      top.value = token;
    } else if (top instanceof Coll) {
      const it = top.items[top.items.length - 1];
      if (top.type === BLOCK_MAP) {
        if (it.value) {
          top.items.push(new Item([], token, []));
          this.onKeyLine = true;
          return;
        } else if (it.sep) {
          it.value = token;
        } else {
          it.key = token;
          it.sep = [];
          this.onKeyLine = true;
          return;
        }
      } else {
        if (it.value) top.items.push(new Item([], undefined, undefined, token));
        else it.value = token;
      }
    } else throw GIVE_UP;
    if (token instanceof Coll) {
      const last = token.items[token.items.length - 1];
      if (
        last &&
        !last.sep &&
        !last.value &&
        last.start.length > 0 &&
        findNonEmptyIndex(last.start) === -1 &&
        (token.indent === 0 || last.start.every((st) => st.type !== COMMENT || st.indent < token.indent))
      ) {
        if (top instanceof Doc) top.end = last.start;
        else (top as Coll).items.push(new Item(last.start));
        token.items.splice(-1, 1);
      }
    }
  }

  private stream(): void {
    switch (this.type) {
      case SPACE:
      case COMMENT:
      case NEWLINE:
        return; // stream-level trivia: no part of any document
      case DOC_MODE:
      case DOC_START: {
        const doc = new Doc(this.tok.offset, []);
        if (this.type === DOC_START) doc.start.push(this.tok);
        this.stack.push(doc);
        return;
      }
    }
    throw GIVE_UP;
  }

  private document(doc: Doc): void {
    if (doc.value) return this.lineEnd(doc);
    switch (this.type) {
      case DOC_START:
        if (findNonEmptyIndex(doc.start) !== -1) {
          this.pop();
          this.step();
        } else doc.start.push(this.tok);
        return;
      case SPACE:
      case COMMENT:
      case NEWLINE:
        doc.start.push(this.tok);
        return;
    }
    const bv = this.startBlockValue();
    if (!bv) throw GIVE_UP;
    this.stack.push(bv);
  }

  private scalar(scalar: Tok): void {
    if (this.type === MAP_IND) {
      if (isEmptyFlow(scalar.type)) throw GIVE_UP; // a flow collection as a key
      const prev = getPrevProps(this.peek(2)!);
      const start = getFirstKeyStartProps(prev);
      let sep: Tok[];
      if (scalar.end) {
        sep = scalar.end;
        sep.push(this.tok);
        scalar.end = undefined;
      } else sep = [this.tok];
      const map = new Coll(BLOCK_MAP, scalar.offset, scalar.indent, [new Item(start, scalar, sep)]);
      this.onKeyLine = true;
      this.stack[this.stack.length - 1] = map;
    } else this.lineEnd(scalar);
  }

  private lineEnd(token: Tok | Doc): void {
    switch (this.type) {
      case DOC_START:
      case MAP_IND:
        this.pop();
        this.step();
        return;
      case NEWLINE:
        this.onKeyLine = false;
        (token.end ??= []).push(this.tok);
        this.pop();
        return;
      case SPACE:
      case COMMENT:
        (token.end ??= []).push(this.tok);
        return;
    }
    throw GIVE_UP; // "Unexpected ... at node end"
  }

  private startBlockValue(): Tok | Coll | null {
    switch (this.type) {
      case PLAIN:
      case SQUOTE:
      case DQUOTE:
      case EMPTY_SEQ:
      case EMPTY_MAP:
        return this.tok;
      case SEQ_IND:
        return new Coll(BLOCK_SEQ, this.tok.offset, this.indent, [new Item([this.tok])]);
      case MAP_IND:
        throw GIVE_UP; // a mapping with an empty first key
    }
    return null;
  }

  private atIndentedComment(start: Tok[], indent: number): boolean {
    if (this.type !== COMMENT) return false;
    if (this.indent <= indent) return false;
    return start.every((st) => st.type === NEWLINE || st.type === SPACE);
  }

  private blockMap(map: Coll): void {
    const it = map.items[map.items.length - 1];
    switch (this.type) {
      case NEWLINE:
        this.onKeyLine = false;
        if (it.value) {
          const end = it.value instanceof Tok ? it.value.end : undefined;
          const last = end ? end[end.length - 1] : undefined;
          if (last?.type === COMMENT) end!.push(this.tok);
          else map.items.push(new Item([this.tok]));
        } else if (it.sep) {
          it.sep.push(this.tok);
        } else {
          it.start.push(this.tok);
        }
        return;
      case SPACE:
      case COMMENT:
        if (it.value) {
          map.items.push(new Item([this.tok]));
        } else if (it.sep) {
          it.sep.push(this.tok);
        } else {
          if (this.atIndentedComment(it.start, map.indent)) {
            const prev = map.items[map.items.length - 2];
            const end = prev?.value instanceof Tok ? prev.value.end : undefined;
            if (end) {
              for (const st of it.start) end.push(st);
              end.push(this.tok);
              map.items.pop();
              return;
            }
          }
          it.start.push(this.tok);
        }
        return;
    }
    if (this.indent >= map.indent) {
      const atMapIndent = !this.onKeyLine && this.indent === map.indent;
      const atNextItem = atMapIndent && !!it.sep && this.type !== SEQ_IND;
      // For empty nodes, assign newline-separated not indented empty tokens to following node
      let start: Tok[] = [];
      if (atNextItem && it.sep && !it.value) {
        const nl: number[] = [];
        for (let i = 0; i < it.sep.length; ++i) {
          const st = it.sep[i];
          switch (st.type) {
            case NEWLINE:
              nl.push(i);
              break;
            case SPACE:
              break;
            case COMMENT:
              if (st.indent > map.indent) nl.length = 0;
              break;
            default:
              nl.length = 0;
          }
        }
        if (nl.length >= 2) start = it.sep.splice(nl[1]);
      }
      switch (this.type) {
        case MAP_IND:
          if (!it.sep) throw GIVE_UP; // empty key
          else if (it.value || atNextItem) throw GIVE_UP; // empty key
          else if (includesToken(it.sep, MAP_IND)) throw GIVE_UP; // `a: : b`
          else it.sep.push(this.tok);
          this.onKeyLine = true;
          return;
        case PLAIN:
        case SQUOTE:
        case DQUOTE: {
          const fs = this.tok;
          if (atNextItem || it.value) {
            map.items.push(new Item(start, fs, []));
            this.onKeyLine = true;
          } else if (it.sep) {
            this.stack.push(fs);
          } else {
            it.key = fs;
            it.sep = [];
            this.onKeyLine = true;
          }
          return;
        }
        case EMPTY_SEQ:
        case EMPTY_MAP:
          // parser.js takes these through startBlockValue; as a value (after `key:` on its line) that is a push
          if (atNextItem || it.value || !it.sep) throw GIVE_UP; // a flow collection as a key
          this.stack.push(this.tok);
          return;
        default: {
          const bv = this.startBlockValue();
          if (bv) {
            if (bv instanceof Coll && bv.type === BLOCK_SEQ) {
              if (it.sep && !includesToken(it.sep, NEWLINE)) throw GIVE_UP; // "Unexpected block-seq-ind on same line with key"
            } else if (atMapIndent) {
              map.items.push(new Item(start));
            }
            this.stack.push(bv);
            return;
          }
        }
      }
    }
    this.pop();
    this.step();
  }

  private blockSequence(seq: Coll): void {
    const it = seq.items[seq.items.length - 1];
    switch (this.type) {
      case NEWLINE:
        if (it.value) {
          const end = it.value instanceof Tok ? it.value.end : undefined;
          const last = end ? end[end.length - 1] : undefined;
          if (last?.type === COMMENT) end!.push(this.tok);
          else seq.items.push(new Item([this.tok]));
        } else it.start.push(this.tok);
        return;
      case SPACE:
      case COMMENT:
        if (it.value) seq.items.push(new Item([this.tok]));
        else {
          if (this.atIndentedComment(it.start, seq.indent)) {
            const prev = seq.items[seq.items.length - 2];
            const end = prev?.value instanceof Tok ? prev.value.end : undefined;
            if (end) {
              for (const st of it.start) end.push(st);
              end.push(this.tok);
              seq.items.pop();
              return;
            }
          }
          it.start.push(this.tok);
        }
        return;
      case SEQ_IND:
        if (this.indent !== seq.indent) break;
        if (it.value || includesToken(it.start, SEQ_IND)) seq.items.push(new Item([this.tok]));
        else it.start.push(this.tok);
        return;
    }
    if (this.indent > seq.indent) {
      const bv = this.startBlockValue();
      if (bv) {
        this.stack.push(bv);
        return;
      }
    }
    this.pop();
    this.step();
  }
}

// ---------------------------------------------------------------------------
// lexer.js, for the subset: one physical line at a time.

const SP = 32;
const NL = 10;
const HASH = 35;

/** lexer.js isEmpty, for text without tabs and CRs. */
const isEmptyAt = (text: string, i: number): boolean => i >= text.length || text.charCodeAt(i) === SP || text.charCodeAt(i) === NL;

/** Characters that never occur in the subset (tabs, CR, other C0/C1 controls, DEL, NEL, LS, PS, BOM). */
function hasForeignChars(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32) {
      if (c !== NL) return true;
    } else if (c >= 127) {
      if (c <= 159 || c === 0x2028 || c === 0x2029 || c === 0xfeff) return true;
    }
  }
  return false;
}

function lex(text: string, p: Parser): void {
  const n = text.length;
  let pos = 0;
  let inDoc = false;
  let indentNext = 0;
  let indentValue = 0;
  while (pos < n) {
    let eol = text.indexOf('\n', pos);
    if (eol < 0) eol = n;
    const c0 = text.charCodeAt(pos);
    if (!inDoc) {
      // parseStream
      if (c0 === 37 /* % */) throw GIVE_UP;
      let i = pos;
      while (i < eol && text.charCodeAt(i) === SP) i++;
      if (i === eol || text.charCodeAt(i) === HASH) {
        if (i > pos) p.next(SPACE, pos, i - pos);
        if (eol > i) p.next(COMMENT, i, eol - i);
        if (eol < n) p.next(NEWLINE, eol, 1);
        pos = eol + 1;
        continue;
      }
      p.next(DOC_MODE, pos, 0);
      inDoc = true;
    }
    // parseLineStart
    if ((c0 === 45 /* - */ || c0 === 46) /* . */ && eol - pos >= 3 && text.charCodeAt(pos + 1) === c0 && text.charCodeAt(pos + 2) === c0) {
      // `---`, `...` and lines starting like them: only a bare `---` line is in the subset
      if (c0 !== 45 || eol !== pos + 3) throw GIVE_UP;
      p.next(DOC_START, pos, 3);
      indentValue = 0;
      indentNext = 0;
      if (eol < n) p.next(NEWLINE, eol, 1);
      pos = eol + 1;
      continue;
    }
    let i = pos;
    while (i < eol && text.charCodeAt(i) === SP) i++;
    indentValue = i - pos;
    if (indentValue > 0) p.next(SPACE, pos, indentValue);
    if (indentNext > indentValue && !isEmptyAt(text, i + 1)) indentNext = indentValue;
    // parseBlockStart
    {
      const c = text.charCodeAt(i);
      if ((c === 45 || c === 63 /* ? */ || c === 58) /* : */ && i < eol && isEmptyAt(text, i + 1)) {
        if (c !== 45) throw GIVE_UP; // explicit key, or a key-less value
        p.next(SEQ_IND, i, 1);
        let s = i + 1;
        while (s < eol && text.charCodeAt(s) === SP) s++;
        if (s > i + 1) p.next(SPACE, i + 1, s - i - 1);
        indentNext = indentValue + 1;
        indentValue += s - i;
        i = s;
        const d = text.charCodeAt(i);
        if ((d === 45 || d === 63 || d === 58) && i < eol && isEmptyAt(text, i + 1)) throw GIVE_UP; // `- - a`, `- ? a`
      }
    }
    // parseDocument, repeated until the end of the line
    let afterScalar = false;
    for (;;) {
      // pushSpaces
      let s = i;
      while (s < eol && text.charCodeAt(s) === SP) s++;
      if (s > i) p.next(SPACE, i, s - i);
      const spaced = s > i;
      i = s;
      // pushIndicators
      while (i < eol) {
        const c = text.charCodeAt(i);
        if (c === 33 /* ! */ || c === 38 /* & */) throw GIVE_UP;
        if ((c === 45 || c === 63 || c === 58) && isEmptyAt(text, i + 1)) {
          if (c !== 58) throw GIVE_UP; // `- ` or `? ` inside a line
          p.next(MAP_IND, i, 1);
          indentNext = indentValue + 1;
          i++;
          s = i;
          while (s < eol && text.charCodeAt(s) === SP) s++;
          if (s > i) p.next(SPACE, i, s - i);
          i = s;
          afterScalar = false;
          continue;
        }
        break;
      }
      if (i >= eol) break;
      const c = text.charCodeAt(i);
      if (c === HASH) {
        if (afterScalar && !spaced) throw GIVE_UP; // a comment glued to a quoted scalar
        p.next(COMMENT, i, eol - i);
        break;
      }
      if (afterScalar) throw GIVE_UP; // a second scalar on the line
      if ((c === 91 /* [ */ && text.charCodeAt(i + 1) === 93) /* ] */ || (c === 123 /* { */ && text.charCodeAt(i + 1) === 125) /* } */) {
        // `[]` / `{}`: flow-seq-start / flow-map-start, then its end token
        p.next(c === 91 ? EMPTY_SEQ : EMPTY_MAP, i, 1);
        i += 2;
        if (i < eol && text.charCodeAt(i) !== SP) throw GIVE_UP;
        afterScalar = true;
        continue;
      }
      switch (c) {
        case 123: // {
        case 91: // [
        case 125: // }
        case 93: // ]
        case 42: // *
        case 124: // |
        case 62: // >
        case 44: // ,  (plain scalars cannot start with these four: BAD_SCALAR_START)
        case 37: // %
        case 64: // @
        case 96: // `
          throw GIVE_UP;
        case 34: // "
        case 39: {
          // '
          let end = text.indexOf(c === 34 ? '"' : "'", i + 1);
          if (c === 39) while (end !== -1 && text.charCodeAt(end + 1) === 39) end = text.indexOf("'", end + 2);
          if (end === -1 || end >= eol) throw GIVE_UP; // unclosed, or spans lines
          if (c === 34 && text.lastIndexOf('\\', end) > i) throw GIVE_UP; // escapes
          p.next(c === 34 ? DQUOTE : SQUOTE, i, end + 1 - i);
          i = end + 1;
          if (i < eol && text.charCodeAt(i) !== SP && !(text.charCodeAt(i) === 58 && isEmptyAt(text, i + 1))) throw GIVE_UP;
          afterScalar = true;
          continue;
        }
      }
      // parsePlainScalar (block context)
      let end = i - 1;
      let j = i;
      for (; j < eol; j++) {
        const ch = text.charCodeAt(j);
        if (ch === 58) {
          if (isEmptyAt(text, j + 1)) break;
          end = j;
        } else if (ch === SP) {
          if (text.charCodeAt(j + 1) === HASH) break;
        } else end = j;
      }
      if (j === eol && eol < n) {
        // lexer.js continueScalar: would the scalar go on on a later line?
        if (indentNext <= 0) throw GIVE_UP;
        let k = eol;
        for (;;) {
          if (text.charCodeAt(k + 1) === HASH) break;
          let ind = 0;
          while (text.charCodeAt(k + 1 + ind) === SP) ind++;
          const at = k + 1 + ind;
          if (at >= n) break;
          if (text.charCodeAt(at) === NL) {
            k = at;
            continue;
          }
          if (ind >= indentNext && text.charCodeAt(at) !== HASH) throw GIVE_UP; // a multi-line plain scalar
          break;
        }
      }
      p.next(PLAIN, i, end + 1 - i);
      i = end + 1;
      afterScalar = true;
    }
    if (eol < n) p.next(NEWLINE, eol, 1);
    pos = eol + 1;
  }
  p.end();
}

// ---------------------------------------------------------------------------
// compose/*, for the subset, building ConfigNode trees directly (what
// yaml-document.ts makes of the library's nodes).

interface Props {
  found: Tok | null;
  end: number;
  comment: boolean;
  hasNewline: boolean;
}

/** compose/resolve-props.js: where the props end, the indicator, and whether there are comments or newlines. */
function resolveProps(tokens: Tok[], indicator: number, offset: number, startOnNewline: boolean): Props {
  let hasSpace = startOnNewline;
  let comment = false;
  let hasNewline = false;
  let found: Tok | null = null;
  for (const token of tokens) {
    switch (token.type) {
      case SPACE:
        hasSpace = true;
        break;
      case COMMENT:
        if (!hasSpace) throw GIVE_UP; // "Comments must be separated from other tokens by white space characters"
        comment = true;
        break;
      case NEWLINE:
        hasNewline = true;
        hasSpace = true;
        break;
      default:
        if (token.type !== indicator || found) throw GIVE_UP; // "Unexpected ... token"
        found = token;
        hasSpace = false;
    }
  }
  const last = tokens[tokens.length - 1];
  return { found, end: last ? last.offset + last.len : offset, comment, hasNewline };
}

/** compose/util-empty-scalar-position.js. */
function emptyScalarPosition(offset: number, before: Tok[]): number {
  for (let i = before.length - 1; i >= 0; --i) {
    let st: Tok | undefined = before[i];
    if (isTrivia(st.type)) {
      offset -= st.len;
      continue;
    }
    st = before[++i];
    while (st?.type === SPACE) {
      offset += st.len;
      st = before[++i];
    }
    break;
  }
  return offset;
}

class Composer {
  /** Third range value (`range[2]`, the end of the node's trailing trivia) of the node composed last. */
  private r2 = 0;
  duplicates: DuplicateKey[] = [];

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly lines: LineIndex,
  ) {}

  span(start: number, end: number): Span {
    // The text has no \r (hasForeignChars), so the LineIndex's positions are the plain line/column ones.
    return new LazySpan(this.file, this.lines, start, end);
  }

  doc(doc: Doc, index: number): ConvertedDoc {
    this.duplicates = [];
    const props = resolveProps(doc.start, DOC_START, doc.offset, true);
    let root: ConfigNode | undefined;
    let contentEnd: number;
    if (doc.value) {
      if (!(doc.value instanceof Coll)) throw GIVE_UP; // a scalar document
      if (props.found && !props.hasNewline) throw GIVE_UP; // "Block collection cannot start on same line with directives-end marker"
      root = this.collection(doc.value, 0);
      contentEnd = this.r2;
    } else {
      // an empty document: an empty plain scalar, which the converter leaves out
      const at = emptyScalarPosition(props.end, doc.start);
      contentEnd = props.comment ? props.end : at;
    }
    return { root, span: this.span(doc.offset, contentEnd), index, duplicates: this.duplicates };
  }

  private node(token: Tok | Coll, depth: number): ConfigNode {
    if (token instanceof Coll) return this.collection(token, depth);
    if (isEmptyFlow(token.type)) {
      // compose/resolve-flow-collection.js: [offset, after the bracket, after the trailing trivia]
      let r2 = token.offset + 1;
      for (const st of token.end!) r2 += st.len;
      this.r2 = r2;
      const span = this.span(token.offset, token.offset + 2);
      return token.type === EMPTY_SEQ ? { kind: 'seq', items: [], span } : { kind: 'map', entries: [], span };
    }
    return this.scalar(token);
  }

  private collection(c: Coll, depth: number): MapNode | SeqNode {
    if (depth > 200) throw GIVE_UP; // the general reader cuts deep nesting with a problem
    return c.type === BLOCK_MAP ? this.blockMap(c, depth) : this.blockSeq(c, depth);
  }

  private scalar(t: Tok): ScalarNode {
    const o = t.offset;
    const valueEnd = o + t.len;
    let r2 = valueEnd;
    if (t.end) for (const st of t.end) r2 += st.len;
    this.r2 = r2;
    const text = this.text;
    let source: string;
    let value: string | number | boolean | null;
    if (t.type === PLAIN) {
      source = text.slice(o, valueEnd);
      value = resolvePlainScalar(source);
    } else {
      source = text.slice(o + 1, valueEnd - 1);
      if (t.type === SQUOTE && source.indexOf("''") !== -1) source = source.replace(/''/g, "'");
      value = source;
    }
    return { kind: 'scalar', value, source, span: this.span(o, valueEnd) };
  }

  private empty(offset: number, before: Tok[], props: Props): ScalarNode {
    const at = emptyScalarPosition(offset, before);
    this.r2 = props.comment ? props.end : at;
    return { kind: 'scalar', value: null, source: '', span: this.span(at, at) };
  }

  private blockMap(bm: Coll, depth: number): MapNode {
    let offset = bm.offset;
    let commentEnd: number | null = null;
    const entries: MapEntry[] = [];
    // Duplicate keys: a linear scan while the mapping is small, then one Map (O(n) either way).
    let index: Map<string, number> | undefined;
    let dead = 0;
    for (const item of bm.items) {
      const { start, key, sep, value } = item;
      const keyProps = resolveProps(start, -1, offset, true);
      if (key) {
        if (key instanceof Coll || isEmptyFlow(key.type)) throw GIVE_UP; // a collection as a key
        if (key.indent !== bm.indent) throw GIVE_UP; // "All mapping items must start at the same column"
      }
      if (!sep) {
        commentEnd = keyProps.end;
        continue;
      }
      if (!key) throw GIVE_UP; // an empty key
      if (key.end && includesToken(key.end, NEWLINE)) throw GIVE_UP; // "Implicit keys need to be on a single line"
      const k = this.scalar(key as Tok);
      if (k.source === '<<' && key.type === PLAIN) throw GIVE_UP; // a merge key: the general reader resolves merges
      const valueProps = resolveProps(sep, MAP_IND, this.r2, false);
      offset = valueProps.end;
      if (!valueProps.found) throw GIVE_UP; // "Implicit map keys need to be followed by map values"
      if (value instanceof Coll && value.type === BLOCK_MAP && !valueProps.hasNewline) throw GIVE_UP; // "Nested mappings are not allowed in compact mappings"
      const v = value ? this.node(value, depth + 1) : this.empty(offset, sep, valueProps);
      offset = this.r2;
      const e: MapEntry = { key: keyString(k.value), keySpan: k.span, value: v };
      let prev: number | undefined;
      if (index) prev = index.get(e.key);
      else {
        for (let i = 0; i < entries.length; i++) {
          if (entries[i]?.key === e.key) {
            prev = i;
            break;
          }
        }
        if (entries.length >= 8) {
          index = new Map();
          for (let i = 0; i < entries.length; i++) if (entries[i]) index.set(entries[i].key, i);
        }
      }
      if (prev !== undefined) {
        this.duplicates.push({ key: e.key, first: entries[prev].keySpan, second: e.keySpan });
        (entries as (MapEntry | undefined)[])[prev] = undefined;
        dead++;
      }
      index?.set(e.key, entries.length);
      entries.push(e);
    }
    if (commentEnd !== null && commentEnd < offset) throw GIVE_UP; // "Map comment with trailing content"
    this.r2 = commentEnd ?? offset;
    return { kind: 'map', entries: dead ? entries.filter((e) => e !== undefined) : entries, span: this.span(bm.offset, offset) };
  }

  private blockSeq(bs: Coll, depth: number): SeqNode {
    let offset = bs.offset;
    let commentEnd: number | null = null;
    const items: ConfigNode[] = [];
    for (const { start, value } of bs.items) {
      const props = resolveProps(start, SEQ_IND, offset, true);
      if (!props.found) {
        if (value) throw GIVE_UP; // "Sequence item without - indicator"
        commentEnd = props.end;
        continue;
      }
      items.push(value ? this.node(value, depth + 1) : this.empty(props.end, start, props));
      offset = this.r2;
    }
    this.r2 = commentEnd ?? offset;
    return { kind: 'seq', items, span: this.span(bs.offset, offset) };
  }
}

/**
 * The documents of `text`, or undefined when the text is not (entirely) in the
 * subset this reader handles: the caller then uses parse/yaml-document.ts.
 * Whatever this returns, that reader returns too.
 */
export function readYamlFast(file: string, text: string, lines: LineIndex): YamlStreamResult | undefined {
  if (hasForeignChars(text)) return undefined;
  const docs: ConvertedDoc[] = [];
  const composer = new Composer(file, text, lines);
  try {
    lex(text, new Parser((d) => docs.push(composer.doc(d, docs.length))));
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
  const problems: Finding[] = [];
  return { docs, problems, lines };
}
