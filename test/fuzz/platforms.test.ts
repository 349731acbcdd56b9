/**
 * Every registered platform under the fuzz properties, from its own examples (Platform.examples), so that a new
 * platform is covered without a test file of its own (issue #22): the examples hold every format of the platform; the
 * engine never throws on them mutated, keeps every range inside its file and is deterministic; every quick fix it
 * offers on them applies and re-parses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';
import { PLATFORMS } from '../../server/src/platforms/index.ts';
import * as G from './gen.ts';
import * as P from './props.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 30;
const SEED = 20261202;

for (const platform of PLATFORMS) {
  test(`${platform.id}: its examples hold every one of its formats, and the engine reads them`, () => {
    assert.ok(platform.examples.length > 0, `${platform.id} has no examples`);
    const a = analyze(platform.examples);
    const kinds = new Set([...a.files.values()].map((f) => f.kind));
    for (const f of platform.formats) assert.ok(kinds.has(f.kind), `no example of ${platform.id} holds a ${f.kind} file`);
    assert.ok(a.nodes.length > 0, `${platform.id}'s examples make no node`);
  });

  test(`${platform.id}: mutated examples (byte flips, line deletions, truncation, CRLF, NUL, ...) never throw or leave their file`, () => {
    const files = platform.examples;
    fc.assert(
      fc.property(fc.nat(files.length - 1), G.mutations, (i, m) =>
        void P.engineProperty(files.map((f, k) => (k === i ? { path: f.path, text: G.mutate(Buffer.from(f.text), m) } : f))),
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  test(`${platform.id}: every quick fix offered on its examples applies and leaves a file that parses`, () => {
    P.quickFixProperty(platform.examples);
  });
}
