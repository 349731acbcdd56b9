/**
 * A cloud-init `#cloud-config` user-data file: a carrier. Each `write_files` entry (path + content) is a payload
 * (embed/payload.ts) that joins nodes as the file it writes would; the carrier itself is no node.
 * cloud-init reads user data as #cloud-config only when that is its first line (cloudinit/handlers/__init__.py
 * type_from_starts_with); a `## template: jinja` line may come first (cloudinit/handlers/jinja_template.py).
 */
import { isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Scalar } from 'yaml';
import { droppedAsDuplicates, duplicateFindings, keepLastKeys } from '../parse/duplicates.ts';
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import type { Payload } from '../embed/payload.ts';
import { yamlStringMap } from '../embed/yaml-string.ts';
import { commandPayloads } from '../embed/yaml-carrier.ts';
import { TEMPLATE_MARKER } from '../embed/template.ts';
import { decodeBase64Lines } from '../embed/data-url.ts';
import { sedPlaceholders } from '../embed/sed.ts';
import { hasMask, isTerraformTemplate, MASK, maskTemplates, restoreAt, scanTemplates, type Masked } from '../parse/template.ts';
import { templateNote } from '../parse/config.ts';
import { firstError } from '../embed/yaml-docs.ts';
import { defineFormat } from './types.ts';
import { loneCrToLf } from '../model/range.ts';

// (A line ends at \n, \r\n or a lone \r, as everywhere in the engine: cloud-init's starts-with test and PyYAML take a
// lone \r as a line end too.)
const HEADER = /^\uFEFF?(?:##[ \t]*template:[ \t]*jinja[ \t]*(?:\r\n?|\n))?#cloud-config[ \t]*(?:\r|\n|$)/;

/** cloud-init's write_files encodings (cloudinit/config/cc_write_files.py canonicalize_extraction). */
const PLAIN_ENCODINGS = new Set(['text/plain', '']);
/** The base64 ones (gzip is not decoded here: its bytes have no place in the carrier). */
const BASE64_ENCODINGS = new Set(['b64', 'base64']);

/**
 * A `b64` entry: cloud-init decodes the content (cc_write_files.py extract_contents, base64.b64decode), so the file
 * is the decoded text. Each character is placed on the four base64 characters that hold its first byte; a quick
 * fix encodes the whole edited file again in place of the old content.
 */
function base64Payload(p: Payload): Payload {
  const d = decodeBase64Lines(p.text, 0, p.text.length);
  if (!d.ok) return { ...p, unchecked: d.why };
  const { offsets } = p.map;
  const mapped = Int32Array.from(d.offsets, (o) => offsets[o]);
  const start = offsets[0];
  const end = offsets[p.text.length];
  // One line of base64 fits wherever the old content stood: a block scalar's first line, a plain or quoted string.
  const map = { host: p.map.host, offsets: mapped, encode: () => undefined, rewrite: { start, end, encode: (t: string) => Buffer.from(t, 'utf8').toString('base64') } };
  return { target: p.target, text: d.text, map, span: p.span, lines: new LineIndex(d.text), ...(p.template && { template: true }) };
}

function parseCloudConfig(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  text = loneCrToLf(text); // a lone \r is a YAML line break (model/range.ts)
  const lines = new LineIndex(text);
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  // Go and Jinja expressions are masked (same length, parse/template.ts); `${VAR}` is left alone: in the units and
  // env files the cloud-config writes it is systemd's variable. A Terraform directive (`%{ if }`) is read: `%{` is no
  // systemd specifier, and a cloud-config rendered by Terraform's templatefile (`user-data.yaml.tftpl`) has them.
  const exprs = scanTemplates(text, { dollar: false, percent: true });
  const masked: Masked | undefined = exprs.length ? maskTemplates(text, exprs, false) : undefined;
  const src = masked ? masked.text : text;
  // `!!binary` is left to us (resolveKnownTags off): the library's node and browser builds decode it differently (the
  // browser's atob throws on a template's stand-ins, the node's Buffer skips them), and the bundle uses the browser's.
  const doc = parseDocument(src, { uniqueKeys: false, resolveKnownTags: false });
  const error = firstError(doc);
  if (error) {
    const { at } = error;
    if (TEMPLATE_MARKER.test(text)) {
      problems.push(finding('payload-not-checked', 'information', { file: path, range: lines.range(0, 0) },
        'This cloud-config holds template expressions that make it invalid YAML, so its files are not checked.'));
    } else {
      const msg = error.message;
      problems.push(finding('config-syntax', 'error', { file: path, range: lines.range(at, at) }, `cloud-init cannot read this cloud-config: ${msg}`));
    }
    return { embedded, problems };
  }
  // cloud-init loads the cloud-config with PyYAML's safe loader (cloudinit/util.py load_yaml), whose mappings keep the
  // last value of a key written twice (constructor.py construct_mapping): the lookups below take that one too.
  const dropped = keepLastKeys(doc);
  if (dropped.length && !masked) {
    for (const x of duplicateFindings(droppedAsDuplicates(dropped, path, lines), {
      tool: 'cloud-init',
      refuses: false,
      why: 'cloud-init reads the cloud-config with PyYAML, whose mappings keep the last value of a key',
    })) problems.push(x);
  }
  const crlf = /\r\n/.test(text.slice(0, 200));
  // A cloud-config that something renders before cloud-init reads it: its placeholders are that renderer's to fill.
  const rendered = isTerraformTemplate(path, text) || placeholderInOwnSettings(doc, text);
  const commands = (key: string) => commandPayloads(doc.get(key, true), src, lines, crlf).map((p) => {
    const u = unmasked(p, text);
    return rendered ? { ...u, template: true } : u;
  });
  // bootcmd runs before write_files, runcmd after (cloud.cfg module order): of two writes of one path, the later.
  embedded.push(...commands('bootcmd'));
  const files = doc.get('write_files', true);
  for (const item of isSeq(files) ? files.items : []) {
    if (!isMap(item)) continue;
    const pathNode = item.get('path', true);
    const written = isScalar(pathNode) ? pathNode.value : undefined;
    // A path written as a template expression is known only once the template is rendered.
    const templatedPath = masked && typeof written === 'string' && hasMask(written);
    const target = templatedPath && pathNode!.range ? restoreAt(written, text, masked.values, pathNode!.range[0]) : written;
    const content = item.get('content', true);
    if (typeof target !== 'string' || !isScalar(content) || typeof content.value !== 'string' || !content.range) continue;
    const node = content as Scalar<string>;
    const span = lines.range(node.range![0], node.range![1]);
    const map = yamlStringMap(src, lines, node, node.value, crlf);
    // The payload gets its expressions back (same length, so the map holds); its parser reads them as unknown values.
    const value = masked && masked.values.length ? restoreAt(node.value, text, masked.values, node.range![0]) : node.value;
    const payload: Payload = { target, text: value, map, span, lines: new LineIndex(value) };
    if (value.length !== node.value.length) payload.unchecked = 'template expressions in it are folded across lines';
    if (masked?.structural.length || rendered) payload.template = true;
    if (templatedPath) payload.unchecked = 'its path is a template expression';
    // Content that is nothing but directives (`{{IndentString (GetDockerConfig ...) 4}}` alone on its line) is what the
    // template writes there: unknown, not an empty file.
    else if (masked?.structural.length && value.trim() === '') payload.unchecked = 'its content is written by a template expression';
    const encoding = item.get('encoding');
    // A `!!binary` content is base64, as `encoding: b64` says (cloud-init's YAML loader gives bytes).
    const enc = (content as Scalar).tag === 'tag:yaml.org,2002:binary' ? 'b64' : typeof encoding === 'string' ? encoding.toLowerCase() : '';
    if (BASE64_ENCODINGS.has(enc) && !payload.unchecked && item.get('append') !== true) {
      embedded.push(base64Payload(payload));
      continue;
    }
    if (typeof encoding === 'string' && !PLAIN_ENCODINGS.has(enc)) payload.unchecked = `its content is encoded (${encoding})`;
    else if (item.get('append') === true) payload.unchecked = 'it is appended to a file this cloud-config does not hold whole (append: true)';
    embedded.push(payload);
  }
  embedded.push(...commands('runcmd'));
  if (masked?.structural.length && embedded.length) problems.push(templateNote(path, lines, masked, 'cloud-config'));
  // Placeholders the cloud-config's own commands replace (`sed -i "s|REPLACE_TOKEN|${TOKEN}|g" /etc/kubernetes/...`)
  // are filled on the machine before the file is used: no forgotten placeholders.
  const filled = sedPlaceholders(text);
  return { embedded: filled ? embedded.map((p) => (p.filledOnMachine ? p : { ...p, filledOnMachine: filled })) : embedded, problems };
}

/**
 * Settings cloud-init applies as written: the host name (cc_set_hostname), users and their keys (cc_users_groups,
 * cc_ssh). cloud-init substitutes no `${name}` in them (its own templater runs only on final_message and a few module
 * strings, and Jinja only under `## template: jinja`), so a `${name}` there shows that the whole cloud-config is a
 * template rendered first (Terraform's templatefile, envsubst), which fills its files' placeholders too.
 */
const OWN_SETTINGS = ['hostname', 'fqdn', 'users', 'ssh_authorized_keys'];
const INTERPOLATION = /\$\{[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\}/;

function placeholderInOwnSettings(doc: Document.Parsed, text: string): boolean {
  if (!isMap(doc.contents)) return false;
  return OWN_SETTINGS.some((key) => {
    const r = (doc.get(key, true) as Node | undefined)?.range;
    return !!r && INTERPOLATION.test(text.slice(r[0], r[1]));
  });
}

/**
 * A runcmd/bootcmd payload read from the masked text, with its template expressions written back: here-document
 * text is a copy of the carrier's, so each masked character is the carrier's character at its place.
 */
function unmasked(p: Payload, original: string): Payload {
  if (!hasMask(p.text)) return p;
  let t = '';
  for (let i = 0; i < p.text.length; i++) t += p.text[i] === MASK ? original[p.map.offsets[i]] : p.text[i];
  return { ...p, text: t, lines: new LineIndex(t) };
}

export default defineFormat({
  kind: 'cloud-init',
  rank: 30,
  label: 'cloud-init cloud-config',
  // Recognised by its own first line, whatever the file is called (user-data, *.yaml, *.cfg).
  byPath: (c) => HEADER.test(c.head),
  parse: parseCloudConfig,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/user-data', '**/*.cfg'],
  selector: ['**/user-data', '**/*.cfg'],
  activation: ['**/user-data', '**/cloud-config.{yaml,yml}'],
});
