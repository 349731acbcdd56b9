/**
 * The part of Node's Buffer the engine uses (base64 of a carrier's payload, UTF-8 bytes of a character), for the
 * web worker's bundle: esbuild injects it there in place of the global `Buffer` (build.mjs), so the engine's code is
 * the same in both servers. It does what Node does for these calls: `from(text, 'utf8' | 'base64')`,
 * `toString('utf8' | 'base64')`, iteration and indexing; base64 decoding skips characters outside the alphabet
 * (whitespace, ...), takes the URL-safe one too and stops at the first `=`, as Node's does
 * (test/unit/web-buffer.test.ts compares the two).
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
VALUE['-'.charCodeAt(0)] = 62;
VALUE['_'.charCodeAt(0)] = 63;

/** What `Buffer.from` returns here: bytes that print as UTF-8 or base64. */
export class Bytes extends Uint8Array {
  override toString(encoding: 'utf8' | 'utf-8' | 'base64' = 'utf8'): string {
    if (encoding === 'base64') return encodeBase64(this);
    return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(this);
  }
}

export const Buffer = {
  from(value: string, encoding: 'utf8' | 'utf-8' | 'base64' = 'utf8'): Bytes {
    if (typeof value !== 'string') throw new TypeError('this Buffer stand-in takes strings only');
    if (encoding === 'base64') return decodeBase64(value);
    const bytes = new TextEncoder().encode(value);
    const out = new Bytes(bytes.length);
    out.set(bytes);
    return out;
  },

  byteLength(text: string): number {
    return new TextEncoder().encode(text).length;
  },
};

function decodeBase64(text: string): Bytes {
  const out: number[] = [];
  let bits = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break; // '='
    const v = c < 128 ? VALUE[c] : -1;
    if (v < 0) continue;
    bits = (bits << 6) | v;
    n += 6;
    if (n >= 8) {
      n -= 8;
      out.push((bits >> n) & 0xff);
      bits &= (1 << n) - 1;
    }
  }
  const b = new Bytes(out.length);
  b.set(out);
  return b;
}

function encodeBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i];
    const b = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2] : 0;
    s += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | (b >> 4)];
    s += i + 1 < bytes.length ? ALPHABET[((b & 15) << 2) | (c >> 6)] : '=';
    s += i + 2 < bytes.length ? ALPHABET[c & 63] : '=';
  }
  return s;
}
