/**
 * conf-parser.c: a line continues only when it ends in an unpaired `\`. A `\`
 * followed by blanks does not continue: the value keeps the `\` and the next
 * line is parsed on its own (`--config=/x` becomes an unknown key "--config",
 * `--v 2` a line without '='), so the command silently loses those flags.
 * The author almost always meant to continue.
 */
import { finding, type Finding, type Fix } from '../model/finding.ts';
import type { Range } from '../model/range.ts';
import type { UnitFile } from '../parse/types.ts';
import { isArgv0Piece } from './lib/exec-argv0.ts';
import type { Rule } from './types.ts';

/** A real directive name (what the author would write on a line of its own). */
const KEY = /^(?:[A-Z][A-Za-z0-9]*|X-[A-Za-z0-9-]+)$/;

/**
 * What systemd makes of the next line with content after `line`: a directive or
 * section of its own, a piece of the value, or nothing. Lines with nothing on
 * them are comments (which a continuation skips) or blank; stepping over a
 * blank one only makes the answer more cautious.
 */
function nextLine(unit: UnitFile, line: number): { kind: 'directive' | 'section'; key?: string } | { kind: 'piece'; key?: string } | undefined {
  let next = Infinity;
  for (const s of unit.sections) if (s.span.range.start.line > line) next = Math.min(next, s.span.range.start.line);
  for (const d of unit.directives) if (d.keySpan.range.start.line > line) next = Math.min(next, d.keySpan.range.start.line);
  for (const p of unit.problems) if (p.code === 'unit-syntax' && p.range.start.line > line) next = Math.min(next, p.range.start.line);
  if (next === Infinity) return undefined;
  if (unit.sections.some((s) => s.span.range.start.line === next)) return { kind: 'section' };
  const d = unit.directives.find((x) => x.keySpan.range.start.line === next);
  if (d) return KEY.test(d.key) ? { kind: 'directive', key: d.key } : { kind: 'piece', key: d.key };
  if (unit.problems.some((p) => p.code === 'unit-syntax' && p.range.start.line === next)) return { kind: 'piece' };
  return undefined;
}

export const unitContinuationTrailingSpace: Rule = {
  id: 'unit-continuation-trailing-space',
  summary: 'a `\\` followed by blanks at the end of a line does not continue it',
  severity: 'warning',
  fix: true,
  fixDoes: 'removes the blanks after the `\\` (when the next line is a piece of the value), or the stray `\\` (when the next line is a directive or a section)',
  area: 'systemd-files',
  run({ node }) {
    const out: Finding[] = [];
    for (const unit of node.service?.files ?? []) {
      for (const t of unit.trailingBlankContinuations ?? []) {
        const file = unit.path;
        const range: Range = { start: { line: t.line, character: t.backslash }, end: { line: t.line, character: t.end } };
        const blanks: Range = { start: { line: t.line, character: t.backslash + 1 }, end: range.end };
        const next = nextLine(unit, t.line);
        // With the "@" prefix the word after the path is argv[0]: a lone stray "\" there cannot simply go.
        const owner = unit.directives.find((d) => d.lastLine === t.line);
        const argv0 = owner !== undefined && /\s\\$/.test(owner.value.trim()) && isArgv0Piece(owner.key, owner.value.trim().slice(0, -1));
        const ln = t.line + 1;
        const removeBlanks: Fix = {
          title: `Remove the blanks after the "\\" so line ${ln} continues onto line ${ln + 1}`,
          edits: [{ file, range: blanks, newText: '' }],
        };
        const removeBackslash: Fix = {
          title: `Remove the stray "\\" at the end of line ${ln}`,
          edits: [{ file, range, newText: '' }],
        };
        let message = `The "\\" at the end of line ${ln} does not continue it: blanks follow it. Systemd continues a line only when "\\" is its very last character, so this line ends here and keeps the "\\" in its value.`;
        let fixes: Fix[];
        if (next?.kind === 'piece') {
          message += next.key !== undefined
            ? ` Line ${ln + 1} is then read on its own as an unknown setting "${next.key}=", which systemd ignores: those arguments are lost.`
            : ` Line ${ln + 1} is then read on its own and ignored ("Missing '='"): those arguments are lost.`;
          fixes = argv0 ? [] : [{ ...removeBlanks, preferred: true }, removeBackslash];
        } else {
          // Continuing would swallow whatever directive comes next: the "\" is more likely stray.
          if (next) message += ` The next line ${next.kind === 'section' ? 'is a section header' : `sets ${next.key}=`}, so the "\\" is probably stray.`;
          // Removing only the blanks would make the next directive part of this value.
          fixes = argv0 ? [] : next ? [{ ...removeBackslash, preferred: true }] : [{ ...removeBackslash, preferred: true }, removeBlanks];
        }
        out.push(finding('unit-continuation-trailing-space', 'warning', { file, range }, message, { fixes }));
      }
    }
    return out;
  },
};
