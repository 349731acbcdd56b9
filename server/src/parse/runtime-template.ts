/**
 * A container runtime config that is a template (`SystemdCgroup = {{ .systemd }}`, a daemon.json with
 * `{{ toJson .logOpts }}`): read with its expressions masked (parse/template.ts; an expression outside a string
 * becomes a string of the same length, in TOML as in JSON), nothing said about an expression is reported, and a
 * cgroup driver written as one is unknown rather than the runtime's default.
 */
import { LineIndex, rangesOverlap, type Range } from '../model/range.ts';
import { templateNote } from './config.ts';
import { maskTemplates, scanTemplates } from './template.ts';
import type { RuntimeConfigParse } from './types.ts';

export function parseTemplatedRuntime(path: string, text: string, parse: (path: string, text: string) => RuntimeConfigParse): RuntimeConfigParse {
  const exprs = scanTemplates(text, { dollar: true });
  if (exprs.length === 0) return parse(path, text);
  const masked = maskTemplates(text, exprs, true);
  const r = parse(path, masked.text);
  const lines = new LineIndex(text);
  const places = masked.values.map((e) => lines.range(e.start, e.end));
  const atPlaceholder = (x: Range) => places.some((p) => rangesOverlap(p, x));
  const kept = r.problems.filter((p) => !atPlaceholder(p.range));
  // A setting the parser judged from an expression, or a driver written as one: the driver is unknown.
  if (kept.length < r.problems.length || (r.cgroupDriver && atPlaceholder(r.cgroupDriver.span.range))) r.cgroupDriver = undefined;
  r.problems = kept;
  if (masked.structural.length) r.problems.push(templateNote(path, lines, masked, 'file'));
  return r;
}
