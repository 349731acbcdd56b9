import assert from 'node:assert/strict';
import type { Finding } from '../../server/src/model/finding.ts';

/** The longest first sentence a message may have: the Problems panel row shows it whole. */
export const POINT_MAX = 120;

/** A message's first sentence: up to the first ".", "?" or "!" followed by a blank, or the first line break. */
export function firstSentence(message: string): string {
  return message.split(/(?<=[.!?])\s|\n/)[0];
}

/** Every finding leads with its point in at most POINT_MAX characters. */
export function assertShortPoints(findings: readonly Finding[]): void {
  for (const f of findings) {
    const point = firstSentence(f.message);
    assert.ok(point.length <= POINT_MAX, `${f.code}: the first sentence has ${point.length} characters (at most ${POINT_MAX}): ${point}`);
  }
}
