/**
 * Whether a node's kubelet would refuse to start, for the views that otherwise look healthy (the allocatable view,
 * the status bar): the node's error findings whose message says so ("the kubelet refuses to start", the words every
 * rule uses for a startup failure). A finding belongs to the node when it is in one of the node's files, or in a
 * carrier within the part that holds one of the node's payloads (a kind file with two nodes: only the node whose
 * patch is broken).
 */
import type { Analysis, NodeResult } from '../engine.ts';
import type { Finding } from '../model/finding.ts';
import { before, payloadOf } from './locate.ts';

export interface StartFailure {
  /** The finding's first sentence. */
  message: string;
  /** `file line N`. */
  at: string;
}

const REFUSES = /refuses to start/;

export function startFailures(analysis: Analysis, result: NodeResult): StartFailure[] {
  const files = new Set(result.node.files);
  const lookup = payloadOf(analysis);
  const extents: { host: string; start: { line: number; character: number }; end: { line: number; character: number } }[] = [];
  for (const f of files) {
    const p = lookup(f);
    if (!p) continue;
    const { host, offsets } = p.payload.map;
    extents.push({ host: p.host, start: host.position(offsets[0]), end: host.position(offsets[offsets.length - 1]) });
  }
  const mine = (f: Finding) =>
    files.has(f.file) || extents.some((e) => e.host === f.file && !before(f.range.start, e.start) && !before(e.end, f.range.start));
  const out: StartFailure[] = [];
  for (const f of analysis.findings) {
    if (f.severity !== 'error' || !REFUSES.test(f.message) || !mine(f)) continue;
    out.push({ message: firstSentence(f.message), at: `${f.file} line ${f.range.start.line + 1}` });
  }
  return out;
}

function firstSentence(m: string): string {
  const i = m.indexOf('. ');
  return i < 0 ? m.replace(/\.$/, '') : m.slice(0, i);
}
