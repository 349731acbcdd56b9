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
import { maskTemplates, outsideTemplates, scanTemplates, systemdTemplateSpans } from '../parse/template.ts';
import { templateNote } from '../parse/config.ts';

/** The text with its structural directives blanked, and the finding that says so (none without directives). */
export function withoutDirectives(path: string, text: string, percent: boolean): { text: string; note?: Finding } {
  const exprs = scanTemplates(text, { dollar: false, percent });
  if (exprs.length === 0) return { text };
  const masked = maskTemplates(text, exprs, false);
  if (masked.structural.length === 0) return { text };
  const out = text.split('');
  for (const e of masked.structural) for (let i = e.start; i < e.end; i++) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  // In a unit a line left blank would end a continued ExecStart= there (conf-parser.c appends it and, without a
  // "\", stops), dropping the flags below it; a comment line is skipped inside a continuation. So a line that held
  // only directives becomes a comment, as if it were not there.
  if (percent) for (const e of masked.structural) if (onlyBlanksAround(out, e.start)) out[e.start] = '#';
  return { text: out.join(''), note: templateNote(path, new LineIndex(text), masked, 'file') };
}

/** A unit or drop-in: its directives blanked, its expressions unknown values (nothing said about them). */
export function parseTemplatedUnit(path: string, text: string): UnitFile {
  const bare = withoutDirectives(path, text, true);
  const unit = parseUnit(path, bare.text);
  const template = systemdTemplateSpans(path, text);
  if (template) {
    unit.template = bare.note ? { ...template, structureIn: path } : template;
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
