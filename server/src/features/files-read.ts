/**
 * What was read, and as what (issue #23): every input file with the format it was read as, the files carriers write
 * (with the carrier), and why the others were left out, so a user can tell "ignored" from "read and fine".
 */
import type { Analysis } from '../engine.ts';
import { carrierOf } from '../embed/payload.ts';
import { byCodeUnit } from '../model/order.ts';
import { formatOf } from '../registry.ts';

export interface FileRead {
  path: string;
  /** The format's kind and its words ("Talos machine configuration"), when it was read. */
  format?: string;
  label?: string;
  /** The carrier file a payload is written by. */
  carrier?: string;
  /** The node ids that read it. */
  nodes?: string[];
  /** Why it was not read. */
  skipped?: string;
}

/** `inputs`: the paths given to the analysis; `skipped`: files the caller could not read, with why. */
export function filesRead(analysis: Analysis, inputs: readonly string[], skipped: readonly { path: string; reason: string }[] = []): FileRead[] {
  const byFile = new Map<string, string[]>();
  for (const { node } of analysis.nodes) for (const f of node.files) byFile.set(f, [...(byFile.get(f) ?? []), node.id]);
  const out: FileRead[] = [];
  const seen = new Set<string>();
  const add = (path: string, carrier?: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const p = analysis.files.get(path);
    const nodes = byFile.get(path);
    if (!p) {
      out.push({ path, ...(carrier && { carrier }), skipped: carrier ? 'written by its carrier, but in no format this tool reads' : 'no format this tool reads recognises it' });
      return;
    }
    out.push({ path, format: p.kind, label: formatOf(p.kind).label, ...(carrier && { carrier }), ...(nodes && { nodes }) });
  };
  for (const path of inputs) add(path);
  for (const [path, { host }] of analysis.payloads ?? []) if (analysis.files.has(path)) add(path, host);
  // Files referenced and read that were not given (a payload's own payloads are covered above).
  for (const path of analysis.files.keys()) if (!seen.has(path)) add(path, carrierOf(path));
  for (const s of skipped) if (!seen.has(s.path)) out.push({ path: s.path, skipped: s.reason });
  return out.sort((a, b) => byCodeUnit(a.path, b.path));
}

/** The same as lines of text: `path  read as <label>` or `path  not read: <why>`. */
export function filesReadText(list: readonly FileRead[]): string[] {
  return list.map((f) => (f.format ? `${f.path}  read as ${f.label}${f.carrier ? ` (written by ${f.carrier})` : ''}${f.nodes?.length ? `; node ${f.nodes.join(', ')}` : ''}` : `${f.path}  not read: ${f.skipped}`));
}
