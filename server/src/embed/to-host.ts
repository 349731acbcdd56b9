/**
 * Findings about payloads, moved to their carriers: ranges through the payload's map, fix edits re-written for
 * the carrier (re-indented, re-escaped). A fix one of whose edits the carrier cannot hold is dropped, never
 * offered half-done.
 */
import type { Finding, Fix, TextEdit } from '../model/finding.ts';
import type { Range, Span } from '../model/range.ts';
import { hostOffset, offsetAt, readablePath, type Payload } from './payload.ts';

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
  if (newText === undefined || (map.refusesLine && producesRefusedLine(p.payload, e))) return undefined;
  return { file: p.host, range: map.host.range(start, end), newText };
}

/** Whether a line the edit makes in the payload's text (from the line start before it to the line end after it) is refused. */
function producesRefusedLine(payload: Payload, e: TextEdit): boolean {
  const { text, lines } = payload;
  const a = offsetAt(lines, e.range.start);
  const b = offsetAt(lines, e.range.end);
  const from = Math.max(text.lastIndexOf('\n', a - 1), text.lastIndexOf('\r', a - 1)) + 1;
  let to = b;
  while (to < text.length && text[to] !== '\n' && text[to] !== '\r') to++;
  const made = text.slice(from, a) + e.newText + text.slice(b, to);
  return made.split(/\r\n|\r|\n/).some((l) => payload.map.refusesLine!(l));
}

/** A fix of a payload as edits of its carrier; undefined when the carrier cannot hold one of its edits. */
export function fixToHost(f: Fix, payloadOf: PayloadOf): Fix | undefined {
  const edits: TextEdit[] = [];
  const whole = new Map<string, TextEdit[]>();
  for (const e of f.edits) {
    if (payloadOf(e.file)?.payload.map.rewrite) {
      whole.set(e.file, [...(whole.get(e.file) ?? []), e]);
      continue;
    }
    const m = editToHost(e, payloadOf);
    if (!m) return undefined;
    edits.push(m);
  }
  for (const [file, es] of whole) edits.push(rewriteToHost(payloadOf(file)!, es));
  // An exact copy: pushed one at a time, the usual single edit kept a list of 17 slots in every finding of a stream.
  return { ...f, edits: edits.slice() };
}

/** A line number as messages and hovers cite a place (`at <path> line <n>`, or `(line <n>)` for the finding's own file). */
const LINE_OF = /line (\d+)/g;

/**
 * Text that cites a place in a payload (`... at user-data//etc/kubelet.conf line 3`) cites it in the carrier the
 * user edits instead (`... at user-data line 14`): the payload's path is no file of theirs, and a payload's lines
 * (a header the carrier implies, a dedented block) are not the carrier's. The path is found by scanning back from
 * each ` line <n>` (a pattern for `<path> line <n>` backtracks cubically on a run of slashes: test/unit/regex-growth).
 * With `self` (the payload the text is about), a line cited with no path before it (`line 4 ends with "\"`,
 * `(line 3)`) is a line of that payload and is cited in the carrier too.
 */
export function textToHost(text: string, payloadOf: PayloadOf, self?: { host: string; payload: Payload }): string {
  if (!self && !text.includes('//')) return text;
  let out = '';
  let last = 0;
  for (const m of text.matchAll(LINE_OF)) {
    const at = m.index!;
    const before = at > 0 ? text[at - 1] : ' ';
    if (before !== ' ' && before !== '(') continue;
    // The word before `line` (or before ` (line`): the cited file's path, or no path at all.
    let e = at - 1;
    if (before === '(' && e > last && text[e - 1] === ' ') e--;
    let s = e;
    while (s > last && !' \t\n\r`\'"'.includes(text[s - 1])) s--;
    const word = text.slice(s, Math.max(s, e));
    if (!isPath(word)) {
      if (!self) continue;
      out += text.slice(last, at) + `line ${hostLine(self.payload, Number(m[1]))}`;
      last = at + m[0].length;
      continue;
    }
    if (before === '(') continue;
    // The path: the word from just after its last '(' before its first '//' (a citation may sit in parentheses).
    const slashes = word.indexOf('//');
    const paren = slashes < 0 ? -1 : word.lastIndexOf('(', slashes);
    if (slashes <= paren + 1 || slashes + 2 >= word.length) continue;
    const p = payloadOf(word.slice(paren + 1));
    if (!p) continue;
    out += text.slice(last, s + paren + 1) + `${p.host} line ${hostLine(p.payload, Number(m[1]))}`;
    last = at + m[0].length;
  }
  return out + text.slice(last);
}

/** Whether a word names a file: a path has a `/`, a file name a `.` inside it (`kubelet.service`, not `ends.`). */
function isPath(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (word[i] === '/' || (word[i] === '.' && i > 0 && i + 1 < word.length)) return true;
  return false;
}

/** The carrier's line (1-based) of a payload's line `n` (1-based). */
function hostLine(payload: Payload, n: number): number {
  const { map, lines } = payload;
  // The line's last character: a line the carrier implies may end in the user's own text (a version it repeats).
  const i = Math.min(n - 1, lines.starts.length - 1);
  const start = lines.starts[i] ?? 0;
  const end = i + 1 < lines.starts.length ? lines.starts[i + 1] - 1 : lines.text.length;
  return map.host.position(hostOffset(map, Math.max(start, end - 1))).line + 1;
}

/** Characters that end a path cited in prose. */
const PATH_END = ' \t\n\r`\'"(),;';

/**
 * Text for the user: places in payloads cited in their carrier's lines (textToHost), and every other payload path
 * it names (a node's id, its files) written `cloud-init.yaml → /var/lib/kubelet/config.yaml` instead of the
 * workspace path `cloud-init.yaml//var/lib/kubelet/config.yaml`. Only paths of payloads are rewritten: a URL such
 * as `unix:///run/containerd/containerd.sock` stays as it is.
 */
export function readableText(text: string, payloadOf: PayloadOf, self?: { host: string; payload: Payload }): string {
  const cited = textToHost(text, payloadOf, self);
  if (!cited.includes('//')) return cited;
  let out = '';
  let last = 0;
  // Each word is looked at once, from its first `//` (so a long run of slashes costs its length, not its square).
  for (let at = cited.indexOf('//'); at >= 0; at = cited.indexOf('//', at + 2)) {
    let s = at;
    while (s > last && !PATH_END.includes(cited[s - 1])) s--;
    let e = at + 2;
    while (e < cited.length && !PATH_END.includes(cited[e])) e++;
    // A sentence may end right after the path.
    let word = cited.slice(s, e);
    while (word.length && '.:'.includes(word[word.length - 1]) && !payloadOf(word)) word = word.slice(0, -1);
    if (payloadOf(word)) {
      out += cited.slice(last, s) + readablePath(word);
      last = s + word.length;
    }
    at = e - 2;
  }
  return out + cited.slice(last);
}

/** A payload the carrier holds only whole: the edits applied to its text, the result encoded in place of the old. */
function rewriteToHost(p: { host: string; payload: Payload }, es: readonly TextEdit[]): TextEdit {
  const { map, lines, text } = p.payload;
  const rw = map.rewrite!;
  const sorted = es
    .map((e) => ({ start: offsetAt(lines, e.range.start), end: offsetAt(lines, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return { file: p.host, range: map.host.range(rw.start, rw.end), newText: rw.encode(out) };
}

export function findingToHost(f: Finding, payloadOf: PayloadOf): Finding {
  const p = payloadOf(f.file);
  const touches = p || f.related?.some((r) => payloadOf(r.span.file)) || f.fixes?.some((x) => x.edits.some((e) => payloadOf(e.file)));
  if (!touches) return f;
  const out: Finding = { ...f };
  out.message = readableText(f.message, payloadOf, p);
  if (p) {
    out.file = p.host;
    out.range = rangeToHost(p.payload, f.range);
  }
  if (f.related) out.related = f.related.map((r) => ({ ...r, message: readableText(r.message, payloadOf), span: spanToHost(r.span, payloadOf) }));
  if (f.fixes) {
    const mapped = f.fixes.map((x) => fixToHost({ ...x, title: readableText(x.title, payloadOf, p) }, payloadOf));
    // (filter only when one is dropped: its result keeps 17 slots for the usual single fix)
    const fixes = mapped.includes(undefined) ? mapped.filter((x): x is Fix => x !== undefined) : (mapped as Fix[]);
    if (fixes.length) out.fixes = fixes;
    else delete out.fixes;
  }
  return out;
}
