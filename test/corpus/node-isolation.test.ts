/**
 * Issue #37, property: a workspace made of unrelated real nodes (groups of the real-world suite and files of the
 * corpora, each in a folder of its own) gives each node exactly what it gives alone: the same files, effective
 * settings, version, allocatable and findings. Nothing links, merges or leaks across node roots.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import { groups } from '../helpers/realworld.ts';

const CORPORA = [join(__dirname, '../../../shared/corpus/files'), join(__dirname, '../../../shared/corpus-embedded/files')];

/** Every real node we have: a suite group, or one corpus file. */
function pool(): { name: string; files: SourceFile[] }[] {
  const out = groups().map((g) => ({ name: g.name, files: g.files }));
  for (const dir of CORPORA) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) out.push({ name: f, files: [{ path: f, text: readFileSync(join(dir, f), 'utf8') }] });
  }
  return out;
}

/** What a node is, as one comparable value. */
function nodesOf(a: Analysis, prefix: string): string[] {
  return a.nodes
    .filter((n) => n.node.files.some((f) => f.startsWith(prefix)))
    .map(({ node, allocatable }) =>
      JSON.stringify({
        id: node.id,
        files: node.files,
        version: node.kubernetesVersion,
        assumed: node.kubernetesVersionAssumed ?? false,
        settings: [...node.settings].map(([k, s]) => [k, s.kind === 'scalar' ? s.text : s.kind === 'object' ? 'object' : s.items.map((i) => `${i.key ?? ''}=${i.text}`)]),
        links: node.links?.map((l) => [l.to, l.by]) ?? [],
        unread: node.unread?.map((u) => u.path) ?? [],
        allocatable: Object.fromEntries(Object.entries(allocatable.lines).map(([r, l]) => [r, String(l.allocatable ?? '?')])),
      }),
    )
    .sort();
}

function findingsOf(a: Analysis, prefix: string): string[] {
  return a.findings
    .filter((f) => f.file.startsWith(prefix))
    .map((f) => `${f.file}:${f.range.start.line}:${f.range.start.character} ${f.severity} ${f.code} ${f.message}`)
    .sort();
}

const place = (files: readonly SourceFile[], prefix: string): SourceFile[] => files.map((f) => ({ path: prefix + f.path, text: f.text }));

test('unrelated real nodes put together in one workspace each give what they give alone (files, settings, version, allocatable, findings)', () => {
  const all = pool();
  assert.ok(all.length > 500, `${all.length} real nodes`);
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 0, max: all.length - 1 }), { minLength: 2, maxLength: 4 }), (picks) => {
      const parts = picks.map((i, k) => ({ prefix: `w${k}/`, node: all[i] }));
      const together = analyze(parts.flatMap((p) => place(p.node.files, p.prefix)));
      for (const p of parts) {
        const alone = analyze(place(p.node.files, p.prefix));
        const why = `${p.node.name} beside ${parts.filter((x) => x !== p).map((x) => x.node.name).join(', ')}`;
        assert.deepEqual(nodesOf(together, p.prefix), nodesOf(alone, p.prefix), `nodes of ${why}`);
        assert.deepEqual(findingsOf(together, p.prefix), findingsOf(alone, p.prefix), `findings of ${why}`);
      }
    }),
    { numRuns: 100, seed: 37 },
  );
});
