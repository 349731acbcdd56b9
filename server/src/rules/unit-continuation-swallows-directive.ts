/**
 * conf-parser.c: a line ending in an unpaired `\` continues onto the next
 * physical line, whatever that line holds. When the last flag of a continued
 * ExecStart= keeps its `\`, the next directive (`Restart=always`) becomes an
 * argument of the command: the kubelet rejects it as a positional argument
 * (`unknown command`) and systemd never sees the directive.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Rule } from './types.ts';

const DIRECTIVE = /^[A-Z][A-Za-z0-9]*=/;

export const unitContinuationSwallowsDirective: Rule = {
  id: 'unit-continuation-swallows-directive',
  summary: 'a `\\` at the end of a line makes the next directive part of the value above it',
  run({ node }) {
    const out: Finding[] = [];
    for (const unit of node.service?.files ?? []) {
      for (const d of unit.directives) {
        const segs = d.valueMap.segments;
        for (let i = 1; i < segs.length; i++) {
          const s = segs[i];
          if (s.line === segs[i - 1].line) continue;
          const piece = d.value.slice(s.offset, s.offset + s.length).trim();
          const m = DIRECTIVE.exec(piece);
          if (!m || insideQuotes(d.value, s.offset)) continue;
          const key = m[0].slice(0, -1);
          const bs = d.valueMap.position(s.offset - 1);
          const lead = d.value.slice(s.offset).length - d.value.slice(s.offset).trimStart().length;
          const start = d.valueMap.position(s.offset + lead);
          const span = { file: d.span.file, range: { start, end: { line: start.line, character: start.character + piece.length } } };
          const isExec = d.key.startsWith('Exec');
          out.push(
            finding(
              'unit-continuation-swallows-directive',
              isExec ? 'error' : 'warning',
              span,
              `"${piece}" is not a directive: line ${bs.line + 1} ends with "\\", so systemd appends this line to ${d.key}= (line ${d.keySpan.range.start.line + 1}). ` +
                (isExec
                  ? `The command receives "${piece}" as an argument (the kubelet refuses to start: unknown command "${piece}") and the unit loses ${key}=.`
                  : `${d.key}= gets "${piece}" as part of its value and the unit loses ${key}=.`),
              {
                related: [{ span: { file: d.span.file, range: { start: bs, end: { line: bs.line, character: bs.character + 1 } } }, message: 'this backslash continues the line' }],
                fixes: [
                  {
                    title: `Remove the "\\" at the end of line ${bs.line + 1} so ${key}= stands on its own`,
                    edits: [{ file: d.span.file, range: { start: bs, end: { line: bs.line, character: bs.character + 1 } }, newText: '' }],
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
