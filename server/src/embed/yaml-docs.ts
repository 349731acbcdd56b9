/**
 * What the Kubernetes-object carriers (Cluster API, kind, Karpenter) share: the documents of a YAML stream with
 * their apiVersion and kind, a path of keys into one, and payloads cut from it (a string, embed/yaml-string.ts, or
 * a block mapping, embed/yaml-subtree.ts).
 */
import { isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node, type Scalar, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import type { FileKind } from '../model/source.ts';
import type { Payload } from './payload.ts';
import { yamlStringMap } from './yaml-string.ts';
import { yamlSubtree } from './yaml-subtree.ts';
import { TEMPLATE_MARKER } from './template.ts';

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

/**
 * The stream's documents. A document YAML cannot read, that `relevant` says may hold kubelet settings, gives one finding: information when template expressions
 * explain it (the rendered file is what is applied), else an error.
 */
export function readCarrier(path: string, text: string, label: string, relevant: RegExp): Carrier {
  const lines = new LineIndex(text);
  const out: Carrier = { text, lines, crlf: /\r\n/.test(text.slice(0, 200)), docs: [], problems: [], embedded: [], errors: [] };
  const all = parseAllDocuments(text, { uniqueKeys: false });
  const docs = Array.isArray(all) ? all : [];
  docs.forEach((doc, i) => {
    if (doc.errors.length) {
      // Only a document that may hold kubelet settings is worth a finding (a file without them gets none).
      const [from, , to] = doc.range ?? [0, 0, text.length];
      if (!relevant.test(text.slice(from, to))) return;
      const at = doc.errors[0].pos?.[0] ?? 0;
      if (TEMPLATE_MARKER.test(text)) {
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
    const name = doc.getIn(['metadata', 'name']);
    out.docs.push({ apiVersion, kind, name: typeof name === 'string' && name ? name : `${kind}-${i}`, doc });
  });
  return out;
}

/** The carrier's payloads and findings: its YAML errors that no payload holds (those its parser reports). */
export function finish(path: string, c: Carrier): { embedded: Payload[]; problems: Finding[] } {
  for (const e of c.errors) {
    const inside = c.embedded.some((p) => e.at >= p.map.offsets[0] && e.at <= p.map.offsets[p.map.offsets.length - 1]);
    if (!inside) c.problems.push(finding('config-syntax', 'error', { file: path, range: c.lines.range(e.at, e.at) }, e.message));
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
 * The payload with `header` lines before its text (what the carrier implies but the user did not write, such as
 * an apiVersion a patch may leave out); the header maps to the payload's first character.
 */
export function withHeader(p: Payload, header: string): Payload {
  if (!header) return p;
  const o = p.map.offsets;
  const offsets = new Int32Array(header.length + o.length);
  offsets.fill(o[0] ?? 0, 0, header.length);
  offsets.set(o, header.length);
  const text = header + p.text;
  return { ...p, text, map: { ...p.map, offsets }, lines: new LineIndex(text) };
}
