import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../server/src/rules/index.ts';

const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');

test('README gives exactly the two set-up commands the CI and a newcomer rely on', () => {
  assert.match(readme, /npm ci && npm start/);
  assert.match(readme, /npm test/);
});

test('rule ids are unique and kebab-case', () => {
  const ids = RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^[a-z]+(-[a-z0-9]+)*$/);
});

test('README links only to absolute URLs or anchors: vsce refuses to package relative links without a repository URL', () => {
  const relative = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]).filter((href) => !/^(https?:|#)/.test(href));
  assert.deepEqual(relative, []);
});
