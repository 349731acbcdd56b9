/**
 * The import rules of ARCHITECTURE.md's code map, checked on every source file
 * so that the invariants stay true: rules never see the LSP or the parsers,
 * features never parse, LSP handlers never parse, the leaves import nothing.
 * Folders are server/src/<folder> (engine.ts counts as "engine") and
 * client/src ("client"). A type-only import (`import type`, `import { type X }`
 * or an `import('...')` type) does not run code and is allowed where noted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '../..');

interface Import {
  file: string;
  from: string;
  /** Folder of the importing file and of the imported one. */
  area: string;
  target: string;
  /** The imported path, relative to the repository. */
  targetPath: string;
  typeOnly: boolean;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

function areaOf(path: string): string {
  const rel = relative(ROOT, path).split(sep).join('/');
  if (rel.startsWith('client/src/')) return 'client';
  const m = /^server\/src\/([^/]+)/.exec(rel);
  if (!m) return rel;
  return m[1].endsWith('.ts') ? m[1].slice(0, -3) : m[1];
}

/** Every relative import and re-export of a file, static or `import('...')`. */
function importsOf(file: string, text: string): Import[] {
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (!spec.startsWith('.')) return;
    const target = join(dirname(file), spec);
    out.push({ file: relative(ROOT, file), from: spec, area: areaOf(file), target: areaOf(target), targetPath: relative(ROOT, target).split(sep).join('/'), typeOnly });
  };
  for (const m of text.matchAll(/^[ \t]*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*'([^']+)'/gm)) {
    const names = m[3];
    const allTypes = !!m[2] || (/^\{[^}]*\}$/.test(names.trim()) && names.replace(/[{}\s]/g, '').split(',').filter(Boolean).every((n) => n.startsWith('type')));
    add(m[4], allTypes);
  }
  for (const m of text.matchAll(/^[ \t]*import\s+'([^']+)'/gm)) add(m[1], false);
  // `import('x')` in a type position is a type; an awaited or called one runs code.
  for (const m of text.matchAll(/(await\s+)?\bimport\(\s*'([^']+)'\s*\)/g)) add(m[2], !m[1] && !/\bimport\('[^']+'\)\s*\./.test(m[0]));
  return out;
}

const ALL = [...walk(join(ROOT, 'server/src')), ...walk(join(ROOT, 'client/src'))].flatMap((f) => importsOf(f, readFileSync(f, 'utf8')));

/** What each folder may import (besides itself); `types` may be imported as types only. */
const MAY: Record<string, { code: (string | RegExp)[]; types?: (string | RegExp)[] }> = {
  model: { code: [] },
  catalog: { code: [] },
  quantity: { code: [] },
  parse: { code: ['model'] },
  fixes: { code: ['model', 'parse'] },
  embed: { code: ['model', 'parse'] },
  formats: { code: ['embed', 'model', 'parse'] },
  node: { code: ['catalog', 'embed', 'formats', 'model', 'parse', 'quantity'] },
  rules: { code: ['catalog', 'model', 'node', 'quantity'], types: [/^server\/src\/parse\/types\.ts$/] },
  platforms: { code: ['catalog', 'embed', 'formats', 'model', 'node', 'parse', 'quantity', 'rules'] },
  registry: { code: ['catalog', 'embed', 'formats', 'model', 'node', 'parse', 'platforms', 'quantity', 'rules'] },
  engine: { code: ['catalog', 'embed', 'fixes', 'formats', 'model', 'node', 'parse', 'quantity', 'registry', 'rules'] },
  features: { code: ['catalog', 'embed', 'fixes', 'model', 'node', 'quantity', 'registry', 'rules'], types: ['engine', 'formats', /^server\/src\/parse\/types\.ts$/] },
  io: { code: [] },
  cli: { code: ['catalog', 'engine', 'features', 'formats', 'io', 'model', 'node', 'quantity', 'registry', 'rules'] },
  lsp: { code: ['catalog', 'engine', 'features', 'formats', 'io', 'model', 'node', 'registry'] },
  client: { code: [/^server\/src\/features\/protocol\.ts$/, /^server\/src\/formats\/patterns\.generated\.ts$/], types: ['features'] },
};

/** The layers from the bottom up: a folder imports only folders below it (types too), so there is no circle. */
const LAYERS = [['model', 'catalog', 'quantity', 'io'], ['parse'], ['fixes', 'embed'], ['formats'], ['node'], ['rules'], ['platforms'], ['registry'], ['engine'], ['features'], ['cli', 'lsp'], ['client']];

function allowed(i: Import): boolean {
  if (i.area === i.target) return true;
  const rule = MAY[i.area];
  if (!rule) return false;
  const matches = (p: string | RegExp) => (typeof p === 'string' ? p === i.target : p.test(i.targetPath));
  if (rule.code.some(matches)) return true;
  return i.typeOnly && (rule.types ?? []).some(matches);
}

test('every folder of server/src and client/src has an import rule', () => {
  const areas = new Set(ALL.flatMap((i) => [i.area, i.target]).filter((a) => !a.includes('/')));
  for (const a of areas) assert.ok(MAY[a], `no import rule for ${a}: add it to ARCHITECTURE.md's code map and to MAY here`);
});

test('imports follow the code map of ARCHITECTURE.md', () => {
  const bad = ALL.filter((i) => !allowed(i)).map((i) => `${i.file}: ${i.area} imports ${i.typeOnly ? 'the types of ' : ''}${i.targetPath}`);
  assert.deepEqual(bad, []);
});

test('the folders form a straight line: every import, types included, goes to a lower layer', () => {
  const level = new Map(LAYERS.flatMap((l, i) => l.map((a) => [a, i] as const)));
  const up = ALL.filter((i) => i.area !== i.target && level.has(i.area) && level.has(i.target) && level.get(i.target)! >= level.get(i.area)!);
  assert.deepEqual(up.map((i) => `${i.file} (${i.area}) imports ${i.typeOnly ? 'the types of ' : ''}${i.targetPath} (${i.target})`), []);
});

test('rules never import the LSP, the features or a parser; features and the LSP never import a parser', () => {
  // The rows of MAY say it already; these are the invariants by name, so that widening MAY shows up here.
  for (const i of ALL.filter((x) => x.area === 'rules')) {
    assert.ok(!['lsp', 'features', 'cli', 'formats', 'engine'].includes(i.target), `${i.file} imports ${i.targetPath}`);
    if (i.target === 'parse') assert.ok(i.typeOnly && i.targetPath === 'server/src/parse/types.ts', `${i.file} imports the parser ${i.targetPath}`);
  }
  for (const i of ALL.filter((x) => x.area === 'features' || x.area === 'lsp')) {
    if (i.target === 'parse') assert.ok(i.typeOnly, `${i.file} imports the parser ${i.targetPath}`);
    if (i.area === 'features') assert.notEqual(i.target, 'formats', `${i.file} imports ${i.targetPath}: features answer from the analysis, they do not read files`);
  }
});

test('I/O and the LSP connection stay at the edges: only lsp/ and cli/ import node:fs or vscode-languageserver', () => {
  for (const f of walk(join(ROOT, 'server/src'))) {
    const area = areaOf(f);
    if (area === 'lsp' || area === 'cli') continue;
    const text = readFileSync(f, 'utf8');
    // io/ is the file reader the two edges share: it reads files, and nothing else.
    if (area === 'io') assert.ok(!/from '(node:)?(child_process|net)'|from 'vscode-languageserver/.test(text), `${relative(ROOT, f)} does more than read files`);
    else assert.ok(!/from '(node:)?(fs|child_process|net)'|from 'vscode-languageserver(\/[^']*)?'/.test(text), `${relative(ROOT, f)} does I/O or talks LSP`);
  }
});

test('the import reader sees every form of import', () => {
  const f = join(ROOT, 'server/src/rules/x.ts');
  const got = importsOf(f, [
    "import { a } from '../parse/config.ts';",
    "import type { B } from '../parse/types.ts';",
    "import { type C, type D } from '../lsp/server.ts';",
    "export { e } from '../features/hover.ts';",
    "import {\n  f,\n  g,\n} from '../node/model.ts';",
    "type H = import('../formats/index.ts').FormatKind;",
    "const m = await import('../cli/main.ts');",
  ].join('\n'));
  assert.deepEqual(got.map((i) => `${i.target}${i.typeOnly ? ':type' : ''}`), ['parse', 'parse:type', 'lsp:type', 'features', 'node', 'formats:type', 'cli']);
});
