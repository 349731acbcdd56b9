/**
 * RFC 2397 `data:` URLs as Ignition reads them (`storage.files[].contents.source`; coreos/ignition
 * internal/resource/url.go, scheme "data": vincent-petithory/dataurl DecodeString): `data:[<media type>][;base64],<data>`.
 * Percent-encoded data is decoded escape by escape (only `%XX`; `+` stays a plus), so each decoded character
 * maps back to its escape and an edit is written back percent-encoded. Base64 data has no character-wise place:
 * every position maps to the start of the data, and an edit is not written back piecemeal (a quick fix, if any,
 * replaces the whole URL: `rewrite`).
 */

/** The URL's characters and where each is in the carrier (one more offset: just after the URL). */
export interface Located {
  text: string;
  offsets: ArrayLike<number>;
}

export type DataUrl =
  | { ok: true; text: string; offsets: Int32Array; base64: boolean; dataStart: number }
  | { ok: false; why: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeDataUrl(url: Located): DataUrl {
  const { text, offsets } = url;
  if (!/^data:/i.test(text)) return { ok: false, why: 'its content is fetched from contents.source when Ignition runs' };
  const comma = text.indexOf(',');
  if (comma < 0) return { ok: false, why: 'its data URL has no comma, so Ignition cannot read it' };
  const base64 = /;base64$/i.test(text.slice(5, comma));
  const dataStart = comma + 1;
  if (base64) {
    const data = text.slice(dataStart);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) return { ok: false, why: 'its data URL is not valid base64' };
    let decoded: string;
    try {
      decoded = utf8.decode(Buffer.from(data, 'base64'));
    } catch {
      return { ok: false, why: 'its data URL holds binary data, not text' };
    }
    return { ok: true, text: decoded, offsets: new Int32Array(decoded.length + 1).fill(offsets[dataStart]), base64, dataStart };
  }
  // Percent-encoded: bytes with the carrier offset each starts at, then UTF-8 code points with their first byte's.
  // (Typed arrays of the largest size the data can decode to: three bytes per character at most. A growing array of
  // numbers per byte took 770 MB for a 2 MiB config, issue #28.)
  const bytes = new Uint8Array(3 * (text.length - dataStart));
  const at = new Int32Array(bytes.length);
  let n = 0;
  for (let i = dataStart; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 37 /* % */) {
      const hi = hexDigit(text.charCodeAt(i + 1));
      const lo = hexDigit(text.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return { ok: false, why: `its data URL has a bad escape "${text.slice(i, i + 3)}"` };
      bytes[n] = (hi << 4) | lo;
      at[n++] = offsets[i];
      i += 3;
    } else if (c < 0x80) {
      bytes[n] = c;
      at[n++] = offsets[i];
      i++;
    } else {
      const cp = text.codePointAt(i)!;
      const len = cp > 0xffff ? 2 : 1;
      const enc = Buffer.from(text.slice(i, i + len), 'utf8');
      for (const b of enc) {
        bytes[n] = b;
        at[n++] = offsets[i];
      }
      i += len;
    }
  }
  const d = utf8WithOffsets(bytes.subarray(0, n), at.subarray(0, n), offsets[text.length]);
  if (!d) return { ok: false, why: 'its data URL holds binary data, not text' };
  return { ok: true, text: d.text, offsets: d.offsets, base64, dataStart };
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * UTF-8 bytes, each with the carrier offset it comes from, as text with the offset of each UTF-16 unit (that of its
 * code point's first byte) and `end` after the last; undefined when the bytes are not UTF-8 text. One decode of the
 * whole, then one pass over the lead bytes (no string or array per code point).
 */
export function utf8WithOffsets(bytes: ArrayLike<number>, at: ArrayLike<number>, end: number): { text: string; offsets: Int32Array } | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
  const offsets = new Int32Array(text.length + 1);
  let u = 0;
  // The decoder drops a byte order mark at the start (as the per-character decoding before did): it has no unit.
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  for (let k = bom ? 3 : 0; k < bytes.length; ) {
    const lead = bytes[k];
    const n = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    offsets[u++] = at[k];
    if (n === 4) offsets[u++] = at[k]; // a surrogate pair: two UTF-16 units
    k += n;
  }
  offsets[text.length] = end;
  return { text, offsets };
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Base64 text of a MIME body (carrier offsets from..to, broken into lines), decoded with a place for each character:
 * the first character of the four that hold its first byte, so a finding lands on the encoded line it comes from.
 */
export function decodeBase64Lines(host: string, from: number, to: number): { ok: true; text: string; offsets: Int32Array } | { ok: false; why: string } {
  const digits: number[] = [];
  const at: number[] = [];
  let pad = 0;
  for (let i = from; i < to; i++) {
    const c = host[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (c === '=') {
      pad++;
      continue;
    }
    const v = B64.indexOf(c);
    if (v < 0 || pad) return { ok: false, why: 'its base64 content is not valid base64' };
    digits.push(v);
    at.push(i);
  }
  if ((digits.length + pad) % 4 !== 0 || pad > 2) return { ok: false, why: 'its base64 content is not valid base64' };
  const bytes: number[] = [];
  const byteAt: number[] = [];
  for (let q = 0; q < digits.length; q += 4) {
    const n = Math.min(4, digits.length - q);
    const v = ((digits[q] << 18) | ((digits[q + 1] ?? 0) << 12) | ((digits[q + 2] ?? 0) << 6) | (digits[q + 3] ?? 0)) >>> 0;
    for (let b = 0; b < n - 1; b++) {
      bytes.push((v >> (16 - 8 * b)) & 0xff);
      byteAt.push(at[q]);
    }
  }
  const d = utf8WithOffsets(bytes, byteAt, to);
  return d ? { ok: true, ...d } : { ok: false, why: 'its base64 content is binary data, not text' };
}

/** Text written into percent-encoded data: every character but the unreserved ones escaped. */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * A JSON string's characters between its quotes, each with its offset in the host (escapes undone). The text is cut
 * from the host between escapes (a 5.5 MiB base64 config was built a character at a time: 1 GB, issue #28).
 */
export function jsonStringChars(host: string, start: number, end: number): Located {
  const offsets = new Int32Array(end - start + 1);
  let first = host.indexOf('\\', start);
  if (first < 0 || first >= end) {
    for (let i = 0; i <= end - start; i++) offsets[i] = start + i;
    return { text: host.slice(start, end), offsets };
  }
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"' };
  const parts: string[] = [];
  let n = 0;
  for (let i = start; i < end; ) {
    const next = first >= 0 && first < end ? first : end;
    // The plain run up to the next escape.
    parts.push(host.slice(i, next));
    for (let k = i; k < next; k++) offsets[n++] = k;
    if (next >= end) break;
    const e = host[next + 1];
    if (e === 'u') {
      parts.push(String.fromCharCode(parseInt(host.slice(next + 2, next + 6), 16) || 0));
      offsets[n++] = next;
      i = next + 6;
    } else {
      parts.push(simple[e] ?? e ?? '');
      offsets[n++] = next;
      i = next + 2;
    }
    first = host.indexOf('\\', i);
  }
  offsets[n] = end;
  return { text: parts.join(''), offsets: offsets.subarray(0, n + 1) };
}
