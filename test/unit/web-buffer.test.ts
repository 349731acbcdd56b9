// The web worker's stand-in for Node's Buffer (server/src/web/buffer.ts) against Node's own, on the calls the engine
// makes: base64 of UTF-8 text and back, lenient base64 input, UTF-8 bytes of any string (lone surrogates included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Buffer as WebBuffer } from '../../server/src/web/buffer.ts';

test('web Buffer: utf8 bytes and base64 of any string are Node\'s', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      assert.deepEqual([...WebBuffer.from(s, 'utf8')], [...Buffer.from(s, 'utf8')]);
      assert.equal(WebBuffer.from(s, 'utf8').toString('base64'), Buffer.from(s, 'utf8').toString('base64'));
      assert.equal(WebBuffer.byteLength(s), Buffer.byteLength(s, 'utf8'));
    }),
    { numRuns: 500 },
  );
});

test('web Buffer: decoding any base64-ish text gives Node\'s bytes and text', () => {
  const chars = fc.constantFrom(...'ABCabcxyz0189+/-_= \n\t$*é'.split(''));
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 40 }).map((a) => a.join('')), (s) => {
      assert.deepEqual([...WebBuffer.from(s, 'base64')], [...Buffer.from(s, 'base64')], JSON.stringify(s));
      assert.equal(WebBuffer.from(s, 'base64').toString('utf8'), Buffer.from(s, 'base64').toString('utf8'));
    }),
    { numRuns: 1000 },
  );
  assert.equal(WebBuffer.from('YWJjZA==', 'base64').toString(), 'abcd');
});
