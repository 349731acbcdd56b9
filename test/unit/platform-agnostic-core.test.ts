/**
 * The core names no platform (issue #22): engine.ts, node/, rules/, features/ and parse/types.ts learn everything
 * platform-specific from the platform's own folder through the registry. Comments may mention a platform as an
 * example; code and strings may not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PLATFORMS } from '../../server/src/platforms/index.ts';

const ROOT = join(__dirname, '../..');
const SRC = join(ROOT, 'server/src');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const CORE = [join(SRC, 'engine.ts'), join(SRC, 'parse/types.ts'), ...walk(join(SRC, 'node')), ...walk(join(SRC, 'rules')), ...walk(join(SRC, 'features'))];

/** Every platform's id, name and format kinds, and the tools they stand for ("kind" alone is an ordinary word here). */
const NAMES = [...new Set([...PLATFORMS.flatMap((p) => [p.id, p.name, ...p.formats.map((f) => f.kind)]), 'rke2', 'talhelper', 'capi', 'eks', 'gke', 'aks'].map((n) => n.toLowerCase()))].filter((n) => n !== 'kind');

/** The code of a file without its comments (strings and template literals kept). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

test('the names this test looks for include every registered platform', () => {
  for (const p of PLATFORMS) assert.ok(NAMES.includes(p.id.toLowerCase()) || p.id === 'kind', p.id);
  assert.ok(NAMES.includes('talos') && NAMES.includes('nodeadm') && NAMES.includes('karpenter'));
});

test('engine.ts, node/, rules/, features/ and parse/types.ts name no platform in their code', () => {
  const found: string[] = [];
  const words = new RegExp(`(?<![A-Za-z0-9])(${NAMES.map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})(?![A-Za-z0-9])`, 'i');
  for (const f of CORE) {
    code(readFileSync(f, 'utf8')).split('\n').forEach((line, i) => {
      const m = words.exec(line);
      if (m) found.push(`${relative(ROOT, f)}:${i + 1}: ${m[1]}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(found, []);
});
