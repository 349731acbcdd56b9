/**
 * MIME multi-part messages as EC2 user data (RFC 2045/2046), read as cloud-init and nodeadm read them:
 * - the message is MIME when its head names `MIME-Version:` (cloud-init cloudinit/user_data.py convert_string looks
 *   for it in the first 4096 bytes) and its `Content-Type:` is multipart with a `boundary` parameter;
 * - a delimiter line is `--<boundary>` at the start of a line, then `--` for the last one, then blanks only (Python
 *   email.feedparser boundaryre, Go mime/multipart); the line break before a delimiter belongs to the delimiter;
 * - a part's headers run to the first blank line, or to the first line that is no header (then the body starts
 *   there, as feedparser does); a part without Content-Type is text/plain (RFC 2046 5.1.3);
 * - a multipart part is a container: its own parts are read in turn (cloud-init walks the whole tree).
 * Everything is offsets into the text; nothing is decoded here (formats/mime.ts does that).
 */


/** The media type of a NodeConfig part in EKS user data (awslabs/amazon-eks-ami nodeadm: it reads these parts). */
export const NODEADM_MEDIA_TYPE = 'application/node.eks.aws';

export interface MimePart {
  /** 1-based, in document order over the leaves (cloud-init names part files part-001, part-002, ...). */
  index: number;
  /** Offset of the part's delimiter line. */
  start: number;
  bodyStart: number;
  bodyEnd: number;
  /** Lower-case media type without parameters. */
  type: string;
  /** Lower-case Content-Transfer-Encoding ('' when absent). */
  encoding: string;
  filename?: string;
  /** The boundaries a body must not hold a line of: its own message's and those around it. */
  boundaries: readonly string[];
}

export type MimeMessage = { ok: true; parts: MimePart[] } | { ok: false; why: string; at: number };

const HEAD = 4096;
const MAX_DEPTH = 4;

/** Column-0 header lines that say the text is a MIME multi-part message (both within the first 4096 characters). */
export const MIME_VERSION_LINE = /^MIME-Version:/im;
export const MULTIPART_LINE = /^Content-Type:[ \t]*multipart\//im;

/**
 * A multipart message by its head. cloud-init needs `MIME-Version:`; nodeadm reads the message's Content-Type only
 * (net/mail ReadMessage, mime.ParseMediaType), so `partType`, a part type its reader looks for, is enough too.
 */
export function looksLikeMime(head: string, partType?: string): boolean {
  const h = head.length > HEAD ? head.slice(0, HEAD) : head;
  if (/^\uFEFF?#!/.test(h) || !MULTIPART_LINE.test(h)) return false;
  return MIME_VERSION_LINE.test(h) || (partType !== undefined && h.toLowerCase().includes('\ncontent-type: ' + partType));
}

export function readMime(text: string): MimeMessage {
  // The top headers: the block holding the multipart Content-Type line (lines before it are a preamble a template
  // adds, such as a Terraform directive; cloud-init sees the rendered text).
  const m = MULTIPART_LINE.exec(text.slice(0, HEAD));
  if (!m) return { ok: false, why: 'it has no multipart Content-Type header', at: 0 };
  const head = readHeaders(text, m.index, text.length);
  const ct = head.fields.get('content-type') ?? '';
  const boundary = param(ct, 'boundary');
  if (!boundary) return { ok: false, why: 'its Content-Type names no boundary, so its parts cannot be told apart', at: m.index };
  const parts: MimePart[] = [];
  readParts(text, head.bodyStart, text.length, [boundary], parts, 0);
  return { ok: true, parts };
}

function readParts(text: string, from: number, to: number, boundaries: string[], out: MimePart[], depth: number): void {
  const delim = '--' + boundaries[boundaries.length - 1];
  // Delimiter lines: their start, and where the line after them starts.
  const marks: { start: number; next: number; last: boolean }[] = [];
  for (let s = from; s < to; ) {
    const e = lineEnd(text, s, to);
    if (text.startsWith(delim, s)) {
      const rest = text.slice(s + delim.length, e).replace(/\r$/, '');
      const last = rest.startsWith('--');
      if (/^[ \t]*$/.test(last ? rest.slice(2) : rest)) {
        marks.push({ start: s, next: Math.min(e + 1, to), last });
        if (last) break;
      }
    }
    s = e + 1;
  }
  for (let i = 0; i < marks.length; i++) {
    if (marks[i].last) break;
    const start = marks[i].start;
    const end = i + 1 < marks.length ? bodyEndBefore(text, marks[i + 1].start, marks[i].next) : to;
    const h = readHeaders(text, marks[i].next, end);
    const ct = h.fields.get('content-type') ?? '';
    const type = (ct.split(';')[0].trim() || 'text/plain').toLowerCase();
    const inner = type.startsWith('multipart/') ? param(ct, 'boundary') : undefined;
    if (inner && depth < MAX_DEPTH) {
      readParts(text, h.bodyStart, end, [...boundaries, inner], out, depth + 1);
      continue;
    }
    const encoding = (h.fields.get('content-transfer-encoding') ?? '').trim().toLowerCase();
    const filename = param(h.fields.get('content-disposition') ?? '', 'filename');
    out.push({ index: out.length + 1, start, bodyStart: h.bodyStart, bodyEnd: Math.max(h.bodyStart, end), type, encoding, filename, boundaries });
  }
}

/** The offset of the line end at or after `s` (or `to`). */
function lineEnd(text: string, s: number, to: number): number {
  const e = text.indexOf('\n', s);
  return e < 0 || e >= to ? to : e;
}

/** A body ends before the line break that precedes the next delimiter line (RFC 2046 5.1.1). */
function bodyEndBefore(text: string, delimStart: number, floor: number): number {
  let e = delimStart;
  if (e > floor && text[e - 1] === '\n') e--;
  if (e > floor && text[e - 1] === '\r') e--;
  return e;
}

/** Header fields (lower-case names, unfolded values; the first of a name wins) and where the body starts. */
function readHeaders(text: string, from: number, to: number): { fields: Map<string, string>; bodyStart: number } {
  const fields = new Map<string, string>();
  let last: string | undefined;
  let s = from;
  while (s < to) {
    const e = lineEnd(text, s, to);
    const line = text.slice(s, e).replace(/\r$/, '');
    if (line === '') return { fields, bodyStart: Math.min(e + 1, to) };
    if (line[0] === ' ' || line[0] === '\t') {
      if (last !== undefined) fields.set(last, fields.get(last)! + ' ' + line.trim());
    } else {
      const colon = line.indexOf(':');
      // A field name is printable ASCII without a colon (feedparser headerRE); anything else starts the body.
      if (colon <= 0 || !/^[\x21-\x39\x3b-\x7e]+$/.test(line.slice(0, colon))) return { fields, bodyStart: s };
      const name = line.slice(0, colon).toLowerCase();
      // Message.get returns the first field of a name; a repeated one is skipped with its continuation lines.
      last = fields.has(name) ? undefined : name;
      if (last !== undefined) fields.set(name, line.slice(colon + 1).trim());
    }
    s = e + 1;
  }
  return { fields, bodyStart: to };
}

/** A parameter of a structured header value (`type/sub; name="value"; ...`), quotes removed. */
export function param(value: string, name: string): string | undefined {
  let i = value.indexOf(';');
  while (i >= 0 && i < value.length) {
    let j = i + 1;
    while (value[j] === ' ' || value[j] === '\t') j++;
    const eq = value.indexOf('=', j);
    if (eq < 0) return undefined;
    const key = value.slice(j, eq).trim().toLowerCase();
    let v: string;
    let next: number;
    if (value[eq + 1] === '"') {
      const close = value.indexOf('"', eq + 2);
      v = value.slice(eq + 2, close < 0 ? value.length : close);
      next = close < 0 ? -1 : value.indexOf(';', close);
    } else {
      next = value.indexOf(';', eq);
      v = value.slice(eq + 1, next < 0 ? value.length : next).trim();
    }
    if (key === name) return v;
    i = next;
  }
  return undefined;
}
