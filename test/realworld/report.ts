/**
 * Prints every error and warning of the suite as TSV (file, line, code, severity, judged, message), and with `--kinds`
 * the kind each file is read as: what a reviewer needs to write JUDGMENTS.tsv and the manifest's "read as" column.
 * `--update-read-as` rewrites that column of MANIFEST.tsv from the current recognition (after a fix that makes a
 * file read; say why in the note column).
 * Run: node --import tsx test/realworld/report.ts [--kinds | --update-read-as]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseGroup, groups, judgments, keyOf, readAs, REALWORLD, reported } from '../helpers/realworld.ts';

if (process.argv.includes('--update-read-as')) {
  const kinds = new Map(groups().flatMap((g) => [...readAs(g)]));
  const path = join(REALWORLD, 'MANIFEST.tsv');
  const [head, ...rows] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const cols = head.split('\t');
  const file = cols.indexOf('file');
  const col = cols.indexOf('read as');
  const out = rows.map((r) => {
    const v = r.split('\t');
    v[col] = kinds.get(v[file]) ?? v[col];
    return v.join('\t');
  });
  writeFileSync(path, [head, ...out].join('\n') + '\n');
  process.exit(0);
}

let judged = new Map<string, string>();
try {
  judged = new Map(judgments().map((j) => [keyOf(j.file, j.line, j.code, j.severity), j.verdict]));
} catch {
  // no JUDGMENTS.tsv yet
}
const kinds = process.argv.includes('--kinds');
for (const g of groups()) {
  if (kinds) {
    for (const [f, k] of readAs(g)) process.stdout.write(`${f}\t${k}\n`);
    continue;
  }
  let a;
  try {
    a = analyseGroup(g);
  } catch (e) {
    process.stdout.write(`${g.name}\t0\tCRASH\terror\t-\t${(e as Error).stack?.split('\n').slice(0, 3).join(' | ')}\n`);
    continue;
  }
  for (const r of reported(g, a)) process.stdout.write(`${r.file}\t${r.line}\t${r.code}\t${r.severity}\t${judged.get(r.key) ?? '-'}\t${r.message.replace(/\s+/g, ' ')}\n`);
}
