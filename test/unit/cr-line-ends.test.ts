/**
 * Issue #18: LSP lines end at "\n", "\r\n" and a lone "\r". LineIndex (offset -> position), offsetOf (position ->
 * offset, used by the fix verifier) and linesWith (modelines, suppressions) count them as an editor does, checked
 * against vscode-languageserver-textdocument on generated texts; loneCrToLf (YAML) keeps every position.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex, loneCrToLf, offsetOf } from '../../server/src/model/range.ts';
import { linesWith } from '../../server/src/parse/marked-lines.ts';

const text = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '\r', '\r\n', '\n\r', '#m'), { maxLength: 30 }).map((xs) => xs.join(''));

test('LineIndex and offsetOf count lines as an LSP client does (generated texts with \\n, \\r, \\r\\n)', () => {
  fc.assert(
    fc.property(text, (t) => {
      const doc = TextDocument.create('file:///x', 'plaintext', 1, t);
      const idx = new LineIndex(t);
      assert.equal(idx.lineCount, doc.lineCount);
      for (let o = 0; o <= t.length; o++) {
        const p = idx.position(o);
        // (an offset between the \r and \n of a CRLF has no position of its own: both put it at the line's end)
        assert.deepEqual(p, doc.positionAt(o), `offset ${o} of ${JSON.stringify(t)}`);
        assert.equal(offsetOf(t, p), doc.offsetAt(p));
      }
      for (let l = 0; l < idx.lineCount; l++) {
        const end = doc.offsetAt({ line: l, character: Number.MAX_SAFE_INTEGER });
        assert.equal(idx.lineText(l), t.slice(doc.offsetAt({ line: l, character: 0 }), end));
        assert.equal(offsetOf(t, { line: l, character: end - doc.offsetAt({ line: l, character: 0 }) + 1 }), undefined, 'past the line end');
      }
      assert.equal(offsetOf(t, { line: idx.lineCount, character: 0 }), undefined, 'past the last line');
      assert.deepEqual(linesWith(t, '#m').map((x) => x.line), [...new Set(t.split(/\r\n|\r|\n/).flatMap((l, i) => (l.includes('#m') ? [i] : [])))]);
      const lf = loneCrToLf(t);
      assert.equal(lf.length, t.length);
      assert.ok(!/\r(?!\n)/.test(lf));
      const idx2 = new LineIndex(lf);
      for (let o = 0; o <= t.length; o++) assert.deepEqual(idx2.position(o), idx.position(o));
    }),
    { numRuns: 300, seed: 18 },
  );
});

test('a CR-only text: each lone "\\r" ends a line', () => {
  const idx = new LineIndex('a\rbc\r\rd');
  assert.deepEqual(idx.starts, [0, 2, 5, 6]);
  assert.deepEqual(idx.position(3), { line: 1, character: 1 });
  assert.deepEqual([0, 1, 2, 3].map((l) => idx.lineText(l)), ['a', 'bc', '', 'd']);
  assert.equal(offsetOf('a\rbc', { line: 1, character: 2 }), 4);
});
