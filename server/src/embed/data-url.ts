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
  const bytes: number[] = [];
  const at: number[] = [];
  for (let i = dataStart; i < text.length; ) {
    if (text[i] === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return { ok: false, why: `its data URL has a bad escape "${text.slice(i, i + 3)}"` };
      bytes.push(parseInt(hex, 16));
      at.push(offsets[i]);
      i += 3;
    } else {
      const c = text.codePointAt(i)!;
      const enc = Buffer.from(String.fromCodePoint(c), 'utf8');
      for (const b of enc) {
        bytes.push(b);
        at.push(offsets[i]);
      }
      i += c > 0xffff ? 2 : 1;
    }
  }
  const d = utf8WithOffsets(bytes, at, offsets[text.length]);
  if (!d) return { ok: false, why: 'its data URL holds binary data, not text' };
  return { ok: true, text: d.text, offsets: d.offsets, base64, dataStart };
}

/**
 * UTF-8 bytes, each with the carrier offset it comes from, as text with the offset of each UTF-16 unit (that of its
 * code point's first byte) and `end` after the last; undefined when the bytes are not UTF-8 text.
 */
export function utf8WithOffsets(bytes: readonly number[], at: readonly number[], end: number): { text: string; offsets: Int32Array } | undefined {
  let out = '';
  const map: number[] = [];
  for (let k = 0; k < bytes.length; ) {
    const lead = bytes[k];
    const n = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    let s: string;
    try {
      s = utf8.decode(Uint8Array.from(bytes.slice(k, k + n)));
    } catch {
      return undefined;
    }
    for (let u = 0; u < s.length; u++) map.push(at[k]);
    out += s;
    k += n;
  }
  map.push(end);
  return { text: out, offsets: Int32Array.from(map) };
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

/** A JSON string's characters between its quotes, each with its offset in the host (escapes undone). */
export function jsonStringChars(host: string, start: number, end: number): Located {
  let text = '';
  const offsets: number[] = [];
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"' };
  for (let i = start; i < end; ) {
    if (host[i] === '\\') {
      const e = host[i + 1];
      if (e === 'u') {
        text += String.fromCharCode(parseInt(host.slice(i + 2, i + 6), 16) || 0);
        offsets.push(i);
        i += 6;
        continue;
      }
      text += simple[e] ?? e;
      offsets.push(i);
      i += 2;
      continue;
    }
    text += host[i];
    offsets.push(i);
    i++;
  }
  offsets.push(end);
  return { text, offsets };
}
