/**
 * An Ignition config (JSON with `ignition.version` at the top level; the compiled form of Butane): a carrier.
 * Payloads, as coreos/ignition config/v3_x/types (Unit.contents, Dropin.contents, File.contents Resource) and
 * internal/exec/util (units under /etc/systemd/system) define them:
 * - `systemd.units[].contents` and `.dropins[].contents`: JSON strings, mapped escape by escape;
 * - `storage.files[].contents.source` as a `data:` URL (embed/data-url.ts): percent-encoded data is mapped escape
 *   by escape and edits are written back percent-encoded; base64 data is mapped to the start of the data and a
 *   quick fix re-encodes the whole URL. `compression`, other URL schemes and `append` are named as not checked.
 *
 * A key written twice in one object: Ignition decodes the config with Go's encoding/json (config/util/parsingErrors.go
 * HandleParseErrors, json.Unmarshal into the typed Config), which decodes every member in order into the same field:
 * the later string, number or list replaces the earlier, and a later object is decoded over the earlier one, so a key
 * only the earlier object sets still counts. The lookups below read the config that way (`members`, `merged`).
 */
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import type { Payload, PayloadMap } from '../embed/payload.ts';
import { decodeDataUrl, jsonStringChars, percentEncode } from '../embed/data-url.ts';
import { defineFormat } from './types.ts';
import { duplicateFindings } from '../parse/duplicates.ts';
import type { DuplicateKey } from '../parse/types.ts';

const FIRST_KEY = /^\uFEFF?[ \t\r\n]*\{[ \t\r\n]*"ignition"[ \t\r\n]*:[ \t\r\n]*\{/;
const UNIT_DIR = '/etc/systemd/system';

const json = (s: string) => JSON.stringify(s).slice(1, -1);

function isIgnition(head: string): boolean {
  if (FIRST_KEY.test(head)) return true;
  if (!/^\uFEFF?[ \t\r\n]*\{/.test(head) || !head.includes('"ignition"')) return false;
  const root = parseTree(head);
  const v = root && findNodeAtLocation(root, ['ignition', 'version']);
  return v?.type === 'string';
}

/** An object as Go decodes it: the objects decoded one after the other into the same value. */
type View = readonly JsonNode[];

/** The values of `key` in the view's objects, in the order Go decodes them. */
function members(view: View, key: string): JsonNode[] {
  const out: JsonNode[] = [];
  for (const o of view) {
    if (o.type !== 'object') continue;
    for (const p of o.children ?? []) if (p.children?.[0]?.value === key && p.children[1]) out.push(p.children[1]);
  }
  return out;
}

/** The objects a run of values leaves decoded into one field: those after the last value that is no object. */
function merged(values: readonly JsonNode[]): View {
  let i = values.length;
  while (i > 0 && values[i - 1].type === 'object') i--;
  return values.slice(i);
}

/** The value Go keeps of a string, number or list field: the last one written. */
const child = (view: View, key: string): JsonNode | undefined => members(view, key).at(-1);

/** Keys written twice in one object, anywhere in the config: the earlier key and the later one. */
function duplicateKeys(root: JsonNode, path: string, lines: LineIndex): { objects: DuplicateKey[]; others: DuplicateKey[] } {
  const objects: DuplicateKey[] = [];
  const others: DuplicateKey[] = [];
  const span = (n: JsonNode) => ({ file: path, range: lines.range(n.offset, n.offset + n.length) });
  const stack: JsonNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'array') for (const c of n.children ?? []) stack.push(c);
    if (n.type !== 'object') continue;
    const seen = new Map<string, JsonNode>();
    for (const p of n.children ?? []) {
      const k = p.children?.[0];
      const v = p.children?.[1];
      if (!k || typeof k.value !== 'string') continue;
      if (v) stack.push(v);
      const prev = seen.get(k.value);
      seen.set(k.value, k);
      if (!prev) continue;
      const d: DuplicateKey = { key: k.value, first: span(prev), second: span(k) };
      (v?.type === 'object' && prev.parent?.children?.[1]?.type === 'object' ? objects : others).push(d);
    }
  }
  return { objects, others };
}
const strOf = (n: JsonNode | undefined): string | undefined => (n?.type === 'string' ? (n.value as string) : undefined);

function parseIgnition(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const lines = new LineIndex(text);
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  const errors: { offset: number; error: number }[] = [];
  const root = parseTree(text, errors as never, { allowTrailingComma: false, disallowComments: true });
  if (!root || errors.length) {
    const at = errors[0]?.offset ?? 0;
    problems.push(finding('config-syntax', 'error', { file: path, range: lines.range(at, at) }, 'Ignition cannot read this config: it is not valid JSON.'));
    return { embedded, problems };
  }
  const dups = duplicateKeys(root, path, lines);
  for (const x of duplicateFindings(dups.others, { tool: 'Ignition', refuses: false, why: 'Ignition decodes the config with Go\'s encoding/json, which sets a field once per key, the last time winning' })) problems.push(x);
  for (const x of duplicateFindings(dups.objects, { tool: 'Ignition', refuses: false, why: 'Ignition decodes both objects in order into one field (Go\'s encoding/json): a key only the earlier one sets still counts' })) problems.push(x);
  const span = (n: JsonNode) => lines.range(n.offset, n.offset + n.length);
  const unread = (n: JsonNode, target: string, why: string) =>
    embedded.push({ target, text: '', map: { host: lines, offsets: Int32Array.of(n.offset), encode: () => undefined }, span: span(n), lines: new LineIndex(''), unchecked: why });
  // A JSON string: each character at its escape; inserted text written escaped.
  const stringPayload = (n: JsonNode | undefined, target: string) => {
    if (n?.type !== 'string') return;
    const s = jsonStringChars(text, n.offset + 1, n.offset + n.length - 1);
    if (s.text !== n.value) return;
    const map: PayloadMap = { host: lines, offsets: Int32Array.from(s.offsets), encode: json };
    embedded.push({ target, text: s.text, map, span: span(n), lines: new LineIndex(s.text) });
  };
  const top: View = [root];
  const units = child(merged(members(top, 'systemd')), 'units');
  for (const u of units?.type === 'array' ? units.children ?? [] : []) {
    const name = strOf(child([u], 'name'));
    if (!name || name.includes('/')) continue;
    stringPayload(child([u], 'contents'), `${UNIT_DIR}/${name}`);
    const dropins = child([u], 'dropins');
    for (const d of dropins?.type === 'array' ? dropins.children ?? [] : []) {
      const dn = strOf(child([d], 'name'));
      if (dn && !dn.includes('/')) stringPayload(child([d], 'contents'), `${UNIT_DIR}/${name}.d/${dn}`);
    }
  }
  const files = child(merged(members(top, 'storage')), 'files');
  for (const f of files?.type === 'array' ? files.children ?? [] : []) {
    const target = strOf(child([f], 'path'));
    if (!target) continue;
    const contents = merged(members([f], 'contents'));
    const source = child(contents, 'source');
    const compression = child(contents, 'compression');
    const append = child([f], 'append');
    if (append?.type === 'array' && append.children?.length) {
      unread(append, target, 'more content is appended to it (append)');
      continue;
    }
    if (source?.type !== 'string') continue;
    if (strOf(compression)) {
      unread(compression!, target, `its content is compressed (${strOf(compression)})`);
      continue;
    }
    const url = jsonStringChars(text, source.offset + 1, source.offset + source.length - 1);
    const d = decodeDataUrl(url);
    if (!d.ok) {
      unread(source, target, d.why);
      continue;
    }
    const dataFrom = url.offsets[d.dataStart];
    const dataTo = source.offset + source.length - 1;
    const map: PayloadMap = d.base64
      ? {
          host: lines,
          offsets: d.offsets,
          encode: () => undefined,
          // Base64 has no character-wise place: a fix re-encodes the whole data.
          rewrite: { start: dataFrom, end: dataTo, encode: (t) => Buffer.from(t, 'utf8').toString('base64') },
        }
      : { host: lines, offsets: d.offsets, encode: (t) => json(percentEncode(t)) };
    embedded.push({ target, text: d.text, map, span: span(source), lines: new LineIndex(d.text) });
  }
  return { embedded, problems };
}

export default defineFormat({
  kind: 'ignition',
  rank: 50,
  label: 'Ignition config',
  byContent: (c) => (c.ext === 'ign' || c.ext === 'json' || c.ext === '') && isIgnition(c.head),
  parse: parseIgnition,
  comments: () => 'none',
  join: { kind: 'carrier' },
  watch: ['**/*.ign'],
  selector: ['**/*.ign'],
  activation: ['**/*.ign'],
});
