/**
 * Navigation between the files of a node: document links and Go to Definition for the paths that tie them
 * together (EnvironmentFile=, --config=, --config-dir=), `$VAR` to its assignment, and the kubelet's cgroup driver
 * to the container runtime setting it must match. Everything comes from the node model's references and their
 * resolution; nothing is re-read.
 */
import type { DocumentLink, Location, Position, Range } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import type { Span } from '../model/range.ts';
import { configAt, contains, flagAt, nodesOf, parsedFile } from './locate.ts';

interface Target {
  /** Where the reference is written, in the file asked about. */
  range: Range;
  /** Where it leads: a file (its start) or a place in one. */
  to: { path: string; range?: Range }[];
}

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The path references written in `path` that resolve to files of the workspace. */
function pathTargets(analysis: Analysis, path: string): Target[] {
  const out: Target[] = [];
  for (const { node } of nodesOf(analysis, path)) {
    for (const r of node.service?.envFileRefs ?? []) {
      const d = r.directive;
      if (!r.resolved || d.keySpan.file !== path) continue;
      const at = d.value.indexOf(r.path);
      if (at < 0) continue;
      out.push({ range: d.valueMap.span(at, at + r.path.length).range, to: [{ path: r.resolved }] });
    }
    for (const r of node.configRefs) {
      if (r.span.file !== path || !r.resolved?.length) continue;
      out.push({ range: r.span.range, to: r.resolved.map((p) => ({ path: p })) });
    }
  }
  return dedupe(out);
}

export function documentLinks(analysis: Analysis, path: string, toUri: (path: string) => string): DocumentLink[] {
  // A link opens one file: a --config-dir link opens its first drop-in (Go to Definition lists them all).
  return pathTargets(analysis, path).map((t) => ({ range: t.range, target: toUri(t.to[0].path), tooltip: `Open ${t.to[0].path}` }));
}

export function definition(analysis: Analysis, path: string, pos: Position, toUri: (path: string) => string): Location[] {
  const loc = (t: { path: string; range?: Range }): Location => ({ uri: toUri(t.path), range: t.range ?? START });
  const hit = pathTargets(analysis, path).find((t) => contains(t.range, pos));
  if (hit) return hit.to.map(loc);
  for (const { node } of nodesOf(analysis, path)) {
    const ref = node.execReferences?.find((r) => r.span.file === path && contains(r.span.range, pos));
    const set = ref && node.service?.environment.get(ref.variable);
    if (set) return [loc(place(set.assignment.nameSpan))];
  }
  if (onCgroupDriver(analysis, path, pos)) {
    const result = nodesOf(analysis, path)[0];
    return (result?.node.runtimes ?? []).map((r) => loc(place(r.value?.span ?? r.span)));
  }
  return [];
}

/** On the kubelet's cgroupDriver field or --cgroup-driver flag. */
function onCgroupDriver(analysis: Analysis, path: string, pos: Position): boolean {
  const f = flagAt(analysis, path, pos);
  if (f) return f.flag.name === 'cgroup-driver';
  return configAt(parsedFile(analysis, path), pos)?.field === 'cgroupDriver';
}

function place(s: Span): { path: string; range: Range } {
  return { path: s.file, range: s.range };
}

function dedupe(list: Target[]): Target[] {
  const seen = new Set<string>();
  return list.filter((t) => {
    const k = `${t.range.start.line}:${t.range.start.character}:${t.to.map((x) => x.path).join('|')}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
