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
  // Percent-encoded: bytes with the URL index each starts at, then UTF-8 code points with their first byte's index.
  const bytes: number[] = [];
  const at: number[] = [];
  for (let i = dataStart; i < text.length; ) {
    if (text[i] === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return { ok: false, why: `its data URL has a bad escape "${text.slice(i, i + 3)}"` };
      bytes.push(parseInt(hex, 16));
      at.push(i);
      i += 3;
    } else {
      const c = text.codePointAt(i)!;
      const enc = Buffer.from(String.fromCodePoint(c), 'utf8');
      for (const b of enc) {
        bytes.push(b);
        at.push(i);
      }
      i += c > 0xffff ? 2 : 1;
    }
  }
  let out = '';
  const map: number[] = [];
  for (let k = 0; k < bytes.length; ) {
    const lead = bytes[k];
    const n = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    let s: string;
    try {
      s = utf8.decode(Uint8Array.from(bytes.slice(k, k + n)));
    } catch {
      return { ok: false, why: 'its data URL holds binary data, not text' };
    }
    for (let u = 0; u < s.length; u++) map.push(offsets[at[k]]);
    out += s;
    k += n;
  }
  map.push(offsets[text.length]);
  return { ok: true, text: out, offsets: Int32Array.from(map), base64, dataStart };
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
