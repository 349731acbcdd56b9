/**
 * Writes the version data of the catalog from the fact tables in server/src/catalog/facts/ (TSV, facts with their
 * sources, no code):
 *   feature-gates-upstream.tsv    every versioned gate spec of pkg/features/kube_features.go and the staging gates
 *   feature-gates-history.tsv     specs of gates no longer in that file (removed gates), AllAlpha/AllBeta
 *   feature-gates-lifecycle.tsv   when a gate arrived (backfilled specs) and when it was removed
 *   feature-gate-dependencies.tsv gates that need other gates (checked by the kubelet from 1.36)
 *   feature-gate-descriptions.tsv this project's one-line descriptions
 *   versions.tsv                  the newest minor version whose data is complete
 * into server/src/catalog/feature-gates.generated.ts and server/src/catalog/versions.generated.ts.
 *
 * Run `npm run catalog` after changing a fact table; test/unit/catalog-generated.test.ts fails when the generated
 * files are stale. `--check` only reports whether they are up to date. The tables are checked while reading: specs
 * in ascending order, no gate in both spec tables, a backfilled (1.0) gate has an addedIn, a removal comes after the
 * last spec, dependencies name known gates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FACTS_DIR = 'server/src/catalog/facts';
export const GATES_OUT = 'server/src/catalog/feature-gates.generated.ts';
export const VERSIONS_OUT = 'server/src/catalog/versions.generated.ts';

type Stage = 'alpha' | 'beta' | 'ga' | 'deprecated';
const STAGES: Record<string, Stage> = { Alpha: 'alpha', Beta: 'beta', GA: 'ga', Deprecated: 'deprecated' };

/** Data rows of a TSV fact table (comments and the header row dropped), each as its cells. */
export function tsvRows(text: string, columns: number, file: string): string[][] {
  const rows: string[][] = [];
  let header = true;
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const cells = line.split('\t');
    if (cells.length !== columns) throw new Error(`${file}:${i + 1}: ${cells.length} columns, expected ${columns}`);
    if (header) {
      header = false;
      continue;
    }
    rows.push(cells);
  }
  return rows;
}

function minor(v: string): [number, number] {
  const m = /^(\d+)\.(\d+)$/.exec(v);
  if (!m) throw new Error(`not a minor version: "${v}"`);
  return [Number(m[1]), Number(m[2])];
}
export function cmp(a: string, b: string): number {
  const [x, y] = [minor(a), minor(b)];
  return x[0] - y[0] || x[1] - y[1];
}

interface Spec { since: string; stage: Stage; on: boolean; locked: boolean }
interface Gate { name: string; specs: Spec[]; addedIn?: string; removedIn?: string; approximate?: boolean; description?: string }

/** Specs per gate from a spec table. Two rows of one version (a MinCompatibilityVersion pair): the last one holds. */
function specTable(text: string, file: string): Map<string, Spec[]> {
  const out = new Map<string, Spec[]>();
  for (const [gate, version, dflt, pre, lock] of tsvRows(text, 5, file)) {
    const stage = STAGES[pre!];
    if (!stage || (dflt !== 'true' && dflt !== 'false') || (lock !== 'true' && lock !== 'false')) throw new Error(`${file}: bad row for ${gate}`);
    minor(version!);
    const specs = out.get(gate!) ?? [];
    const last = specs[specs.length - 1];
    if (last && cmp(last.since, version!) > 0) throw new Error(`${file}: ${gate} specs not ascending (${last.since} then ${version})`);
    const spec: Spec = { since: version!, stage, on: dflt === 'true', locked: lock === 'true' };
    if (last && last.since === version) specs[specs.length - 1] = spec;
    else specs.push(spec);
    out.set(gate!, specs);
  }
  return out;
}

export interface Generated { gates: string; versions: string }

export function generate(root: string): Generated {
  const read = (f: string) => readFileSync(join(root, FACTS_DIR, f), 'utf8');
  const upstream = specTable(read('feature-gates-upstream.tsv'), 'feature-gates-upstream.tsv');
  const history = specTable(read('feature-gates-history.tsv'), 'feature-gates-history.tsv');
  const gates = new Map<string, Gate>();
  for (const [name, specs] of upstream) gates.set(name, { name, specs });
  for (const [name, specs] of history) {
    if (gates.has(name)) throw new Error(`${name} is in both feature-gates-upstream.tsv and feature-gates-history.tsv`);
    gates.set(name, { name, specs });
  }
  for (const [name, addedIn, removedIn, approximate] of tsvRows(read('feature-gates-lifecycle.tsv'), 5, 'feature-gates-lifecycle.tsv')) {
    const g = gates.get(name!);
    if (!g) throw new Error(`feature-gates-lifecycle.tsv: ${name} has no specs`);
    if (addedIn) g.addedIn = (minor(addedIn), addedIn);
    if (removedIn) g.removedIn = (minor(removedIn), removedIn);
    if (approximate === 'yes') g.approximate = true;
    else if (approximate) throw new Error(`feature-gates-lifecycle.tsv: ${name}: approximate is "yes" or empty`);
  }
  for (const [name, description] of tsvRows(read('feature-gate-descriptions.tsv'), 2, 'feature-gate-descriptions.tsv')) {
    const g = gates.get(name!);
    if (!g) throw new Error(`feature-gate-descriptions.tsv: unknown gate ${name}`);
    g.description = description;
  }
  for (const g of gates.values()) {
    const last = g.specs[g.specs.length - 1]!;
    if (g.removedIn && cmp(g.removedIn, last.since) <= 0) throw new Error(`${g.name}: removed in ${g.removedIn}, but has a spec from ${last.since}`);
    // kube_features.go starts a gate added as GA/deprecated at a synthetic 1.0; the release it really arrived in must be said.
    if (upstream.has(g.name) && g.specs[0]!.since === '1.0' && !g.addedIn) throw new Error(`${g.name}: first spec is a backfilled 1.0, give its addedIn in feature-gates-lifecycle.tsv`);
    if (g.addedIn && cmp(g.addedIn, g.specs[0]!.since) < 0) throw new Error(`${g.name}: addedIn ${g.addedIn} before its first spec`);
  }
  const deps: [string, string[], string, boolean][] = [];
  for (const [name, needs, since, approximate] of tsvRows(read('feature-gate-dependencies.tsv'), 5, 'feature-gate-dependencies.tsv')) {
    const list = needs!.split(',').map((s) => s.trim());
    for (const n of [name!, ...list]) if (!gates.has(n)) throw new Error(`feature-gate-dependencies.tsv: unknown gate ${n}`);
    minor(since!);
    deps.push([name!, list, since!, approximate === 'yes']);
  }
  const versions = new Map(tsvRows(read('versions.tsv'), 3, 'versions.tsv').map(([k, v]) => [k!, v!]));
  const newest = versions.get('complete-through');
  if (!newest) throw new Error('versions.tsv: no complete-through row');
  minor(newest);

  const specText = (s: Spec) => `${s.since} ${s.stage} ${s.on ? 'on' : 'off'}${s.locked ? ' locked' : ''}`;
  const sorted = [...gates.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rows = sorted.map((g) => {
    const cells: (string | number)[] = [JSON.stringify(g.name), JSON.stringify(g.specs.map(specText).join(';'))];
    const extra = [g.addedIn ?? '', g.removedIn ?? '', g.approximate ? 1 : 0, g.description ?? ''];
    while (extra.length && (extra[extra.length - 1] === '' || extra[extra.length - 1] === 0)) extra.pop();
    for (const x of extra) cells.push(typeof x === 'number' ? x : JSON.stringify(x));
    return `  [${cells.join(', ')}],`;
  });
  const depRows = deps.map(([g, needs, since, approx]) => `  [${JSON.stringify(g)}, ${JSON.stringify(needs)}, ${JSON.stringify(since)}${approx ? ', 1' : ''}],`);
  const gatesModule = `// Generated by scripts/catalog.ts from server/src/catalog/facts/*.tsv (npm run catalog). Do not edit: change the
// fact tables (each row says its source) and regenerate.
// ${sorted.length} gates, ${sorted.filter((g) => g.removedIn).length} with the release that removed them; ${deps.length} dependencies.

/** [name, specs "since stage on|off [locked]" joined by ";", addedIn, removedIn, approximate (1), description]. */
export type GateRow = readonly [string, string, string?, string?, number?, string?];
/** [gate, the gates it needs, first minor that checks it, approximate (1)]. */
export type DependencyRow = readonly [string, readonly string[], string, number?];

/** A function, so the rows become objects on first use only (catalog/lazy.ts). */
export const GATE_ROWS = (): readonly GateRow[] => [
${rows.join('\n')}
];

export const GATE_DEPENDENCY_ROWS = (): readonly DependencyRow[] => [
${depRows.join('\n')}
];
`;
  const versionsModule = `// Generated by scripts/catalog.ts from server/src/catalog/facts/versions.tsv (npm run catalog). Do not edit.

/** Newest Kubernetes minor version whose gates, flags and fields the catalog holds completely. */
export const NEWEST_VERSION = ${JSON.stringify(newest)};
`;
  return { gates: gatesModule, versions: versionsModule };
}

function main(root: string, check: boolean): number {
  const want = generate(root);
  const outputs: [string, string][] = [[GATES_OUT, want.gates], [VERSIONS_OUT, want.versions]];
  const stale = outputs.filter(([path, text]) => {
    try {
      return readFileSync(join(root, path), 'utf8') !== text;
    } catch {
      return true;
    }
  });
  if (check) {
    if (stale.length) console.error(`out of date: ${stale.map(([p]) => p).join(', ')} (run npm run catalog)`);
    return stale.length ? 1 : 0;
  }
  for (const [path, text] of stale) writeFileSync(join(root, path), text);
  return 0;
}

if (process.argv[1]?.endsWith('catalog.ts')) process.exit(main(process.cwd(), process.argv.includes('--check')));
