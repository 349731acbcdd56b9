/**
 * `--workspace DIR`: the workspace is DIR (read whole, so every node keeps all its files), and the PATHs given name
 * what to report on: findings in those files or folders, and findings elsewhere whose related places lie there (a
 * changed drop-in that now conflicts with its unit's value is reported at the unit, with the drop-in's value as the
 * related place). This is how the pre-commit hook checks the files a commit changes with the rest of their nodes.
 */
import { resolve, sep } from 'node:path';
import type { Analysis } from '../engine.ts';

/** Whether `path` is `scope` or lies under it (both resolved against the working folder). */
export function within(path: string, scope: string): boolean {
  const p = resolve(path);
  const s = resolve(scope);
  return p === s || p.startsWith(s.endsWith(sep) ? s : s + sep);
}

/** What to read: the workspace folders, and each PATH not already inside one of them. */
export function pathsToRead(workspace: readonly string[], paths: readonly string[]): string[] {
  return [...workspace, ...paths.filter((p) => !workspace.some((w) => within(p, w)))];
}

/** The analysis cut to the PATHs: their findings, and the nodes that hold one of their files. */
export function inScope(analysis: Analysis, paths: readonly string[]): Analysis {
  if (paths.length === 0) return analysis;
  // A payload's workspace path is `<carrier>//<target>`: it is in scope when its carrier is.
  const hit = (file: string) => paths.some((p) => within(file.split('//')[0], p));
  return {
    ...analysis,
    findings: analysis.findings.filter((f) => hit(f.file) || f.related?.some((r) => hit(r.span.file))),
    nodes: analysis.nodes.filter((n) => n.node.files.some(hit)),
  };
}
