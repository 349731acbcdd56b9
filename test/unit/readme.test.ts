import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../server/src/registry.ts';
import { FILE_WIDE, scanSuppressions } from '../../server/src/parse/suppressions.ts';
import { DISABLE_FILE, DISABLE_LINE, DISABLE_NEXT_LINE } from '../../server/src/model/suppression.ts';

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

test('README\'s limits section states the bounds the code enforces', async () => {
  const { MAX_FILE_BYTES, READ_TIMEOUT_MS } = await import('../../server/src/io/read-file.ts');
  const { ARGV_DEFAULT_MAX, ARGV_HARD_MAX, ARG_STRLEN_MAX } = await import('../../server/src/parse/systemd/exec.ts');
  const { MAX_FILES } = await import('../../server/src/lsp/disk-files.ts');
  const section = readme.slice(readme.indexOf('## Limits'), readme.indexOf('\n## ', readme.indexOf('## Limits') + 1));
  assert.ok(section.length > 100, 'README has a "## Limits" section');
  const mib = (n: number) => `${n / 1024 / 1024} MiB`;
  for (const bound of [mib(MAX_FILE_BYTES), `${READ_TIMEOUT_MS / 1000} s`, mib(ARGV_HARD_MAX), mib(ARGV_DEFAULT_MAX), `${ARG_STRLEN_MAX / 1024} KiB`, MAX_FILES.toLocaleString('en')]) {
    assert.ok(section.includes(bound), `the limits section does not state ${bound}`);
  }
});

test('README\'s "Silencing a finding" block is read as it says: next line, same line and whole file, with the ids given', () => {
  const block = readme.split('### Silencing a finding')[1].split('```\n')[1];
  const found = scanSuppressions(block, true).map((s) => [s.line === FILE_WIDE ? 'file' : s.line, [...(s.ids ?? [])].sort().join(',')]);
  // line 0 silences line 1 (next-line); line 1 silences itself (a trailing comment); line 2 the whole file.
  assert.deepEqual(found.sort((a, b) => String(a[0]).localeCompare(String(b[0]))), [
    [1, 'flag-deprecated,reserved-cgroup-missing'],
    [1, 'cgroup-driver-mismatch'],
    ['file', 'flag-deprecated'],
  ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
  // The comments the light-bulb actions write are these forms (features/suppress-actions.ts, test/unit/suppressions.test.ts).
  for (const form of [DISABLE_NEXT_LINE, DISABLE_LINE, DISABLE_FILE]) assert.ok(block.includes(`# ${form} `), form);
});
