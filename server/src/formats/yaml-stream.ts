/**
 * A multi-document YAML stream whose documents are of different formats (a GitOps file holding a Talos patch, an
 * OpenShift KubeletConfig, a NodeConfig and a Cluster API KubeadmConfigTemplate): a carrier whose payloads are its
 * documents, each read as the format it is on its own, at its own lines. Without it the file would be read as the
 * first format that recognises it, and the documents of the other formats would be skipped.
 *
 * Recognised by content only, and only when documents (split at column-0 `---` lines, YAML 1.2 l-document-prefix)
 * are of at least two formats: a stream of one format is that format's file, as before. A KubeletConfiguration
 * beside kubeadm documents is one format here (a kubeadm config file holds both, parse/config.ts reads them together).
 */
import type { Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import { VERBATIM, type Payload } from '../embed/payload.ts';
import { defineFormat, type Candidate, type Format, type ParseOptions } from './types.ts';

/** The format of one document, seen as a file of its own (no stream). */
export type DocDetector = (c: Candidate) => string | undefined;

const EXTS = new Set(['yaml', 'yml']);
const HEAD = 65536;
/** Formats that are one for this purpose (see the header). */
const GROUP: Record<string, string> = { 'kubeadm-config': 'config', 'kubelet-config': 'config' };

/** Where each document starts, and its end. */
export function documents(text: string): { from: number; to: number }[] {
  const starts = [0];
  // `---` at a line start (after any line terminator, as /^---/m) followed by a blank, a line end or the text's end:
  // found with indexOf (the pattern tried every line of a long stream).
  for (let i = text.indexOf('---', 1); i !== -1; i = text.indexOf('---', i + 3)) {
    const p = text.charCodeAt(i - 1);
    if (p !== 10 && p !== 13 && p !== 0x2028 && p !== 0x2029) continue;
    const c = text.charCodeAt(i + 3);
    if (i + 3 >= text.length || c === 32 || c === 9 || c === 13 || c === 10 || c === 0x2028 || c === 0x2029) starts.push(i);
  }
  return starts.map((from, i) => ({ from, to: i + 1 < starts.length ? starts[i + 1] : text.length }));
}

/**
 * What the previous parse of the same file left (formats/types.ts ParseOptions.previous, kept by the caller's parse
 * cache): a keystroke changes one document of a long stream, so the documents before the first changed character and
 * after the last one keep their payload objects (what was computed from them stays valid: embed/expand.ts, the
 * engine's node reuse) without being recognised again. Nothing is kept between calls here.
 */
interface Before {
  text: string;
  docs: { from: number; to: number; i: number; payload: Payload }[];
}

function beforeOf(previous: ParseOptions['previous']): Before | undefined {
  if (!previous) return undefined;
  const docs = (previous.parsed.embedded ?? []).map((payload) => {
    const from = payload.map.offsets[0];
    return { from, to: from + payload.text.length, i: Number(/^\/(\d+)-/.exec(payload.target)?.[1] ?? 0) - 1, payload };
  });
  return { text: previous.text, docs };
}

/** How many leading characters two texts share (compared a block at a time, then within the block that differs). */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + 1024 <= n && a.slice(i, i + 1024) === b.slice(i, i + 1024)) i += 1024;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** How many trailing characters two texts share, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let i = 0;
  while (i + 1024 <= max && a.slice(a.length - i - 1024, a.length - i) === b.slice(b.length - i - 1024, b.length - i)) i += 1024;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

function kindOf(detect: DocDetector, c: Candidate, doc: string): string | undefined {
  return detect({ ...c, head: doc.length > HEAD ? doc.slice(0, HEAD) : doc });
}

function isStream(detect: DocDetector, c: Candidate): boolean {
  if (!EXTS.has(c.ext)) return false;
  // Quick no for a file with one document: no marker after its first character.
  if (!/[\r\n]---(?=[ \t\r\n]|$)/.test(c.head)) return false;
  const groups = new Set<string>();
  for (const { from, to } of documents(c.head)) {
    const kind = kindOf(detect, c, c.head.slice(from, to));
    if (kind !== undefined) groups.add(GROUP[kind] ?? kind);
    if (groups.size >= 2) return true;
  }
  return false;
}

function parseStream(detect: DocDetector, path: string, text: string, previous: ParseOptions['previous']): { embedded: Payload[]; problems: Finding[] } {
  const lines = new LineIndex(text);
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const c: Candidate = { path, name, lower: name.toLowerCase(), dir: '', ext: dot < 0 ? '' : name.slice(dot + 1).toLowerCase(), head: '' };
  const embedded: Payload[] = [];
  // The documents before the first changed character and after the last one are as they were: found by their place,
  // not recognised again (recognising every document was most of a keystroke in a long stream).
  const before = beforeOf(previous);
  const same = before ? commonPrefix(before.text, text) : 0;
  const unmoved = new Map<number, { to: number; i: number; payload: Payload; moved: boolean }>();
  if (before) {
    const tail = commonSuffix(before.text, text, Math.min(before.text.length, text.length) - same);
    const delta = text.length - before.text.length;
    for (const d of before.docs) {
      if (d.to <= same) unmoved.set(d.from, { ...d, moved: false });
      else if (d.from >= before.text.length - tail) unmoved.set(d.from + delta, { to: d.to + delta, i: d.i, payload: d.payload, moved: true });
    }
  }
  let ident: Int32Array | undefined;
  documents(text).forEach(({ from, to }, i) => {
    const was = unmoved.get(from);
    const known = was && was.to === to ? was : undefined;
    const kind = known ? known.payload.kind : kindOf(detect, c, text.slice(from, to));
    if (kind === undefined) return;
    // A document before the first changed character keeps its payload object. Its map's line index is of the text it
    // was made from, which agrees with this one up to the line after the next document's `---`: any position after
    // that is after the document in both, also one past the older text's end (features/embedded.ts payloadAt).
    const next = before ? before.text.indexOf('\n', to) : -1;
    if (known && !known.moved && known.i === i && next >= 0 && next + 1 <= same) {
      embedded.push(known.payload);
      return;
    }
    const body = known ? known.payload.text : text.slice(from, to);
    // The document as it stands: every payload offset is the stream's offset plus its start, a view of one identity
    // map (a keystroke made a new array for every document after it).
    ident ??= identity(text.length + 1, previous);
    const offsets = ident.subarray(from, to + 1);
    const eol = text.indexOf('\n', from);
    // Named by the document's place and format (`gitops.yaml//3-talos.yaml`), so node names say which it is.
    embedded.push({
      target: `/${i + 1}-${kind}.yaml`,
      kind: kind as Payload['kind'],
      text: body,
      map: { host: lines, offsets, encode: VERBATIM },
      ownRoot: true,
      span: lines.range(from, eol < 0 || eol > to ? to : eol),
      lines: known?.payload.lines ?? new LineIndex(body),
    });
  });
  return { embedded, problems: [] };
}

/** Buffers of identity maps made here (element i is i), which never change once made. */
const IDENTITY = new WeakSet<ArrayBufferLike>();

/** An identity map of at least `n` offsets: the previous parse's when it is long enough. */
function identity(n: number, previous: ParseOptions['previous']): Int32Array {
  const o = previous?.parsed.embedded?.[0]?.map.offsets;
  if (o && IDENTITY.has(o.buffer) && o.buffer.byteLength >= n * 4) return new Int32Array(o.buffer, 0, n);
  // Room to grow, so that typing does not make a new one at every character.
  const size = n + (n >> 3) + 64;
  const a = new Int32Array(size);
  for (let j = 0; j < size; j++) a[j] = j;
  IDENTITY.add(a.buffer);
  return a.subarray(0, n);
}

export function yamlStreamFormat(detect: DocDetector): Format<'yaml-stream'> {
  return defineFormat({
    kind: 'yaml-stream',
    rank: 20,
    label: 'multi-document YAML',
    byContent: (c) => isStream(detect, c),
    parse: (path, text, opts) => parseStream(detect, path, text, opts?.previous),
    comments: () => 'trailing',
    join: { kind: 'carrier' },
    watch: ['**/*.yaml', '**/*.yml'],
    selector: ['**/*.yaml', '**/*.yml'],
    activation: [],
  });
}
