/**
 * What was read, and as what (issue #23): every input file with the format it was read as, the files carriers write
 * (with the carrier), and why the others were left out, so a user can tell "ignored" from "read and fine".
 */
import type { Analysis } from '../engine.ts';
import { carrierOf, readablePath } from '../embed/payload.ts';
import type { LinkBy } from '../model/paths.ts';
import { referenceText } from '../node/guesses.ts';
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
  /** Why a node reads it, when another file names it: the reference, where it is written, and how it was matched. */
  links?: LinkRead[];
  /** Why it was not read. */
  skipped?: string;
}

export interface LinkRead {
  node: string;
  /** `--config=/var/lib/kubelet/config.yaml` */
  reference: string;
  /** Where the reference is written: `path:line`. */
  from: string;
  /** 'identity': the same path under a folder holding the naming file; 'name': a guess by its name alone. */
  by: LinkBy;
}

/** One link in words: `--config=/var/lib/kubelet/config.yaml from n1/kubelet.service:5, the same path under n1`. */
export function linkText(l: LinkRead): string {
  return `${l.reference} in ${l.from}, ${l.by === 'identity' ? 'the same path' : 'a guess by its name alone'}`;
}

/** `inputs`: the paths given to the analysis; `skipped`: files the caller could not read, with why. */
export function filesRead(analysis: Analysis, inputs: readonly string[], skipped: readonly { path: string; reason: string }[] = []): FileRead[] {
  const byFile = new Map<string, string[]>();
  const linksTo = new Map<string, LinkRead[]>();
  for (const { node } of analysis.nodes) {
    for (const f of node.files) byFile.set(f, [...(byFile.get(f) ?? []), node.id]);
    for (const l of node.links ?? []) {
      const read = { node: node.id, reference: referenceText(l), from: `${readablePath(l.span.file)}:${l.span.range.start.line + 1}`, by: l.by };
      linksTo.set(l.to, [...(linksTo.get(l.to) ?? []), read]);
    }
  }
  const out: FileRead[] = [];
  const seen = new Set<string>();
  const add = (path: string, carrier?: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const p = analysis.files.get(path);
    const nodes = byFile.get(path);
    const links = linksTo.get(path);
    if (!p) {
      out.push({ path, ...(carrier && { carrier }), skipped: carrier ? 'written by its carrier, but in no format this tool reads' : 'no format this tool reads recognises it' });
      return;
    }
    out.push({ path, format: p.kind, label: formatOf(p.kind).label, ...(carrier && { carrier }), ...(nodes && { nodes }), ...(links && { links }) });
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
  const links = (f: FileRead) => (f.links?.length ? `; read as ${f.links.map(linkText).join('; ')}` : '');
  return list.map((f) => (f.format ? `${f.path}  read as ${f.label}${f.carrier ? ` (written by ${f.carrier})` : ''}${f.nodes?.length ? `; node ${f.nodes.join(', ')}` : ''}${links(f)}` : `${f.path}  not read: ${f.skipped}`));
}
