/**
 * TextMap.segmentIndex() remembers its last answer (the words of a long continued ExecStart= are placed in
 * order). Whatever the order of the questions, each answer must be the binary search's: the last segment
 * starting at or before the offset, 0 when none does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextMap, type Segment } from '../../server/src/model/range.ts';

function reference(segs: readonly Segment[], offset: number): number {
  let found = 0;
  for (let i = 0; i < segs.length; i++) if (segs[i].offset <= offset) found = i;
  return found;
}

test('segmentIndex with its memory answers like a fresh search, in any order of offsets (zero-length segments and offsets before the first included)', () => {
  // Non-decreasing offsets, as the parsers make them; equal offsets are zero-length segments.
  const segments = fc.array(fc.nat({ max: 4 }), { minLength: 0, maxLength: 12 }).map((steps) => {
    let at = 1;
    return steps.map((d, i): Segment => {
      at += d;
      return { offset: at, line: i, character: 0, length: d };
    });
  });
  fc.assert(
    fc.property(segments, fc.array(fc.integer({ min: -1, max: 60 }), { maxLength: 30 }), (segs, offsets) => {
      const map = new TextMap('f', segs);
      for (const o of offsets) assert.equal(map.segmentIndex(o), reference(segs, o), `offset ${o}`);
    }),
    { numRuns: 5000, seed: 20261130 },
  );
});
