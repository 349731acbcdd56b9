/**
 * An Ignition config (JSON with `ignition.version` at the top level; the compiled form of Butane): a carrier.
 * Payloads, as coreos/ignition config/v3_x/types (Unit.contents, Dropin.contents, File.contents Resource) and
 * internal/exec/util (units under /etc/systemd/system) define them:
 * - `systemd.units[].contents` and `.dropins[].contents`: JSON strings, mapped escape by escape;
 * - `storage.files[].contents.source` as a `data:` URL (embed/data-url.ts): percent-encoded data is mapped escape
 *   by escape and edits are written back percent-encoded; base64 data is mapped to the start of the data and a
 *   quick fix re-encodes the whole URL. `compression`, other URL schemes and `append` are named as not checked.
 */
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import type { Payload, PayloadMap } from '../embed/payload.ts';
import { decodeDataUrl, jsonStringChars, percentEncode } from '../embed/data-url.ts';
import { defineFormat } from './types.ts';

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

const child = (n: JsonNode | undefined, key: string): JsonNode | undefined => (n ? findNodeAtLocation(n, [key]) : undefined);
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
  const units = findNodeAtLocation(root, ['systemd', 'units']);
  for (const u of units?.type === 'array' ? units.children ?? [] : []) {
    const name = strOf(child(u, 'name'));
    if (!name || name.includes('/')) continue;
    stringPayload(child(u, 'contents'), `${UNIT_DIR}/${name}`);
    const dropins = child(u, 'dropins');
    for (const d of dropins?.type === 'array' ? dropins.children ?? [] : []) {
      const dn = strOf(child(d, 'name'));
      if (dn && !dn.includes('/')) stringPayload(child(d, 'contents'), `${UNIT_DIR}/${name}.d/${dn}`);
    }
  }
  const files = findNodeAtLocation(root, ['storage', 'files']);
  for (const f of files?.type === 'array' ? files.children ?? [] : []) {
    const target = strOf(child(f, 'path'));
    if (!target) continue;
    const contents = child(f, 'contents');
    const source = child(contents, 'source');
    const compression = child(contents, 'compression');
    const append = child(f, 'append');
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
