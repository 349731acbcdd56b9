/**
 * Findings about payloads, moved to their carriers: ranges through the payload's map, fix edits re-written for
 * the carrier (re-indented, re-escaped). A fix one of whose edits the carrier cannot hold is dropped, never
 * offered half-done.
 */
import type { Finding, Fix, TextEdit } from '../model/finding.ts';
import type { Range, Span } from '../model/range.ts';
import { hostOffset, offsetAt, type Payload } from './payload.ts';

export type PayloadOf = (path: string) => { host: string; payload: Payload } | undefined;

export function rangeToHost(payload: Payload, r: Range): Range {
  const { map, lines } = payload;
  return map.host.range(hostOffset(map, offsetAt(lines, r.start)), hostOffset(map, offsetAt(lines, r.end)));
}

function spanToHost(s: Span, payloadOf: PayloadOf): Span {
  const p = payloadOf(s.file);
  return p ? { file: p.host, range: rangeToHost(p.payload, s.range) } : s;
}

export function editToHost(e: TextEdit, payloadOf: PayloadOf): TextEdit | undefined {
  const p = payloadOf(e.file);
  if (!p) return e;
  const { map, lines } = p.payload;
  const start = hostOffset(map, offsetAt(lines, e.range.start));
  const end = hostOffset(map, offsetAt(lines, e.range.end));
  const newText = map.encode(e.newText, start);
  return newText === undefined ? undefined : { file: p.host, range: map.host.range(start, end), newText };
}

function fixToHost(f: Fix, payloadOf: PayloadOf): Fix | undefined {
  const edits: TextEdit[] = [];
  for (const e of f.edits) {
    const m = editToHost(e, payloadOf);
    if (!m) return undefined;
    edits.push(m);
  }
  return { ...f, edits };
}

/**
 * Text that cites a place in a payload (`... at user-data//etc/kubelet.conf line 3`) cites it in the carrier the
 * user edits instead (`... at user-data line 14`): the payload's path is no file of theirs, and a payload's lines
 * (a header the carrier implies, a dedented block) are not the carrier's. Scanned by hand from each " line ": the
 * regular expression this replaces backtracked quadratically over a long run of path characters.
 */
export function textToHost(text: string, payloadOf: PayloadOf): string {
  if (!text.includes('//')) return text;
  let out = '';
  let copied = 0;
  for (let at = text.indexOf(' line ', copied); at >= 0; at = text.indexOf(' line ', at + 1)) {
    let digits = at + 6;
    while (digits < text.length && text.charCodeAt(digits) >= 48 && text.charCodeAt(digits) <= 57) digits++;
    if (digits === at + 6) continue;
    const path = citedPath(text, copied, at);
    const p = path === undefined ? undefined : payloadOf(path);
    if (!p) continue;
    const { map, lines } = p.payload;
    // The line's last character: a line the carrier implies may end in the user's own text (a version it repeats).
    const n = Math.min(Number(text.slice(at + 6, digits)) - 1, lines.starts.length - 1);
    const start = lines.starts[n] ?? 0;
    const end = n + 1 < lines.starts.length ? lines.starts[n + 1] - 1 : lines.text.length;
    out += text.slice(copied, at - path!.length) + `${p.host} line ${map.host.position(hostOffset(map, Math.max(start, end - 1))).line + 1}`;
    copied = digits;
    at = digits - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The payload path that ends at `end`: a word holding `//`, with no quote, back-quote or "(" before the `//`. */
function citedPath(text: string, from: number, end: number): string | undefined {
  let s = end;
  while (s > from && !/[\s`'"]/.test(text[s - 1])) s--;
  const word = text.slice(s, end);
  const slashes = word.indexOf('//');
  if (slashes <= 0) return undefined;
  const paren = word.lastIndexOf('(', slashes);
  const path = paren < 0 ? word : word.slice(paren + 1);
  return path.indexOf('//') > 0 ? path : undefined;
}

export function findingToHost(f: Finding, payloadOf: PayloadOf): Finding {
  const p = payloadOf(f.file);
  const touches = p || f.related?.some((r) => payloadOf(r.span.file)) || f.fixes?.some((x) => x.edits.some((e) => payloadOf(e.file)));
  if (!touches) return f;
  const out: Finding = { ...f };
  out.message = textToHost(f.message, payloadOf);
  if (p) {
    out.file = p.host;
    out.range = rangeToHost(p.payload, f.range);
  }
  if (f.related) out.related = f.related.map((r) => ({ ...r, span: spanToHost(r.span, payloadOf) }));
  if (f.fixes) {
    const fixes = f.fixes.map((x) => fixToHost(x, payloadOf)).filter((x): x is Fix => x !== undefined);
    if (fixes.length) out.fixes = fixes;
    else delete out.fixes;
  }
  return out;
}
