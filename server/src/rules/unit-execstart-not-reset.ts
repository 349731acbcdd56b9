/**
 * load-fragment.c / service.c: a Type=simple service may have only one
 * ExecStart=. A drop-in that adds one without first resetting with an empty
 * `ExecStart=` makes systemd refuse the unit ("Service has more than one
 * ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.").
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Rule } from './types.ts';

export const unitExecStartNotReset: Rule = {
  id: 'unit-execstart-not-reset',
  summary: 'more than one ExecStart= survives the drop-ins: systemd refuses the service',
  severity: 'error',
  fix: true,
  fixDoes: 'inserts an empty `ExecStart=` line before the drop-in\'s `ExecStart=`',
  area: 'systemd-files',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.service;
    if (!s || s.execStarts.length < 2 || s.serviceType === 'oneshot') return out;
    const [first, ...rest] = s.execStarts;
    // In a file whose template directives decide its lines, two ExecStart= may be two branches (`{% if %}` ...
    // `{% else %}`) of which the rendered unit keeps one: that is the template's to say, not systemd's.
    const branched = new Set(node.templates?.flatMap((t) => (t.structureIn ? [t.structureIn] : [])));
    for (const d of rest) {
      if (branched.has(d.span.file) || branched.has(first.span.file)) continue;
      out.push(
        finding(
          'unit-execstart-not-reset',
          'error',
          d.keySpan,
          `This ExecStart= adds a second command: reset the list with an empty "ExecStart=" first. The first is in ${first.span.file} line ${first.keySpan.range.start.line + 1}; systemd refuses a Type=${s.serviceType} service with more than one ExecStart=.`,
          {
            related: [{ span: first.keySpan, message: 'the first ExecStart=' }],
            fixes: d.span.file === first.span.file ? [] : [
              {
                title: 'Insert "ExecStart=" to reset the command first',
                edits: [{ file: d.keySpan.file, range: { start: { line: d.keySpan.range.start.line, character: 0 }, end: { line: d.keySpan.range.start.line, character: 0 } }, newText: 'ExecStart=\n' }],
                preferred: true,
              },
            ],
          },
        ),
      );
    }
    return out;
  },
};
