/**
 * Multi-file fixtures for feature tests, in the style of rust-analyzer's test
 * fixtures: `//- <path>` starts a file, and `$0` marks the cursor (at most one,
 * removed from the text). Text before the first `//-` line is not allowed.
 */
import assert from 'node:assert/strict';
import type { Position } from 'vscode-languageserver-types';
import type { SourceFile } from '../../server/src/model/source.ts';

export interface Fixture {
  files: SourceFile[];
  /** The file and position of `$0`, when the fixture has one. */
  cursor?: { path: string; pos: Position };
}

export function fixture(text: string): Fixture {
  const lines = text.replace(/^\n/, '').split('\n');
  assert.ok(lines[0]?.startsWith('//- '), 'a fixture starts with "//- <path>"');
  const files: SourceFile[] = [];
  let cursor: Fixture['cursor'];
  let path = '';
  let body: string[] = [];
  const flush = () => {
    if (path) files.push({ path, text: body.join('\n') + '\n' });
  };
  for (const line of lines) {
    if (line.startsWith('//- ')) {
      flush();
      path = line.slice(4).trim();
      body = [];
      continue;
    }
    const at = line.indexOf('$0');
    if (at !== -1) {
      assert.equal(cursor, undefined, 'a fixture has at most one $0');
      cursor = { path, pos: { line: body.length, character: at } };
    }
    body.push(line.replace('$0', ''));
  }
  flush();
  // Trailing blank lines of the template literal are not part of the last file.
  const last = files.at(-1);
  if (last) last.text = last.text.replace(/\n+$/, '\n');
  return { files, cursor };
}

/** `line:character` (0-based, as LSP), for compact expectations. */
export function pos(p: Position): string {
  return `${p.line}:${p.character}`;
}

export function range(r: { start: Position; end: Position }): string {
  return `${pos(r.start)}-${pos(r.end)}`;
}
