/**
 * Environment= assignments, as src/core/load-fragment.c config_parse_environ()
 * reads them:
 *   - an empty value resets the list (applied by the caller; here: zero assignments);
 *   - words come from extract_first_word(&p, &word, NULL, EXTRACT_CUNESCAPE|EXTRACT_UNQUOTE)
 *     (note: not the _and_warn variant, so an invalid escape is an error too);
 *     on an error: "Invalid syntax, ignoring: <rvalue>" and the REST of the
 *     line is dropped, the assignments before it are kept;
 *   - specifiers are resolved (unit_env_printf); a failure skips that word;
 *   - env_assignment_is_valid() (src/basic/env-util.c) must hold: a `=`, a name
 *     of [A-Za-z0-9_] not starting with a digit; otherwise
 *     "Invalid environment assignment, ignoring: ..." and the word is skipped.
 */
import type { Finding } from '../../model/finding.ts';
import { finding } from '../../model/finding.ts';
import type { EnvAssignment, UnitDirective } from '../types.ts';
import { EXTRACT_CUNESCAPE, EXTRACT_UNQUOTE, extractFirstWord, resolveSpecifiers, toWord } from './words.ts';

/** env_name_is_valid() from src/basic/env-util.c (bash's character set). */
export function envNameIsValid(name: string): boolean {
  if (name.length === 0) return false;
  const c0 = name.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return false;
  }
  return true;
}

export function parseEnvironmentDirective(d: UnitDirective): { assignments: EnvAssignment[]; problems: Finding[] } {
  const assignments: EnvAssignment[] = [];
  const problems: Finding[] = [];
  const raw = d.value;
  const map = d.valueMap;
  let p: number | null = 0;
  for (;;) {
    const res = extractFirstWord(raw, p, EXTRACT_CUNESCAPE | EXTRACT_UNQUOTE);
    if (res.kind === 'none') break;
    if (res.kind === 'error') {
      const why = res.reason === 'quote' ? 'unbalanced quoting' : 'an invalid escape sequence';
      problems.push(
        finding('environment-syntax', 'warning', map.span(res.start, raw.length),
          `Environment= has ${why}; systemd logs "Invalid syntax, ignoring" and drops the rest of the line from here.`),
      );
      break;
    }
    p = res.next;
    const w = toWord(res, map);
    const spec = resolveSpecifiers(w.text, w.map);
    if (spec.unknown.length) {
      problems.push(
        finding('environment-specifier', 'warning', spec.unknown[0].span,
          `Unknown specifier ${spec.unknown[0].spec}: systemd fails to resolve specifiers in this assignment and ignores it.`),
      );
      continue;
    }
    const text = spec.text;
    const eq = text.indexOf('=');
    if (eq === -1 || !envNameIsValid(text.slice(0, eq))) {
      const hint =
        eq === -1
          ? ' (no "=")'
          : text.slice(0, eq).length === 0
            ? ' (empty name)'
            : ' (a name is letters, digits and "_", not starting with a digit)';
      problems.push(
        finding('environment-invalid', 'warning', w.span, `Invalid environment assignment, ignoring: ${text}${hint}`),
      );
      continue;
    }
    assignments.push({
      name: text.slice(0, eq),
      value: text.slice(eq + 1),
      nameSpan: spec.map.span(0, eq),
      valueMap: spec.map.slice(eq + 1, text.length),
      span: w.span,
    });
  }
  return { assignments, problems };
}
