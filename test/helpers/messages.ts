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

/**
 * A finding's words for comparing a file alone with the same file in a carrier: a placeholder is a condition in a file
 * alone and a forgotten value in one a carrier writes onto the machine (server/src/node/placeholders.ts), so its words
 * differ there by design (config-placeholder's entirely, others by the condition before them).
 */
export function placeholderBlind(f: Pick<Finding, 'code'>, message: string): string {
  return f.code === 'config-placeholder' ? '' : message.replace(/^If nothing fills in "[^"]*" before this file is used, it is read as written\. /, '');
}
