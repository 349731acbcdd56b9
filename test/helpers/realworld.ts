/**
 * The real-world precision suite (test/realworld/README.md): its groups of real public files, each analysed as one
 * workspace, and the judgments a reviewer wrote for every error and warning the engine reports about them.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import type { SourceFile } from '../../server/src/model/source.ts';

export const REALWORLD = join(__dirname, '../realworld');
export const FILES = join(REALWORLD, 'files');

/** One group: the folder `files/<platform>/<id>/` whose files belong together, read as one workspace. */
export interface Group {
  /** `<platform>/<id>` */
  name: string;
  /** Files with paths relative to the group folder (the significant tail of the upstream path). */
  files: SourceFile[];
}

function walk(dir: string, rel: string, out: SourceFile[]): void {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    const r = rel ? `${rel}/${n}` : n;
    if (statSync(p).isDirectory()) walk(p, r, out);
    else out.push({ path: r, text: readFileSync(p, 'utf8') });
  }
}

export function groups(): Group[] {
  const out: Group[] = [];
  for (const platform of readdirSync(FILES).sort()) {
    for (const id of readdirSync(join(FILES, platform)).sort()) {
      const files: SourceFile[] = [];
      walk(join(FILES, platform, id), '', files);
      out.push({ name: `${platform}/${id}`, files });
    }
  }
  return out;
}

/** A reported error or warning, as JUDGMENTS.tsv names it: file (relative to files/), 1-based line, code, severity. */
export interface Reported {
  key: string;
  file: string;
  line: number;
  code: string;
  severity: string;
  message: string;
}

export const keyOf = (file: string, line: number, code: string, severity: string): string => `${file}:${line}:${code}:${severity}`;

/** The group analysed as the CLI would analyse its folder (no options: each node's version is what its files state). */
export function analyseGroup(g: Group): Analysis {
  return analyze(g.files);
}

export function reported(g: Group, a: Analysis): Reported[] {
  const seen = new Set<string>();
  const out: Reported[] = [];
  for (const f of a.findings) {
    if (f.severity !== 'error' && f.severity !== 'warning') continue;
    const file = `${g.name}/${f.file}`;
    const line = f.range.start.line + 1;
    const key = keyOf(file, line, f.code, f.severity);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ key, file, line, code: f.code, severity: f.severity, message: f.message });
  }
  return out;
}

/** The kind each file of the group is read as (formats/index.ts detectKind), or 'not read'. */
export function readAs(g: Group): Map<string, string> {
  return new Map(g.files.map((f) => [`${g.name}/${f.path}`, detectKind(f.path, f.text) ?? 'not read']));
}

export interface Judgment {
  file: string;
  line: number;
  code: string;
  severity: string;
  verdict: 'true' | 'false';
  source: string;
  reason: string;
}

/** JUDGMENTS.tsv rows (header: file, line, code, severity, verdict, source, reason). */
/**
 * `JUDGMENTS.tsv`: every error and warning of the suite. `JUDGMENTS-CONDITIONAL.tsv`: true findings that rest on what
 * no file of their group states (the kubelet's version, that a file with a placeholder is used as written); read as
 * they are they are information worded as that condition (node/evidence.ts, node/placeholders.ts), and with the newest
 * version given the version ones are these errors again.
 */
export function judgments(file = 'JUDGMENTS.tsv'): Judgment[] {
  const [head, ...rows] = readFileSync(join(REALWORLD, file), 'utf8').trimEnd().split('\n');
  const cols = head.split('\t');
  return rows
    .filter((r) => r.trim() !== '')
    .map((r) => {
      const o = Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v]));
      return { ...o, line: Number(o.line) } as unknown as Judgment;
    });
}
