/**
 * Units, drop-ins and environment files written as templates (Ansible/Kubespray Jinja2 `{% if %}`, Helm and Go
 * `{{- range }}`, Terraform `%{ for }` in a unit): a directive decides which lines the rendered file has, so it is no
 * line of the file. Its line is blanked before systemd's reader sees the text (every position unchanged; a blank
 * line is nothing to systemd), the file is read on its literal lines, and one information finding says what could
 * not be checked, as for YAML templates (parse/config.ts templateNote). `${VAR}` stays systemd's variable.
 */
import type { Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import type { UnitFile } from '../parse/types.ts';
import { parseUnit } from '../parse/systemd/unit.ts';
import { maskTemplates, outsideTemplates, scanTemplates, systemdTemplateSpans, type TemplateExpr } from '../parse/template.ts';
import { hasBranches, templateNote } from '../parse/config.ts';

/**
 * The text with its structural directives and its comments (Jinja `{# #}`, Go comment actions) blanked, and the
 * finding that says so (none without directives). A Jinja block assignment (`{% set args %}...{% endset %}`) or
 * macro is blanked whole: its lines are a value used elsewhere (`{{ args }}`, an unknown value there), not lines of
 * the file (Kubespray's kubelet.env.v1beta1.j2 gathers its flags so).
 */
export function withoutDirectives(path: string, text: string, percent: boolean): { text: string; note?: Finding; branches?: boolean } {
  const exprs = scanTemplates(text, { dollar: false, percent });
  if (exprs.length === 0) return { text };
  const masked = maskTemplates(text, exprs, false);
  const values = new Set(masked.values);
  const blanked = exprs.filter((e) => !values.has(e));
  if (blanked.length === 0) return { text };
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  };
  for (const e of blanked) blank(e.start, e.end);
  // `\{% endif %}` at a line's end renders as a line ending in `\`: the backslash moves to the directive's last
  // character, so the blanks that stand for the directive do not come after it (a continuation with trailing
  // blanks, or an escape of a blank, neither of which is in the rendered unit).
  for (const e of blanked) if (e.start > 0 && text[e.start - 1] === '\\' && e.end > e.start && !/\S/.test(lineRest(text, e.end))) [out[e.start - 1], out[e.end - 1]] = [' ', '\\'];
  const blocks = jinjaBlocks(text, blanked);
  for (const [from, to] of blocks) blank(from, to);
  // In a unit a line left blank would end a continued ExecStart= there (conf-parser.c appends it and, without a
  // "\", stops), dropping the flags below it; a comment line is skipped inside a continuation. So a line that held
  // only directives becomes a comment, as if it were not there.
  if (percent) {
    for (const e of blanked) if (onlyBlanksAround(out, e.start)) out[e.start] = '#';
    for (const [from, to] of blocks) {
      for (let at = from; at < to; ) {
        let q = at;
        while (q < to && (text[q] === ' ' || text[q] === '\t')) q++;
        if (q < to && text[q] !== '\n' && text[q] !== '\r' && onlyBlanksAround(out, q)) out[q] = '#';
        const nl = text.indexOf('\n', q);
        at = nl < 0 ? to : nl + 1;
      }
    }
  }
  const note = masked.structural.length ? templateNote(path, new LineIndex(text), masked, 'file') : undefined;
  return hasBranches(text, masked.structural) ? { text: out.join(''), note, branches: true } : { text: out.join(''), note };
}

/** The text from `at` to the end of its line. */
function lineRest(text: string, at: number): string {
  const nl = text.indexOf('\n', at);
  return text.slice(at, nl < 0 ? text.length : nl).replace(/\r$/, '');
}

/** A unit or drop-in: its directives blanked, its expressions unknown values (nothing said about them). */
export function parseTemplatedUnit(path: string, text: string): UnitFile {
  const bare = withoutDirectives(path, text, true);
  const unit = parseUnit(path, bare.text);
  const template = systemdTemplateSpans(path, text);
  if (template) {
    unit.template = bare.note ? { ...template, structureIn: path, ...(bare.branches && { branches: path }) } : template;
    unit.problems = outsideTemplates(unit.problems, template);
  }
  if (bare.note) unit.problems.push(bare.note);
  return unit;
}


/** Whether the line holding `at` is blank (spaces and tabs) everywhere now. */
function onlyBlanksAround(chars: string[], at: number): boolean {
  for (let i = at; i < chars.length && chars[i] !== '\n' && chars[i] !== '\r'; i++) if (chars[i] !== ' ' && chars[i] !== '\t') return false;
  for (let i = at - 1; i >= 0 && chars[i] !== '\n' && chars[i] !== '\r'; i--) if (chars[i] !== ' ' && chars[i] !== '\t') return false;
  return true;
}

/** `{% set name %}` (no `=`: a block assignment) and `{% macro %}` open a block; `{% endset %}`, `{% endmacro %}` close it. */
const BLOCK_OPEN = /^\{%[-+]?[ \t]*(set|macro)\b([^=]*?)[-+]?%\}$/;
const BLOCK_CLOSE = /^\{%[-+]?[ \t]*end(set|macro)[ \t]*[-+]?%\}$/;

/**
 * The text between each outermost Jinja block assignment or macro and its end tag (Jinja's `{% set x %}...{%
 * endset %}` renders nothing where it is written). An unclosed block runs to the end of the text.
 */
function jinjaBlocks(text: string, directives: readonly TemplateExpr[]): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  let from = 0;
  for (const e of directives) {
    if (e.open !== '{%') continue;
    const t = text.slice(e.start, e.end);
    const open = BLOCK_OPEN.exec(t);
    if (open && (open[1] === 'macro' || !open[2].includes('='))) {
      if (depth++ === 0) from = e.end;
    } else if (depth > 0 && BLOCK_CLOSE.test(t)) {
      if (--depth === 0) out.push([from, e.start]);
    }
  }
  if (depth > 0) out.push([from, text.length]);
  return out;
}
