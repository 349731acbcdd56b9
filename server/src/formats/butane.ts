/**
 * A Butane config (`variant:` + `version:` at column 0): a carrier. Its payloads are the files Ignition writes
 * from it, read as the same files on disk are:
 * - `systemd.units[].contents`: the unit at /etc/systemd/system/<name> (Ignition's systemd unit folder);
 * - `systemd.units[].dropins[].contents`: /etc/systemd/system/<unit>.d/<name>;
 * - `storage.files[].contents.inline`: the file at `path`.
 * Field names are those of coreos/butane base/v0_5 and v0_6 schema.go (Unit, Dropin, File, Resource: `inline`,
 * `local`, `source`, `compression`). Content that Butane or Ignition fetch at build or boot time (`local`,
 * `contents_local`, `source` other than a `data:` URL, `append`) is named as not checked, never guessed; a `data:`
 * URL in `source` is read as Ignition reads it.
 */
import { isMap, isSeq, type Node, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import type { Payload, PayloadMap } from '../embed/payload.ts';
import { decodeDataUrl, percentEncode } from '../embed/data-url.ts';
import { stringPayload, unreadPayload } from '../embed/yaml-carrier.ts';
import { TEMPLATE_MARKER } from '../embed/template.ts';
import { isTerraformTemplate, scanTemplates } from '../parse/template.ts';
import { templateNote } from '../parse/config.ts';
import { readYamlFile } from '../embed/yaml-docs.ts';
import { droppedAsDuplicates, duplicateFindings, templateBranches } from '../parse/duplicates.ts';
import { defineFormat } from './types.ts';

/** Butane's variants (coreos/butane config/config.go registry): fcos, flatcar, openshift, r4e, fiot, rhcos. */
const VARIANT = /^variant:[ \t]*["']?(?:fcos|flatcar|openshift|r4e|fiot|rhcos)["']?[ \t]*(?:#.*)?\r?$/m;
const VERSION = /^version:[ \t]*["']?\d+\.\d+\.\d+(?:-experimental)?["']?[ \t]*(?:#.*)?\r?$/m;

const UNIT_DIR = '/etc/systemd/system';

const str = (m: YAMLMap, key: string): string | undefined => {
  const v = m.get(key);
  return typeof v === 'string' ? v : undefined;
};

function parseButane(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const read = readYamlFile(text);
  const { lines, doc, error } = read;
  text = read.text;
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  if (error) {
    const { at } = error;
    if (TEMPLATE_MARKER.test(text) || /%\{/.test(text)) {
      problems.push(finding('payload-not-checked', 'information', { file: path, range: lines.range(0, 0) },
        'This Butane config holds template expressions that make it invalid YAML, so its files are not checked.'));
    } else {
      const msg = error.message;
      problems.push(finding('config-syntax', 'error', { file: path, range: lines.range(at, at) }, `Butane cannot read this config: ${msg}`));
    }
    return { embedded, problems };
  }
  // Butane decodes with go-yaml v3 (config/util/util.go unmarshal), which fails on a key written twice; the payloads
  // are still read, with the last value of each key (readYamlFile).
  if (!templateBranches(text)) {
    for (const x of duplicateFindings(droppedAsDuplicates(read.dropped, path, lines), {
      tool: 'Butane',
      refuses: true,
      why: 'Its YAML decoder (go-yaml v3) fails with "mapping key already defined"',
    })) problems.push(x);
  }
  const crlf = /\r\n/.test(text.slice(0, 200));
  const content = (m: YAMLMap, key: string, localKey: string, target: string) => {
    const p = stringPayload(text, lines, m.get(key, true), target, crlf);
    if (p) return embedded.push(p);
    const local = m.get(localKey, true) as Node | undefined;
    if (local) embedded.push(unreadPayload(lines, local, target, `its content is read from a local file (${localKey}) when Butane runs`));
  };
  const units = doc.getIn(['systemd', 'units'], true);
  for (const u of isSeq(units) ? units.items : []) {
    if (!isMap(u)) continue;
    const name = str(u, 'name');
    if (!name || name.includes('/')) continue;
    content(u, 'contents', 'contents_local', `${UNIT_DIR}/${name}`);
    const dropins = u.get('dropins', true);
    for (const d of isSeq(dropins) ? dropins.items : []) {
      const dn = isMap(d) ? str(d, 'name') : undefined;
      if (isMap(d) && dn && !dn.includes('/')) content(d, 'contents', 'contents_local', `${UNIT_DIR}/${name}.d/${dn}`);
    }
  }
  const files = doc.getIn(['storage', 'files'], true);
  for (const f of isSeq(files) ? files.items : []) {
    if (!isMap(f)) continue;
    const target = str(f, 'path');
    if (!target) continue;
    const res = f.get('contents', true);
    const append = f.get('append', true);
    const appended = isSeq(append) && append.items.length > 0;
    if (isMap(res)) {
      const at = (k: string) => res.get(k, true) as Node | undefined;
      const compression = str(res, 'compression');
      if (compression) embedded.push(unreadPayload(lines, at('compression'), target, `its content is compressed (${compression})`));
      else if (appended) embedded.push(unreadPayload(lines, append as Node, target, 'more content is appended to it (append)'));
      else if (at('inline')) {
        const p = stringPayload(text, lines, at('inline'), target, crlf);
        if (p) embedded.push(p);
      } else if (at('local')) embedded.push(unreadPayload(lines, at('local'), target, 'its content is read from a local file (contents.local) when Butane runs'));
      else if (at('source')) embedded.push(sourcePayload(text, lines, at('source')!, target, crlf));
    } else if (appended) embedded.push(unreadPayload(lines, append as Node, target, 'its content is appended (append) to a file this config does not hold whole'));
  }
  // A Terraform or Jinja template of a Butane config (poseidon/typhoon's): its directives decide lines of the payloads
  // (`%{ for }` inside a unit), which are read on their literal text with one note, and a placeholder value in them
  // is filled in when the template is rendered (engine.ts drops config-placeholder for such payloads). Butane itself
  // substitutes nothing; a config with Terraform's `$${` escape and no directive (typhoon's bare-metal controller,
  // rendered by its `templatefile()`) is a template all the same, with nothing to note.
  const structural = scanTemplates(text, { dollar: true }).filter((e) => e.control);
  if ((structural.length || isTerraformTemplate(path, text)) && embedded.length) for (const p of embedded) p.template = true;
  if (structural.length && embedded.length) problems.push(templateNote(path, lines, { text, values: [], structural }, 'Butane config'));
  return { embedded, problems };
}

/**
 * `contents.source`: a `data:` URL is the file's content, read as Ignition reads it (embed/data-url.ts); Butane
 * passes the URL through to the Ignition config unchanged. Any other URL is fetched when Ignition runs.
 */
function sourcePayload(text: string, lines: LineIndex, node: Node, target: string, crlf: boolean): Payload {
  const s = stringPayload(text, lines, node, target, crlf);
  const d = s && decodeDataUrl({ text: s.text, offsets: s.map.offsets });
  if (!s || !d) return unreadPayload(lines, node, target, 'its content is fetched from contents.source when Ignition runs');
  if (!d.ok) return unreadPayload(lines, node, target, d.why);
  const { map } = s;
  const end = map.offsets[s.text.length];
  const data: PayloadMap = d.base64
    ? { host: lines, offsets: d.offsets, encode: () => undefined, rewrite: { start: map.offsets[d.dataStart], end, encode: (t) => Buffer.from(t, 'utf8').toString('base64') } }
    : { host: lines, offsets: d.offsets, encode: (t, at) => map.encode(percentEncode(t), at) };
  return { target, text: d.text, map: data, span: s.span, lines: new LineIndex(d.text) };
}

export default defineFormat({
  kind: 'butane',
  rank: 40,
  label: 'Butane config',
  // Recognised by its own top-level keys, whatever the file is called; never by a payload's indented line.
  byContent: (c) => VARIANT.test(c.head) && VERSION.test(c.head),
  parse: parseButane,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/*.bu'],
  selector: ['**/*.bu'],
  activation: ['**/*.bu'],
});
