/**
 * conf-parser.c: a line ending in an unpaired `\` continues onto the next
 * physical line, whatever that line holds. When the last flag of a continued
 * ExecStart= keeps its `\`, the next directive (`Restart=always`) becomes an
 * argument of the command: the kubelet rejects it as a positional argument
 * (`unknown command`) and systemd never sees the directive.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Position } from '../model/range.ts';
import type { UnitDirective } from '../parse/types.ts';
import { isArgv0Piece } from './lib/exec-argv0.ts';
import type { Rule } from './types.ts';

const DIRECTIVE = /^[A-Z][A-Za-z0-9]*=/;

export const unitContinuationSwallowsDirective: Rule = {
  id: 'unit-continuation-swallows-directive',
  summary: 'a `\\` at the end of a line makes the next directive part of the value above it',
  severity: ['error', 'warning'],
  fix: true,
  fixDoes: 'removes the `\\` at the end of the line above, so the directive stands on its own',
  area: 'systemd-files',
  run({ node }) {
    const out: Finding[] = [];
    for (const unit of node.service?.files ?? []) {
      for (const d of unit.directives) {
        if (!d.continued) continue;
        const segs = d.valueMap.segments;
        const swallowed: { piece: string; key: string; offset: number; bs: Position }[] = [];
        for (let i = 1; i < segs.length; i++) {
          const s = segs[i];
          if (s.line === segs[i - 1].line) continue;
          // A directive starts with a capital letter after any blanks: a piece whose first other character is a
          // printable ASCII non-capital (most of them: flags, `$VAR`s) is ruled out without slicing it.
          let k = s.offset;
          const end = s.offset + s.length;
          while (k < end && (d.value.charCodeAt(k) === 32 || d.value.charCodeAt(k) === 9)) k++;
          const c = k < end ? d.value.charCodeAt(k) : -1;
          if (c > 32 && c < 127 && !(c >= 65 && c <= 90)) continue;
          const piece = d.value.slice(s.offset, end).trim();
          const m = DIRECTIVE.exec(piece);
          if (!m || insideQuotes(d.value, s.offset)) continue;
          swallowed.push({ piece, key: m[0].slice(0, -1), offset: s.offset, bs: d.valueMap.position(s.offset - 1) });
        }
        if (swallowed.length === 0) continue;
        // One fix for the whole chain: removing only the first "\" of two swallowed lines would make the
        // second line the value of the first directive it frees. With the "@" prefix the word after the
        // path is argv[0]: freeing it would leave the command without one, so no fix is offered then.
        const argv0 = isArgv0Piece(d.key, d.value.slice(0, swallowed[0].offset));
        // Removing the "\" (and the blanks before it) must end the line: `--config=\ \` would still end in an
        // unpaired "\" (conf-parser.c pairs backslashes left to right), and the line would go on continuing.
        const endsFreed = swallowed.every((w) => !unpairedBackslashBefore(d.value, w.offset - 1));
        // The blanks before the "\\" go with it: the freed line above would end in them otherwise.
        const edits = swallowed.map((w) => ({ file: d.span.file, range: { start: blanksBefore(d.value, d.valueMap, w.offset - 1, w.bs), end: { line: w.bs.line, character: w.bs.character + 1 } }, newText: '' }));
        const isExec = d.key.startsWith('Exec');
        for (const w of swallowed) {
          const lead = d.value.slice(w.offset).length - d.value.slice(w.offset).trimStart().length;
          const start = d.valueMap.position(w.offset + lead);
          const span = { file: d.span.file, range: { start, end: { line: start.line, character: start.character + w.piece.length } } };
          out.push(
            finding(
              'unit-continuation-swallows-directive',
              isExec ? 'error' : 'warning',
              span,
              `"${w.piece}" is not a directive: line ${w.bs.line + 1} ends with "\\", so systemd appends this line to ${d.key}= (line ${d.keySpan.range.start.line + 1}). ` +
                (isExec
                  ? `The command receives "${w.piece}" as an argument (a kubelet 1.11 or newer refuses to start: unknown command "${w.piece}") and the unit loses ${w.key}=.`
                  : `${d.key}= gets "${w.piece}" as part of its value and the unit loses ${w.key}=.`),
              {
                related: [{ span: { file: d.span.file, range: { start: w.bs, end: { line: w.bs.line, character: w.bs.character + 1 } } }, message: 'this backslash continues the line' }],
                fixes: argv0 || !endsFreed
                  ? []
                  : [
                      {
                        title:
                          swallowed.length === 1
                            ? `Remove the "\\" at the end of line ${w.bs.line + 1} so ${w.key}= stands on its own`
                            : `Remove the "\\" that swallow ${swallowed.map((x) => `${x.key}=`).join(', ')} so each stands on its own`,
                        edits,
                        preferred: true,
                      },
                    ],
              },
            ),
          );
        }
      }
    }
    return out;
  },
};

/** Whether the text before the blanks before value offset `at` ends in an odd run of backslashes (one left unpaired). */
function unpairedBackslashBefore(value: string, at: number): boolean {
  let k = at;
  while (k > 0 && (value.charCodeAt(k - 1) === 32 || value.charCodeAt(k - 1) === 9)) k--;
  let n = 0;
  while (k > 0 && value.charCodeAt(k - 1) === 92) {
    n++;
    k--;
  }
  return n % 2 === 1;
}

/** Where the blanks before the `\` at value offset `at` (the space it became) start, on the backslash's own line. */
function blanksBefore(value: string, map: UnitDirective['valueMap'], at: number, bs: Position): Position {
  let k = at;
  while (k > 0 && (value.charCodeAt(k - 1) === 32 || value.charCodeAt(k - 1) === 9)) k--;
  const p = map.position(k);
  return p.line === bs.line && p.character < bs.character ? p : bs;
}

/**
 * Whether `offset` of a value falls inside a quoted string (extract-word.c:
 * quotes open and close anywhere in a word, a backslash escapes the next
 * character outside single quotes). A continued line inside quotes is part of
 * one argument on purpose, not a swallowed directive.
 */
function insideQuotes(value: string, offset: number): boolean {
  let quote = '';
  for (let i = 0; i < offset && i < value.length; i++) {
    const c = value[i];
    if (quote === "'") {
      if (c === "'") quote = '';
    } else if (c === '\\') {
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    }
  }
  return quote !== '';
}
