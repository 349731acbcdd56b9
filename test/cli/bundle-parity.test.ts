// The shipped bundle reads files as the engine the tests run does. The bundle takes the `yaml` library's browser build
// (scripts/esbuild-yaml.mjs); once it decoded `!!binary` with atob and gave up on a cloud-config the tests read whole.
// Here the whole real-world suite is one workspace, through dist/cli.js and through analyze(): the same findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import type { SourceFile } from '../../server/src/model/source.ts';

const root = resolve(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const dir = join(root, 'test', 'realworld', 'files');

function files(at: string, out: SourceFile[] = []): SourceFile[] {
  for (const n of readdirSync(at).sort()) {
    const p = join(at, n);
    if (statSync(p).isDirectory()) files(p, out);
    else out.push({ path: relative(root, p).split('\\').join('/'), text: readFileSync(p, 'utf8') });
  }
  return out;
}

test('dist/cli.js and analyze() give the same findings for every file of the real-world suite read as one workspace', () => {
  const r = spawnSync(process.execPath, [cli, '--format', 'json', relative(root, dir)], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
  assert.equal(r.error, undefined);
  const bundle = (JSON.parse(r.stdout).diagnostics as { file: string; line: number; column: number; code: string; severity: string }[])
    .map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`)
    .sort();
  const engine = analyze(files(dir))
    .findings.map((f) => `${f.file}:${f.range.start.line + 1}:${f.range.start.character + 1} ${f.severity} ${f.code}`)
    .sort();
  assert.ok(engine.length > 100, `only ${engine.length} findings`);
  assert.deepEqual(bundle, engine);
});
