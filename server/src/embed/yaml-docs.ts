/**
 * What the Kubernetes-object carriers (Cluster API, kind, Karpenter) share: the documents of a YAML stream with
 * their apiVersion and kind, a path of keys into one, and payloads cut from it (a string, embed/yaml-string.ts, or
 * a block mapping, embed/yaml-subtree.ts).
 */
import { isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node, type Scalar, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex, type Range } from '../model/range.ts';
import type { FileKind } from '../model/source.ts';
import type { Payload } from './payload.ts';
import { yamlStringMap } from './yaml-string.ts';
import { yamlSubtree } from './yaml-subtree.ts';
import { YAML_TEMPLATE_MARKER } from './template.ts';
import { versionMention, type VersionMention } from '../model/version-mention.ts';
import { loneCrToLf } from '../model/range.ts';
import { droppedAsDuplicates, droppedPairs, duplicateFindings, keepLastKeys, templateBranches, type DroppedPair, type DuplicateReader } from '../parse/duplicates.ts';

export interface ObjectDoc {
  apiVersion: string;
  kind: string;
  /** metadata.name, or `<kind>-<n>` (n: the document's index) when it has none. */
  name: string;
  doc: Document.Parsed;
}

export interface Carrier {
  text: string;
  lines: LineIndex;
  crlf: boolean;
  docs: ObjectDoc[];
  problems: Finding[];
  embedded: Payload[];
  /** YAML errors not yet reported (see finish). */
  errors: { at: number; message: string }[];
}

/** A document start marker at column 0 ends the document before it (YAML 1.2 l-document-prefix). */
const DOC_START = /^---(?=[ \t\r\n]|$)/gm;

/**
 * Parsed documents by their text, with the offset their ranges are shifted to: a keystroke changes one document of
 * a long GitOps stream, and only that one is parsed again (the others' ranges are moved if its length changed).
 * What a parse gives is the same with or without this.
 */
const PARSED = new Map<string, { doc: Document.Parsed; base: number }>();
const PARSED_MAX = 2000;

function shift(n: unknown, by: number): void {
  if (!n || typeof n !== 'object') return;
  const node = n as { range?: [number, number, number] | null };
  if (node.range) node.range = [node.range[0] + by, node.range[1] + by, node.range[2] + by];
  if (isMap(n) || isSeq(n)) {
    for (const it of n.items as unknown[]) {
      if (isPair(it)) {
        shift(it.key, by);
        shift(it.value, by);
      } else shift(it, by);
    }
  }
}

function parseAt(text: string, from: number, to: number, mask?: (src: string) => string): Document.Parsed {
  const src = text.slice(from, to);
  const key = mask ? '\0' + src : src;
  let have = PARSED.get(key);
  if (!have) {
    if (PARSED.size >= PARSED_MAX) PARSED.clear();
    // A key written twice: the API server gets the last value (kubectl's YAML-to-JSON keeps it; parse/duplicates.ts).
    const doc = parseDocument(mask ? mask(src) : src, { uniqueKeys: false });
    keepLastKeys(doc);
    have = { doc, base: 0 };
    PARSED.set(key, have);
  }
  if (have.base !== from) {
    shift(have.doc.contents, from - have.base);
    for (const d of droppedPairs(have.doc)) {
      shift(d.dropped.key, from - have.base);
      shift(d.dropped.value, from - have.base);
    }
    for (const e of have.doc.errors) e.pos = [e.pos[0] + from - have.base, e.pos[1] + from - have.base];
    have.base = from;
  }
  return have.doc;
}

/** A carrier's first YAML error: where it is, and the first line of its text (the rest is the library's excerpt). */
export function firstError(doc: Document): { at: number; message: string } | undefined {
  const e = doc.errors[0];
  return e && { at: e.pos?.[0] ?? 0, message: e.message.split('\n')[0] };
}

/**
 * A carrier that is one YAML document (Butane, eksctl, talhelper): its text with each lone \r read as the line break
 * go-yaml makes of it (offsets kept, model/range.ts), its lines, the document and its first error.
 */
export function readYamlFile(text: string): { text: string; lines: LineIndex; doc: Document.Parsed; error: ReturnType<typeof firstError>; dropped: readonly DroppedPair[] } {
  const t = loneCrToLf(text);
  const doc = parseDocument(t, { uniqueKeys: false });
  // Each lookup takes a key's last value; whether the tool refuses the file instead is the caller's to say.
  const dropped = keepLastKeys(doc);
  return { text: t, lines: new LineIndex(t), doc, error: firstError(doc), dropped };
}

/**
 * The stream's documents that `relevant` (each pattern) says may hold kubelet settings; the others are not parsed.
 * A document YAML cannot read gives one finding: information when template expressions explain it (the rendered
 * file is what is applied), else an error (see finish).
 */
export function readCarrier(
  path: string,
  text: string,
  label: string,
  relevant: readonly RegExp[] | ((src: string) => boolean),
  mask?: (src: string) => string,
): Carrier {
  text = loneCrToLf(text); // a lone \r is a YAML line break (model/range.ts)
  const lines = new LineIndex(text);
  const out: Carrier = { text, lines, crlf: /\r\n/.test(text.slice(0, 200)), docs: [], problems: [], embedded: [], errors: [] };
  const starts = [0];
  for (const m of text.matchAll(DOC_START)) if (m.index > 0) starts.push(m.index);
  starts.forEach((from, i) => {
    const to = i + 1 < starts.length ? starts[i + 1] : text.length;
    const src = text.slice(from, to);
    if (typeof relevant === 'function' ? !relevant(src) : !relevant.every((r) => r.test(src))) return;
    let doc = parseAt(text, from, to);
    // Template expressions that break the YAML (`values: {{- toYaml .x | nindent 8 }}`): read the document with them
    // masked, positions unchanged (parse/template.ts), so the literal lines are still checked. Only then: masking
    // changes the text of string values, which a payload must keep as written.
    // A `${VAR}` counts here (these carriers are YAML, where it is no systemd variable): clusterctl's `[${VM_SSH_KEYS}]`
    // is a flow mapping inside a flow sequence until clusterctl substitutes it.
    if (doc.errors.length && mask && YAML_TEMPLATE_MARKER.test(src)) {
      const masked = parseAt(text, from, to, mask);
      if (!masked.errors.length) doc = masked;
    }
    if (doc.errors.length) {
      const at = doc.errors[0].pos?.[0] ?? from;
      if (YAML_TEMPLATE_MARKER.test(src)) {
        out.problems.push(finding('payload-not-checked', 'information', { file: path, range: lines.range(at, at) },
          `This ${label} holds template expressions that make it invalid YAML, so this document is not checked.`));
        return;
      }
      // Read on as YAML recovers (a key being typed is an error until its colon): an error inside a payload is its
      // parser's to report, at the same place; finish() reports the others.
      out.errors.push({ at, message: `This ${label} is not valid YAML: ${doc.errors[0].message.split('\n')[0]}` });
    }
    const root = doc.contents;
    if (!isMap(root)) return;
    const apiVersion = root.get('apiVersion');
    const kind = root.get('kind');
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') return;
    const nameNode = doc.getIn(['metadata', 'name'], true);
    // A masked name is shown as written (`{{ .Values.name }}`).
    const name = isScalar(nameNode) && typeof nameNode.value === 'string' && nameNode.value
      ? (nameNode.value.includes('\uE000') && nameNode.range ? text.slice(nameNode.range[0], nameNode.range[1]) : nameNode.value)
      : `${kind}-${i}`;
    out.docs.push({ apiVersion, kind, name, doc });
  });
  return out;
}

/** The carrier's payloads and findings: its YAML errors that no payload holds (those its parser reports). */
export function finish(path: string, c: Carrier, duplicates?: DuplicateReader): { embedded: Payload[]; problems: Finding[] } {
  const inside = (at: number) => c.embedded.some((p) => at >= p.map.offsets[0] && at <= p.map.offsets[p.map.offsets.length - 1]);
  for (const e of c.errors) {
    if (!inside(e.at)) c.problems.push(finding('config-syntax', 'error', { file: path, range: c.lines.range(e.at, e.at) }, e.message));
  }
  // A key written twice outside the payloads (inside one, the payload's reader says it), as the tool's decoder takes it.
  if (duplicates && !templateBranches(c.text)) {
    for (const d of c.docs) {
      const outside = droppedPairs(d.doc).filter((p) => !inside((p.kept.key as { range?: number[] }).range?.[0] ?? -1));
      for (const x of duplicateFindings(droppedAsDuplicates(outside, path, c.lines), duplicates)) c.problems.push(x);
    }
  }
  return { embedded: c.embedded, problems: c.problems };
}

/** The node at a path of keys, when every step is a mapping. */
export function nodeAt(root: unknown, keys: readonly string[]): Node | undefined {
  let n: unknown = root;
  for (const k of keys) {
    if (!isMap(n)) return undefined;
    n = (n as YAMLMap).get(k, true);
  }
  return n as Node | undefined;
}

/** A block mapping of the carrier as a payload of `kind`, under a header naming its apiVersion and kind. */
export function subtreePayload(c: Carrier, node: Node | undefined, target: string, kind: FileKind, header: string): Payload | undefined {
  if (!isMap(node) || !node.range || node.items.length === 0) return undefined;
  const sub = yamlSubtree(c.lines, node.range[0], node.range[1], header);
  if (!sub) return undefined;
  return { target, text: sub.text, kind, map: sub.map, span: c.lines.range(node.range[0], node.range[0]), lines: new LineIndex(sub.text) };
}

/** A string of the carrier (a block scalar, a quoted string) as a payload written to `target`. */
export function stringPayload(c: Carrier, node: Node | undefined, target: string, kind?: FileKind): Payload | undefined {
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  const s = node as Scalar<string>;
  const map = yamlStringMap(c.text, c.lines, s, s.value, c.crlf);
  const p: Payload = { target, text: s.value, map, span: c.lines.range(s.range![0], s.range![1]), lines: new LineIndex(s.value) };
  if (kind) p.kind = kind;
  return p;
}

/** The items of a sequence at a node (none when it is not one). */
export function itemsOf(node: unknown): unknown[] {
  return isSeq(node) ? node.items : [];
}

/**
 * The payload with text before it: parts the carrier implies but the user did not write (an apiVersion a patch may
 * leave out), each mapped to the payload's first character, or, with `at`, the carrier's own characters from `at` on
 * (a value of the carrier that the implied document repeats).
 */
export function withPrefix(p: Payload, parts: readonly { text: string; at?: number }[]): Payload {
  const o = p.map.offsets;
  const prefix = parts.map((x) => x.text).join('');
  if (!prefix) return p;
  const offsets = new Int32Array(prefix.length + o.length);
  let i = 0;
  for (const part of parts) {
    for (let k = 0; k < part.text.length; k++) offsets[i++] = part.at === undefined ? (o[0] ?? 0) : part.at + k;
  }
  offsets.set(o, prefix.length);
  const text = prefix + p.text;
  return { ...p, text, map: { ...p.map, offsets }, lines: new LineIndex(text) };
}

/** The payload with `header` lines before its text, mapped to its first character. */
export function withHeader(p: Payload, header: string): Payload {
  return withPrefix(p, [{ text: header }]);
}

/**
 * The Kubernetes version a scalar of a carrier states (node/version.ts versionMention), read from the file's own
 * characters: the parsed value may be a masked template, and an unquoted `1.30` is the number 1.3 to YAML.
 */
export function versionAt(path: string, text: string, lines: LineIndex, node: unknown, what: string, image: boolean): VersionMention | undefined {
  if (!isScalar(node) || !node.range || (typeof node.value !== 'string' && typeof node.value !== 'number')) return undefined;
  const [start, end] = node.range;
  let raw = text.slice(start, end);
  const q = raw.charAt(0);
  if ((q === '"' || q === "'") && raw.length >= 2 && raw.endsWith(q)) raw = raw.slice(1, -1);
  return versionMention(what, raw, { file: path, range: lines.range(start, end) }, image);
}

/**
 * Payloads of one carrier as one multi-document payload written to `target`: each part keeps its own place in the
 * carrier, a `---` line between two parts is mapped to the end of the part before, and an edit is encoded by the
 * part whose place in the carrier holds it.
 */
export function joinPayloads(host: LineIndex, target: string, parts: readonly Payload[], span: Range): Payload {
  let text = '';
  const offsets: number[] = [];
  const push = (s: string, at: (i: number) => number) => {
    for (let i = 0; i < s.length; i++) offsets.push(at(i));
    text += s;
  };
  parts.forEach((p, n) => {
    const o = p.map.offsets;
    const end = o[o.length - 1] ?? 0;
    if (n > 0) push('---\n', () => offsets[offsets.length - 1] ?? o[0] ?? 0);
    push(p.text, (i) => o[i]);
    if (!p.text.endsWith('\n')) push('\n', () => end);
  });
  offsets.push(offsets[offsets.length - 1] ?? 0);
  const bounds = parts.map((p) => ({ p, start: p.map.offsets[0] ?? 0, end: p.map.offsets[p.map.offsets.length - 1] ?? 0 }));
  const encode = (t: string, where: number) => bounds.find((b) => where >= b.start && where <= b.end)?.p.map.encode(t, where);
  return { target, text, map: { host, offsets: Int32Array.from(offsets), encode }, span, lines: new LineIndex(text) };
}

/**
 * Does a YAML error lie outside every kubelet block of a carrier (`[from, to)` offsets; a block's range ends where
 * the next line starts, so an error there is the next line's)? One inside a block (a key typed before its colon) is
 * the block's own parser's to report, at the same place, and the carrier is read on as YAML recovers, so the node,
 * its hover and completion stay while the key is typed; one elsewhere makes the carrier unreadable.
 */
export function errorOutsideBlocks(errors: readonly { pos?: readonly [number, number] }[], blocks: readonly (readonly [number, number])[]): boolean {
  return errors.some((e) => {
    const at = e.pos?.[0] ?? 0;
    return !blocks.some(([from, to]) => at >= from && at < to);
  });
}
