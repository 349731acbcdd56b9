/**
 * Issue #28 point 2: Ignition `data:` URLs are decoded on strings and typed arrays (embed/data-url.ts), not a character
 * or byte at a time into growing arrays. The property: on generated text (ASCII, other BMP characters, astral ones,
 * JSON escapes, percent escapes of any byte), the decoder gives the text and, for each character, the carrier offset
 * of its first escape or character, the same as a reference that decodes one code point at a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeDataUrl, jsonStringChars, percentEncode } from '../../server/src/embed/data-url.ts';
import { analyze } from '../../server/src/engine.ts';

/** The reference: JSON string characters one by one, then percent escapes and code points one by one. */
function reference(host: string, start: number, end: number): { text: string; offsets: number[] } {
  const chars: { c: string; at: number }[] = [];
  for (let i = start; i < end; ) {
    if (host[i] === '\\') {
      const e = host[i + 1];
      if (e === 'u') {
        chars.push({ c: String.fromCharCode(parseInt(host.slice(i + 2, i + 6), 16)), at: i });
        i += 6;
      } else {
        chars.push({ c: ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e, at: i });
        i += 2;
      }
    } else chars.push({ c: host[i], at: i++ });
  }
  const url = chars.map((x) => x.c).join('');
  const data = url.indexOf(',') + 1;
  const bytes: { b: number; at: number }[] = [];
  for (let k = data; k < url.length; ) {
    if (url[k] === '%') {
      bytes.push({ b: parseInt(url.slice(k + 1, k + 3), 16), at: chars[k].at });
      k += 3;
    } else {
      const cp = url.codePointAt(k)!;
      const n = cp > 0xffff ? 2 : 1;
      for (const b of Buffer.from(url.slice(k, k + n), 'utf8')) bytes.push({ b, at: chars[k].at });
      k += n;
    }
  }
  let text = '';
  const offsets: number[] = [];
  for (let k = 0; k < bytes.length; ) {
    const lead = bytes[k].b;
    const n = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    const s = Buffer.from(bytes.slice(k, k + n).map((x) => x.b)).toString('utf8');
    for (let u = 0; u < s.length; u++) offsets.push(bytes[k].at);
    text += s;
    k += n;
  }
  offsets.push(end);
  return { text, offsets };
}

const piece = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('é', 'ж', '€', '😀', '𝄞', '\n', '\t', '"', '\\', '/', '%', '+', ' '),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

test('percent-encoded data URLs inside JSON strings: text and offsets as decoded one code point at a time', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(piece, fc.nat(3)), { maxLength: 30 }), (pieces) => {
      // each piece written plainly, percent-encoded, or JSON-escaped (\u form), so both layers of escapes mix
      let url = 'data:,';
      for (const [p, how] of pieces) {
        const safe = [...p].filter((c) => c !== '\uFEFF' && !/[\uD800-\uDFFF]/.test(c)).join('');
        url += how === 0 ? safe.replace(/%/g, '%25') : percentEncode(safe);
      }
      const json = JSON.stringify(url).replace(/[\u0080-\uffff]/g, (c) => (c.charCodeAt(0) % 2 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c));
      const host = `{"source": ${json}}`;
      const start = host.indexOf('"', 10) + 1;
      const end = host.length - 2;
      const got = decodeDataUrl(jsonStringChars(host, start, end));
      assert.ok(got.ok, JSON.stringify(got));
      const want = reference(host, start, end);
      assert.equal(got.text, want.text);
      assert.deepEqual([...got.offsets], want.offsets);
    }),
    { numRuns: 300, seed: 2 },
  );
});

test('a base64 data URL holding many findings: one finding per place and message, the plain file\'s count', () => {
  const n = 3000;
  const config = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' + Array.from({ length: n }, (_, i) => `unknownField${i}: 1\n`).join('');
  const ign = (source: string) => JSON.stringify({ ignition: { version: '3.4.0' }, storage: { files: [{ path: '/var/lib/kubelet/config.yaml', contents: { source } }] } });
  const plain = analyze([{ path: 'var/lib/kubelet/config.yaml', text: config }]).findings.filter((f) => f.code === 'config-field-unknown').length;
  const b64 = analyze([{ path: 'node.ign', text: ign(`data:;base64,${Buffer.from(config).toString('base64')}`) }]).findings.filter((f) => f.code === 'config-field-unknown').length;
  const pct = analyze([{ path: 'node.ign', text: ign(`data:,${percentEncode(config)}`) }]).findings.filter((f) => f.code === 'config-field-unknown').length;
  assert.equal(plain, n);
  assert.equal(pct, n);
  assert.equal(b64, n);
});
