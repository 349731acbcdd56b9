/**
 * Payloads held in a YAML string (the `content:` of a cloud-init write_files entry, a Butane inline): the
 * payload text with, for each of its characters, where it is written in the carrier, and how text inserted
 * there must be written. The map is rebuilt from the carrier's text and checked against the YAML library's
 * value; when they differ (a form this does not follow), every position maps to the value's start and no
 * edit is offered.
 */
import { Scalar } from 'yaml';
import type { LineIndex } from '../model/range.ts';
import type { PayloadMap } from './payload.ts';

type Built = { text: string; offsets: number[] };

export function yamlStringMap(host: string, lines: LineIndex, node: Scalar, value: string, crlf: boolean): PayloadMap {
  const [start, end] = node.range ?? [0, 0, 0];
  const nl = crlf ? '\r\n' : '\n';
  let built: Built | undefined;
  let encode: PayloadMap['encode'] = () => undefined;
  if (node.type === Scalar.BLOCK_LITERAL) {
    const b = blockLiteral(host, start, end);
    if (b) {
      built = b;
      encode = (text, at) => reindent(text.replace(/\r\n/g, '\n'), at, b.indent, lines, nl, end);
    }
  } else if (node.type === Scalar.QUOTE_DOUBLE) {
    built = flow(host, start + 1, end - 1, 'double');
    encode = (text) => JSON.stringify(text).slice(1, -1);
  } else if (node.type === Scalar.QUOTE_SINGLE) {
    built = flow(host, start + 1, end - 1, 'single');
    encode = (text) => (/[\r\n]/.test(text) ? undefined : text.replace(/'/g, "''"));
  } else if (node.type === Scalar.PLAIN) {
    built = flow(host, start, end, 'plain');
    encode = (text) => (/^[^\r\n#:{}[\],&*!|>'"%@`]*$/.test(text) && text.trim() === text ? text : undefined);
  }
  if (!built || built.text !== value) {
    return { host: lines, offsets: new Int32Array(value.length + 1).fill(start), encode: () => undefined };
  }
  return { host: lines, offsets: Int32Array.from(built.offsets), encode };
}

/**
 * A block header without its comment (a `#` after a blank). A scan, not /[ \t]+#.*$/: that pattern retries from
 * every blank of a long run with no `#` after it (quadratic; docs/dev/regex-audit.md).
 */
function withoutComment(header: string): string {
  for (let i = 1; i < header.length; i++) {
    if (header.charCodeAt(i) !== 35 /* # */) continue;
    const before = header.charCodeAt(i - 1);
    if (before !== 32 && before !== 9) continue;
    let j = i - 1;
    while (j > 0 && (header.charCodeAt(j - 1) === 32 || header.charCodeAt(j - 1) === 9)) j--;
    return header.slice(0, j);
  }
  return header;
}

/** `|`, `|-`, `|+` (and an indentation indicator): each line less its indentation. */
function blockLiteral(host: string, start: number, end: number): (Built & { indent: number }) | undefined {
  const headerEnd = host.indexOf('\n', start);
  if (headerEnd < 0) return undefined;
  const header = withoutComment(host.slice(start, headerEnd)).trim();
  const chomp = header.includes('-') ? 'strip' : header.includes('+') ? 'keep' : 'clip';
  let indent = -1;
  let text = '';
  const offsets: number[] = [];
  for (let p = headerEnd + 1; p < end; ) {
    let eol = host.indexOf('\n', p);
    if (eol < 0 || eol > end) eol = end;
    const lineEnd = eol > p && host.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
    const line = host.slice(p, lineEnd);
    if (line.trim() === '') {
      // A blank line: its newline only (its spaces, fewer or more than the indentation, are not content).
      if (indent >= 0 && line.length > indent) {
        for (let i = indent; i < line.length; i++) {
          text += line[i];
          offsets.push(p + i);
        }
      }
    } else {
      if (indent < 0) indent = line.length - line.trimStart().length;
      for (let i = indent; i < line.length; i++) {
        text += line[i];
        offsets.push(p + i);
      }
    }
    if (eol < end || host.charCodeAt(eol) === 10) {
      text += '\n';
      offsets.push(lineEnd);
    }
    p = eol + 1;
  }
  // A block that ends the file without a line break still has its last line's break (the YAML library's value has
  // it; it maps to the end), unless chomping strips it below.
  if (text && !text.endsWith('\n') && end >= host.length) {
    text += '\n';
    offsets.push(end);
  }
  offsets.push(end);
  // Chomping: the final line break, and the blank lines after it.
  if (chomp !== 'keep') {
    let cut = text.length;
    while (cut > 0 && text[cut - 1] === '\n') cut--;
    if (chomp === 'clip' && cut < text.length) cut++;
    const after = offsets[cut] ?? end;
    text = text.slice(0, cut);
    offsets.length = cut;
    offsets.push(chomp === 'strip' ? after : end);
  }
  return { text, offsets, indent: Math.max(indent, 0) };
}

/**
 * Text inserted into a literal block scalar at carrier offset `at`: every line break followed by the block's
 * indentation, and the indentation first when the insertion is at the start of a line (a blank line, or the
 * end of the block). An empty last line is indented only when the carrier line goes on with payload text.
 */
function reindent(text: string, at: number, indent: number, lines: LineIndex, nl: string, blockEnd: number): string {
  if (text === '') return '';
  const pad = ' '.repeat(indent);
  const col = at - lines.starts[lines.position(at).line];
  const lead = col < indent ? ' '.repeat(indent - col) : '';
  const next = lines.text.charCodeAt(at);
  const restIsContent = at < blockEnd && next !== 10 && next !== 13;
  const parts = text.split('\n');
  const last = parts.length - 1;
  return lead + parts.map((l, i) => (i === 0 || (l === '' && !(i === last && restIsContent)) ? l : pad + l)).join(nl);
}

/** Double-quoted, single-quoted or plain: escapes and line folding undone, each character mapped. */
function flow(host: string, start: number, end: number, style: 'double' | 'single' | 'plain'): Built {
  const out: string[] = [];
  const offsets: number[] = [];
  let i = start;
  const push = (s: string, at: number) => {
    for (let k = 0; k < s.length; k++) {
      out.push(s[k]);
      offsets.push(at);
    }
  };
  while (i < end) {
    const c = host[i];
    if (c === '\r' || c === '\n') {
      // Folding: trailing white space before the break goes, one break is a space, n breaks are n-1 newlines.
      while (out.length && (out[out.length - 1] === ' ' || out[out.length - 1] === '\t') && offsets[offsets.length - 1] < i && host[offsets[offsets.length - 1]] !== '\\') {
        out.pop();
        offsets.pop();
      }
      const at = i;
      let breaks = 0;
      while (i < end && /[ \t\r\n]/.test(host[i])) {
        if (host[i] === '\n') breaks++;
        i++;
      }
      push(breaks > 1 ? '\n'.repeat(breaks - 1) : ' ', at);
      continue;
    }
    if (style === 'single' && c === "'" && host[i + 1] === "'") {
      push("'", i);
      i += 2;
      continue;
    }
    if (style === 'double' && c === '\\') {
      const e = host[i + 1];
      const simple: Record<string, string> = { n: '\n', t: '\t', '\t': '\t', r: '\r', '\\': '\\', '"': '"', '/': '/', '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v', ' ': ' ', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029' };
      if (e in simple) {
        push(simple[e], i);
        i += 2;
        continue;
      }
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex) {
        push(String.fromCodePoint(parseInt(host.slice(i + 2, i + 2 + hex), 16) || 0), i);
        i += 2 + hex;
        continue;
      }
      if (e === '\n' || e === '\r') {
        // An escaped line break: the lines join, the next one's leading white space goes.
        i += 1;
        while (i < end && /[ \t\r\n]/.test(host[i])) i++;
        continue;
      }
    }
    push(c, i);
    i++;
  }
  offsets.push(end);
  return { text: out.join(''), offsets };
}
