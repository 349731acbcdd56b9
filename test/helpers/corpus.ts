/**
 * The real-file corpora live beside the checkout (`../shared/corpus`, `../shared/corpus-embedded`); a git
 * worktree sits deeper, so the nearest ancestor folder holding `shared/<name>` is used.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function corpusDir(name: string): string | undefined {
  for (let dir = join(__dirname, '../..'); ; dir = dirname(dir)) {
    const d = join(dir, 'shared', name);
    if (existsSync(join(d, 'MANIFEST.tsv'))) return d;
    if (dirname(dir) === dir) return undefined;
  }
}

/** MANIFEST.tsv rows as objects keyed by the header line's column names. */
export function manifest(dir: string): Record<string, string>[] {
  const [head, ...rows] = readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const cols = head.split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v])));
}
