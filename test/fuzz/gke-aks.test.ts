/**
 * The engine and quick-fix properties (test/fuzz/props.ts) over the GKE and AKS sample files and their mutations:
 * no exception, every range inside its file, deterministic; every quick fix removes its finding and adds no error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as G from './gen.ts';
import { engineOptions, engineProperty, quickFixProperty } from './props.ts';

const SAMPLES = [
  { path: 'gke/system-config.yaml', text: readFileSync(join(__dirname, '../fixtures/platforms/gke-system-config.yaml'), 'utf8') },
  { path: 'aks/linuxkubeletconfig.json', text: readFileSync(join(__dirname, '../fixtures/platforms/aks-linuxkubeletconfig.json'), 'utf8') },
];

test('GKE and AKS samples: the engine property and every quick fix', () => {
  for (const f of SAMPLES) {
    engineProperty([f]);
    assert.ok(quickFixProperty([f]) >= 2, `${f.path}: its rename and value fixes were applied`);
  }
});

test('mutated GKE and AKS samples: the engine property holds', () => {
  fc.assert(
    fc.property(fc.constantFrom(...SAMPLES), G.mutations, engineOptions, (f, muts, options) => {
      const text = G.mutate(Buffer.from(f.text, 'utf8'), muts);
      engineProperty([{ path: f.path, text }], options);
    }),
    { numRuns: 150 },
  );
});
