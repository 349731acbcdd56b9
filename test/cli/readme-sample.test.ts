// README's "What it looks like" is an excerpt of what `npm start` prints (issue 26, point 19: it showed a fix that
// was no longer offered). Each file, row, fix and table line of the excerpt must be in the real output of the
// built CLI on examples/ with npm start's capacity: a row's text up to each `...`, its fixes exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');

interface Row { loc: string; severity: string; text: string; fixes: string[] }
interface Section { rows: Row[]; lines: string[] }

/** Output as the CLI prints it (or the README wraps it): sections by file or node, rows with their continuation lines. */
function parse(text: string): Map<string, Section> {
  const out = new Map<string, Section>();
  let cur: Section | undefined;
  let row: Row | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      row = undefined;
      continue;
    }
    if (!line.startsWith(' ')) {
      cur = { rows: [], lines: [] };
      out.set(line.replace(/ \(\+\d+ files?\)$/, ''), cur);
      row = undefined;
      continue;
    }
    if (!cur) continue;
    cur.lines.push(line);
    const m = /^ {2}(\d+:\d+)\s+(error|warning|information|hint)\s+(.*)$/.exec(line);
    if (m) {
      row = { loc: m[1], severity: m[2], text: m[3], fixes: [] };
      cur.rows.push(row);
    } else if (row && line.trim().startsWith('fix: ')) row.fixes.push(line.trim().slice(5));
    else if (row) row.text += ' ' + line.trim();
  }
  return out;
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

test('README\'s sample output is what npm start prints: its files, rows (text up to each ...), fixes and table lines', () => {
  assert.ok(existsSync(cli), `${cli} is missing: run "npm run build" first`);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const args = /node dist\/cli\.js (.*?) \|\|/.exec(pkg.scripts.start)![1].split(' ');
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const actual = parse(r.stdout);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const sample = readme.split('## What it looks like')[1].split('```\n')[1];
  const shown = parse(sample);
  assert.ok(shown.size >= 4, 'the sample has sections');
  for (const [name, s] of shown) {
    const a = actual.get(name);
    assert.ok(a, `npm start prints no section ${name}`);
    for (const row of s.rows) {
      const got: Row | undefined = a.rows.find((x) => x.loc === row.loc && x.severity === row.severity);
      assert.ok(got, `${name} ${row.loc} ${row.severity}: no such row`);
      let at = 0;
      for (const piece of row.text.split('...').map(squeeze).filter(Boolean)) {
        const i = squeeze(got.text).indexOf(piece, at);
        assert.ok(i >= 0 && (at > 0 || i === 0), `${name} ${row.loc}: "${piece}" is not what npm start prints:\n${got.text}`);
        at = i + piece.length;
      }
      assert.deepEqual(row.fixes, got.fixes, `${name} ${row.loc}: the fixes shown are the fixes offered`);
    }
    if (name.startsWith('Node ')) for (const line of s.lines) assert.ok(a.lines.includes(line), `${name}: "${line}" is not printed`);
  }
});
