/** Every refactor offered at a range of a file. */
import type { Analysis } from '../../engine.ts';
import type { Range } from '../../model/range.ts';
import { matchEdit } from '../../fixes/line-ends.ts';
import { moveFlagsRefactors } from './move-flags.ts';
import { reservationRefactors } from './reservations.ts';
import type { Refactor } from './types.ts';

export type { PlainEdit, Refactor } from './types.ts';

export function refactorsAt(analysis: Analysis, path: string, range: Range): Refactor[] {
  const all = [...moveFlagsRefactors(analysis, path, range), ...reservationRefactors(analysis, path, range)];
  const crlf = (p: string) => analysis.files.get(p)?.crlf === true;
  return all.map((r) => ({ ...r, edits: r.edits.map((e) => matchEdit(e, crlf(e.path))) }));
}
