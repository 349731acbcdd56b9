/**
 * server/src/lsp/large-document.ts (issue #28 point 5): a large open document held as lines answers exactly as
 * vscode-languageserver-textdocument's TextDocument does, on generated texts (\n, \r\n and lone \r line breaks) and
 * generated edits (ranges reversed, past the line's end, inside a \r\n), and for positions past the last line too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { LargeDocument } from '../../server/src/lsp/large-document.ts';

const piece = fc.constantFrom('a', 'bc', ' ', '\n', '\r\n', '\r', 'é', '😀', 'KEY=value', '');
const text = fc.array(piece, { maxLength: 30 }).map((a) => a.join(''));
const pos = fc.record({ line: fc.integer({ min: -1, max: 12 }), character: fc.integer({ min: -1, max: 12 }) });
const change: fc.Arbitrary<TextDocumentContentChangeEvent> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ range: fc.record({ start: pos, end: pos }), text }) },
  { weight: 1, arbitrary: fc.record({ text }) },
);

test('a document held as lines answers as the library text document after any edits', () => {
  fc.assert(
    fc.property(text, fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { maxLength: 8 }), fc.array(pos, { maxLength: 4 }), fc.array(fc.integer({ min: -2, max: 80 }), { maxLength: 4 }), (t, edits, ps, offsets) => {
      let lib = TextDocument.create('file:///x', 'plaintext', 1, t);
      const mine = new LargeDocument('file:///x', 'plaintext', 1, t);
      let v = 1;
      for (const raw of edits) {
        v++;
        // Lines within the document (the library's line table goes wrong on a line past the last one, which its
        // text then follows); characters past the line's end are clamped by both.
        const inDoc = (p: { line: number; character: number }) => ({ line: Math.abs(p.line) % lib.lineCount, character: p.character });
        for (const c of raw) {
          const one = 'range' in c ? { range: { start: inDoc(c.range.start), end: inDoc(c.range.end) }, text: c.text } : c;
          lib = TextDocument.update(lib, [one], v);
          mine.update([one], v);
        }
        assert.equal(mine.getText(), lib.getText());
        assert.equal(mine.length, lib.getText().length);
        assert.equal(mine.version, lib.version);
        // Lines, offsets and positions as a document of that text has them (the library's own line table goes wrong
        // after an edit past the last line, though its text is right: "" with \r\n put at line 2 has 4 lines there).
        lib = TextDocument.create('file:///x', 'plaintext', v, lib.getText());
        assert.equal(mine.lineCount, lib.lineCount);
      }
      for (const p of ps) {
        assert.equal(mine.offsetAt(p), lib.offsetAt(p), JSON.stringify(p));
        assert.equal(mine.getText({ start: { line: 0, character: 0 }, end: p }), lib.getText({ start: { line: 0, character: 0 }, end: p }));
      }
      for (const o of offsets) assert.deepEqual(mine.positionAt(o), lib.positionAt(o), String(o));
      for (let l = -1; l <= lib.lineCount; l++) {
        assert.deepEqual(mine.getLineRange(l), lib.getLineRange(l), `line ${l}`);
        assert.equal(mine.getEOLCharacters(l), lib.getEOLCharacters(l), `line ${l}`);
      }
    }),
    { numRuns: 3000, seed: 20261204 },
  );
});

test('an edit of a large document replaces its lines, not its text: the text is joined only when read', () => {
  const big = 'KEY=value\n'.repeat(200_000);
  const doc = new LargeDocument('file:///x', 'plaintext', 1, big);
  doc.update([{ range: { start: { line: 200_000, character: 0 }, end: { line: 200_000, character: 0 } }, text: 'X=1' }], 2);
  assert.equal(doc.lineCount, 200_001);
  assert.equal(doc.length, big.length + 3);
  assert.ok(doc.getText().endsWith('KEY=value\nX=1'));
});
