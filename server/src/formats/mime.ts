/**
 * MIME multi-part user data (EC2 launch templates, Karpenter, EKS node groups): a carrier, recognised by its own
 * headers (parse/mime.ts), whatever the file is called. Its parts are payloads by content type, as cloud-init
 * (cloudinit/user_data.py _process_msg) and nodeadm read them:
 * - text/x-shellscript, and text/plain or text/x-not-multipart whose body starts with `#!`: a shell script
 *   (formats/shell.ts reads the files its here-documents write). cloud-init looks at the start of these three
 *   types (handlers type_from_starts_with), so such a part that starts with `#cloud-config` is a cloud-config;
 * - text/cloud-config: a cloud-config (formats/cloud-init.ts);
 * - application/node.eks.aws: a nodeadm NodeConfig. nodeadm merges all such parts in order, so they form one
 *   payload, the parts joined as documents of one YAML stream;
 * - any other type is not the kubelet's and is skipped.
 * A base64 part (`Content-Transfer-Encoding: base64`) is decoded; each character maps to the encoded line it comes
 * from, and a quick fix re-encodes the whole part. Quoted-printable parts are named as not checked.
 */
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import { carrierOf, type Payload, type PayloadMap } from '../embed/payload.ts';
import { decodeBase64Lines } from '../embed/data-url.ts';
import { looksLikeMime, NODEADM_MEDIA_TYPE, readMime, type MimePart } from '../parse/mime.ts';
import { scanTemplates } from '../parse/template.ts';
import { templateNote } from '../parse/config.ts';
import type { FileKind } from '../model/source.ts';
import { defineFormat } from './types.ts';

/** Where cloud-init keeps the parts it runs (cloudinit/handlers/shell_script.py: the instance's scripts folder). */
const SCRIPTS = '/var/lib/cloud/instance/scripts';
/** Documents and sources, not user data, even when they quote a MIME message at column 0. */
const NOT_USER_DATA = new Set(['md', 'markdown', 'rst', 'adoc', 'html', 'htm', 'go', 'py', 'js', 'ts', 'java', 'rb', 'json', 'toml']);

/** The kind of a part's body, from its type and, for the types cloud-init inspects, its first line. */
function partKind(type: string, body: string): FileKind | 'nodeadm' | undefined {
  if (type === NODEADM_MEDIA_TYPE) return 'nodeadm';
  if (type === 'text/cloud-config') return 'cloud-init';
  if (type === 'text/plain' || type === 'text/x-not-multipart' || type === 'text/x-shellscript') {
    // A Jinja part (`## template: jinja`) is rendered first and then looked at again: its next line decides.
    const start = body.trimStart().replace(/^## *template: *jinja[ \t]*\r?\n/i, '').trimStart().toLowerCase();
    if (start.startsWith('#cloud-config') && !start.startsWith('#cloud-config-archive')) return 'cloud-init';
    if (start.startsWith('#!') || type === 'text/x-shellscript') return 'shell';
  }
  if (/^text\/x-shellscript-per-(?:boot|instance|once)$/.test(type)) return 'shell';
  return undefined;
}

interface Body {
  part: MimePart;
  text: string;
  offsets: Int32Array;
  base64: boolean;
}

function bodyOf(text: string, part: MimePart): Body | { part: MimePart; why: string } {
  if (part.encoding === 'base64') {
    const d = decodeBase64Lines(text, part.bodyStart, part.bodyEnd);
    return d.ok ? { part, text: d.text, offsets: d.offsets, base64: true } : { part, why: d.why };
  }
  if (part.encoding === 'quoted-printable') return { part, why: 'its content is quoted-printable encoded' };
  const offsets = new Int32Array(part.bodyEnd - part.bodyStart + 1);
  for (let i = 0; i < offsets.length; i++) offsets[i] = part.bodyStart + i;
  return { part, text: text.slice(part.bodyStart, part.bodyEnd), offsets, base64: false };
}

/** Inserted text must not hold a delimiter line of the part's message or of one around it. */
function breaksParts(t: string, part: MimePart): boolean {
  return t.split(/\r?\n/).some((line) => part.boundaries.some((b) => line.startsWith('--' + b)));
}

const base64Lines = (t: string, eol: string) => (Buffer.from(t, 'utf8').toString('base64').match(/.{1,76}/g) ?? []).join(eol);

function parseMime(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const lines = new LineIndex(text);
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  const msg = readMime(text);
  if (!msg.ok) {
    problems.push(finding('config-syntax', 'error', { file: path, range: lines.range(msg.at, msg.at) }, `cloud-init cannot split this MIME user data: ${msg.why}.`));
    return { embedded, problems };
  }
  const eol = /\r\n/.test(text.slice(0, 400)) ? '\r\n' : '\n';
  const span = (p: MimePart) => lines.range(p.start, p.bodyEnd);
  const nodeadm: Body[] = [];
  for (const part of msg.parts) {
    const b = bodyOf(text, part);
    const kind = partKind(part.type, 'text' in b ? b.text : '');
    if (!kind) continue;
    const target = kind === 'nodeadm' ? nodeConfigTarget(path) : `${SCRIPTS}/${safeName(part.filename) ?? `part-${String(part.index).padStart(3, '0')}`}`;
    if (!('text' in b)) {
      embedded.push({ target, kind: kind === 'nodeadm' ? 'eks-nodeadm' : kind, text: '', map: { host: lines, offsets: Int32Array.of(part.start), encode: () => undefined }, span: span(part), lines: new LineIndex(''), unchecked: b.why });
      continue;
    }
    if (kind === 'nodeadm') {
      nodeadm.push(b);
      continue;
    }
    if (kind === 'shell') noShebang(path, text, lines, part, b, eol, problems);
    // A script or cloud-config is itself a carrier: its files are edited through this map, piecemeal or not at all
    // (base64 text has no place for a piece).
    const map: PayloadMap = { host: lines, offsets: b.offsets, encode: (t) => (b.base64 || breaksParts(t, part) ? undefined : t) };
    embedded.push({ target, kind, text: b.text, map, span: span(part), lines: new LineIndex(b.text) });
  }
  if (nodeadm.length) embedded.push(joinNodeConfigs(path, lines, nodeadm, eol));
  // A template (Terraform `%{ if }`, Jinja `{% %}`) decides which lines and parts there are: what is literal is read,
  // and a placeholder in a payload is filled in when the template is rendered.
  const structural = embedded.length ? scanTemplates(text, { dollar: true }).filter((e) => e.control) : [];
  if (structural.length) {
    for (const p of embedded) p.template = true;
    problems.push(templateNote(path, lines, { text, values: [], structural }, 'file'));
  }
  return { embedded, problems };
}

/**
 * cloud-init writes a script part to a file as it is and executes it (handlers/shell_script.py, then subp.runparts
 * in the scripts-user module): without `#!` at its very start the kernel refuses it (ENOEXEC, "Exec format error")
 * and none of its commands run. A Jinja part loses its `## template: jinja` line when it is rendered.
 */
function noShebang(path: string, text: string, lines: LineIndex, part: MimePart, b: Body, eol: string, out: Finding[]): void {
  const script = b.text.replace(/^## *template: *jinja[ \t]*\r?\n/i, '');
  if (script.startsWith('#!')) return;
  const at = part.bodyStart;
  const lineEnd = text.indexOf('\n', at);
  const end = Math.min(lineEnd < 0 ? part.bodyEnd : lineEnd, part.bodyEnd);
  const range = lines.range(at, end > at && text[end - 1] === '\r' ? end - 1 : end);
  const jinja = script.length !== b.text.length;
  const fix = !b.base64 && !jinja ? [{ title: 'Insert "#!/bin/bash" as the first line', edits: [{ file: path, range: lines.range(at, at), newText: '#!/bin/bash' + eol }], preferred: true }] : [];
  out.push(finding('userdata-script-no-shebang', 'warning', { file: path, range },
    `cloud-init cannot run this script part: it has no #! line. cloud-init saves a ${part.type} part as a file and executes it; without an interpreter line such as "#!/bin/bash" first, the kernel refuses it (Exec format error) and none of its commands run.`,
    fix.length ? { fixes: fix } : undefined));
}

/** A Content-Disposition file name as cloud-init would write it: the last path segment, if any. */
function safeName(name: string | undefined): string | undefined {
  const base = name?.split('/').pop()?.trim();
  return base && base !== '.' && base !== '..' ? base : undefined;
}

/**
 * Where the NodeConfig of this user data is: user data held by another carrier (one per Karpenter EC2NodeClass) gets
 * a place of its own beside it, so that the node classes of one file stay apart.
 */
function nodeConfigTarget(path: string): string {
  const inner = carrierOf(path) === undefined ? undefined : path.slice(path.indexOf('//') + 1);
  return inner ? `${inner}.d/nodeconfig.yaml` : '/etc/eks/nodeadm/nodeconfig.yaml';
}

/**
 * The NodeConfig parts as one YAML stream (nodeadm merges them in order): each part a document, `---` lines put
 * between them at the place of the next part's delimiter. A fix re-encodes a part only when it is the one part and
 * base64; in plain parts edits go where they are.
 */
function joinNodeConfigs(path: string, lines: LineIndex, parts: Body[], eol: string): Payload {
  let text = '';
  const offsets: number[] = [];
  for (const [i, b] of parts.entries()) {
    if (i > 0) {
      const sep = (text.endsWith('\n') ? '' : eol) + '---' + eol;
      text += sep;
      for (let k = 0; k < sep.length; k++) offsets.push(b.part.start);
    }
    text += b.text;
    for (let k = 0; k < b.text.length; k++) offsets.push(b.offsets[k]);
  }
  const last = parts[parts.length - 1];
  offsets.push(last.offsets[last.text.length]);
  const partAt = (at: number) => parts.find((b) => at >= b.part.bodyStart && at <= b.part.bodyEnd);
  const one = parts.length === 1 && parts[0].base64 ? parts[0] : undefined;
  const map: PayloadMap = {
    host: lines,
    offsets: Int32Array.from(offsets),
    encode: (t, at) => {
      const b = partAt(at);
      return !b || b.base64 || breaksParts(t, b.part) ? undefined : t;
    },
    rewrite: one && { start: one.part.bodyStart, end: one.part.bodyEnd, encode: (t) => base64Lines(t, eol) },
  };
  return { target: nodeConfigTarget(path), kind: 'eks-nodeadm', text, map, span: lines.range(parts[0].part.start, last.part.bodyEnd), lines: new LineIndex(text) };
}

export default defineFormat({
  kind: 'mime',
  rank: 10,
  label: 'MIME multi-part user data',
  byContent: (c) => !NOT_USER_DATA.has(c.ext) && looksLikeMime(c.head, NODEADM_MEDIA_TYPE),
  parse: parseMime,
  comments: () => 'none',
  join: { kind: 'carrier' },
  watch: ['**/*.mime', '**/user-data', '**/*.tpl', '**/*userdata*', '**/*user-data*'],
  selector: ['**/*.mime', '**/user-data', '**/*.tpl', '**/*userdata*', '**/*user-data*'],
  activation: ['**/*.mime'],
});
