/**
 * Findings at template placeholders. A value that is a template expression is unknown until the template is
 * rendered: nothing said about it (its type, its quantity, its enum, its key) can be a mistake of the file. The
 * parsers mark those places (TemplateSpans); the engine drops the findings that point at one. A partly literal
 * value (`{{ .mem }}Gi`) keeps the checks that read its literal part (the rules see it with `1` in place of each
 * expression).
 */
import type { Finding } from '../model/finding.ts';
import { comparePos, type Range } from '../model/range.ts';
import type { TemplateSpans } from '../parse/types.ts';
import type { NodeModel } from './model.ts';

/** Codes whose finding on a partly literal value is about its literal text (a unit suffix, a duration unit). */
const PARTIAL_CHECKED = new Set(['quantity-invalid', 'quantity-negative', 'eviction-syntax', 'eviction-grace-invalid']);

/** Rules whose finding says that a setting is missing (or that nothing else is set beside it). */
const ABSENCE = new Set([
  'reservations-missing', 'cpu-manager-static-needs-reservation', 'reserved-cgroup-missing', 'enforce-reservation-empty',
  'eviction-soft-without-grace', 'memory-manager-reserved-mismatch', 'eviction-defaults-dropped',
]);

/** Is this finding about a missing setting, in a config whose template may add it? */
export function mayBeRendered(f: Finding, inView: boolean): boolean {
  return !inView && ABSENCE.has(f.code);
}

/** The node's template places, or undefined when it has none (the common case costs nothing). */
export function templatePlaces(node: NodeModel): TemplateSpans[] | undefined {
  let out: TemplateSpans[] | undefined = node.templates?.slice();
  for (const d of node.kubeletConfigs) if (d.template && !out?.includes(d.template)) (out ??= []).push(d.template);
  for (const d of node.kubeadm) if (d.template && !out?.includes(d.template)) (out ??= []).push(d.template);
  return out;
}

/** Does the finding point at a template placeholder (so that it says nothing about the file)? */
export function atPlaceholder(f: Finding, places: readonly TemplateSpans[]): boolean {
  for (const p of places) {
    for (const s of p.unknown) if (s.file === f.file && overlaps(s.range, f.range)) return true;
    if (PARTIAL_CHECKED.has(f.code)) continue;
    for (const s of p.partial) if (s.file === f.file && overlaps(s.range, f.range)) return true;
  }
  return false;
}

/**
 * Are all the node's config settings in its literal text? Not when a template expression inserts lines, or a key is
 * one (it may name any field): a finding that a setting is missing must then stay silent.
 */
export function settingsInView(node: NodeModel): boolean {
  for (const d of node.kubeletConfigs) {
    if (d.template?.inserts) return false;
    if (d.template && d.root.entries.some((e) => e.keyTemplate)) return false;
  }
  return true;
}

function overlaps(a: Range, b: Range): boolean {
  // Empty ranges touch what they sit in; otherwise the ranges must share a character.
  if (comparePos(a.start, b.start) === 0) return true;
  return comparePos(a.start, b.end) < 0 && comparePos(b.start, a.end) < 0;
}
