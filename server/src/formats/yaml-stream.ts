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
import type { Payload } from '../embed/payload.ts';
import { defineFormat, type Candidate, type Format } from './types.ts';

/** The format of one document, seen as a file of its own (no stream). */
export type DocDetector = (c: Candidate) => string | undefined;

const DOC_START = /^---(?=[ \t\r\n]|$)/gm;
const EXTS = new Set(['yaml', 'yml']);
const HEAD = 65536;
/** Formats that are one for this purpose (see the header). */
const GROUP: Record<string, string> = { 'kubeadm-config': 'config', 'kubelet-config': 'config' };

/** Where each document starts, and its end. */
function documents(text: string): { from: number; to: number }[] {
  const starts = [0];
  for (const m of text.matchAll(DOC_START)) if (m.index > 0) starts.push(m.index);
  return starts.map((from, i) => ({ from, to: i + 1 < starts.length ? starts[i + 1] : text.length }));
}

/**
 * What is known of each document by its text, per file: a keystroke changes one document of a long stream, so the
 * others are not recognised again and keep their line index. A cache of pure functions of the text (and the file's
 * name, which recognition looks at), pruned to the file's current documents on every parse.
 */
interface Known {
  /** The document's text (the first string it was seen as: an unchanged document keeps the same string). */
  text: string;
  kind: string | undefined;
  lines?: LineIndex;
  /** The payload offsets for the document at stream offset `from` (documents before an edit keep theirs). */
  offsets?: { from: number; map: Int32Array };
  /** The payload made for the document at `from`, the `i`th, in the previous text of the file (see parseStream). */
  payload?: { from: number; i: number; payload: Payload };
}
const FILES = new Map<string, Map<string, Known>>();
/** The text each file was last parsed from and its documents (to find the documents an edit left as they were). */
const BEFORE = new Map<string, { text: string; docs: { from: number; to: number; k: Known }[] }>();

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

/**
 * 0, 1, 2, ... at least `n` long. A document's characters are the stream's in order, so its payload offsets are a
 * view of this from its start (no array per document moved by an edit). Kept at the length of the longest stream.
 */
let COUNTING = new Int32Array(0);
function counting(n: number): Int32Array {
  if (COUNTING.length < n) {
    COUNTING = new Int32Array(Math.max(n, 2 * COUNTING.length));
    for (let i = 0; i < COUNTING.length; i++) COUNTING[i] = i;
  }
  return COUNTING;
}
const FILES_MAX = 200;

function known(detect: DocDetector, c: Candidate, doc: string): Known {
  let docs = FILES.get(c.path);
  if (!docs) {
    if (FILES.size >= FILES_MAX) {
      FILES.clear();
      BEFORE.clear();
    }
    FILES.set(c.path, (docs = new Map()));
  }
  let k = docs.get(doc);
  if (!k) docs.set(doc, (k = { text: doc, kind: detect({ ...c, head: doc.length > HEAD ? doc.slice(0, HEAD) : doc }) }));
  return k;
}

function isStream(detect: DocDetector, c: Candidate): boolean {
  if (!EXTS.has(c.ext)) return false;
  // Quick no for a file with one document: no marker after its first character.
  if (!/[\r\n]---(?=[ \t\r\n]|$)/.test(c.head)) return false;
  const groups = new Set<string>();
  for (const { from, to } of documents(c.head)) {
    const kind = known(detect, c, c.head.slice(from, to)).kind;
    if (kind !== undefined) groups.add(GROUP[kind] ?? kind);
    if (groups.size >= 2) return true;
  }
  return false;
}

function parseStream(detect: DocDetector, path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const lines = new LineIndex(text);
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const c: Candidate = { path, name, lower: name.toLowerCase(), dir: '', ext: dot < 0 ? '' : name.slice(dot + 1).toLowerCase(), head: '' };
  const embedded: Payload[] = [];
  const current = new Map<string, Known>();
  // The documents before the first changed character and after the last one are as they were: found by their place,
  // not looked up by their text (hashing every document's text was a tenth of a keystroke).
  const before = BEFORE.get(path);
  const same = before ? commonPrefix(before.text, text) : 0;
  const unmoved = new Map<number, { to: number; k: Known }>();
  if (before) {
    const tail = commonSuffix(before.text, text, Math.min(before.text.length, text.length) - same);
    const delta = text.length - before.text.length;
    for (const d of before.docs) {
      if (d.to <= same) unmoved.set(d.from, d);
      else if (d.from >= before.text.length - tail) unmoved.set(d.from + delta, { to: d.to + delta, k: d.k });
    }
  }
  const docs: { from: number; to: number; k: Known }[] = [];
  documents(text).forEach(({ from, to }, i) => {
    const was = unmoved.get(from);
    const k = was && was.to === to ? was.k : known(detect, c, text.slice(from, to));
    const body = k.text;
    current.set(body, k);
    docs.push({ from, to, k });
    if (k.kind === undefined) return;
    // A document before the first changed character keeps its payload object, so what was computed from it stays
    // valid (expand.ts, engine.ts). Its map's line index is of the text it was made from, which agrees with this one
    // up to the line after the next document's `---`: any position after that is after the document in both, also
    // one past the older text's end (features/embedded.ts payloadAt). A document keeps at most one older text alive.
    const next = before ? before.text.indexOf('\n', to) : -1;
    if (k.payload && k.payload.from === from && k.payload.i === i && next >= 0 && next + 1 <= same) {
      embedded.push(k.payload.payload);
      return;
    }
    // The document as it stands: every payload offset is the stream's offset plus its start.
    if (k.offsets?.from !== from) k.offsets = { from, map: counting(text.length + 1).subarray(from, to + 1) };
    const offsets = k.offsets.map;
    const eol = text.indexOf('\n', from);
    // Named by the document's place and format (`gitops.yaml//3-talos.yaml`), so node names say which it is.
    const payload: Payload = {
      target: `/${i + 1}-${k.kind}.yaml`,
      kind: k.kind as Payload['kind'],
      text: body,
      map: { host: lines, offsets, encode: (t) => t },
      ownRoot: true,
      span: lines.range(from, eol < 0 || eol > to ? to : eol),
      lines: (k.lines ??= new LineIndex(body)),
    };
    k.payload = { from, i, payload };
    embedded.push(payload);
  });
  FILES.set(path, current);
  BEFORE.set(path, { text, docs });
  return { embedded, problems: [] };
}

export function yamlStreamFormat(detect: DocDetector): Format<'yaml-stream'> {
  return defineFormat({
    kind: 'yaml-stream',
    label: 'multi-document YAML',
    byContent: (c) => isStream(detect, c),
    parse: (path, text) => parseStream(detect, path, text),
    comments: () => 'trailing',
    join: { kind: 'carrier' },
    watch: ['**/*.yaml', '**/*.yml'],
    selector: ['**/*.yaml', '**/*.yml'],
    activation: [],
  });
}
