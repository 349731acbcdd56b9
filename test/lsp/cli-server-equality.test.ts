/**
 * Issue #18: the CLI and the language server read the same bytes the same way (one reading function,
 * server/src/workspace/read-file.ts) and report the same findings. Differential test: every file of the corpora
 * (../shared/corpus, ../shared/corpus-embedded), each in a folder of its own, plus inputs that once differed (an env
 * file with a BOM, a drop-in with a NUL byte in a comment, CR-only line ends) and generated ones; the CLI's JSON
 * report and the server's workspace/diagnostic answer must hold the same findings, file by file.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { corpusDir } from '../helpers/corpus.ts';
import * as G from '../fuzz/gen.ts';
import { ROOT, TestClient } from './client.ts';

const CLI = join(ROOT, 'dist', 'cli.js');
const SEVERITY = ['', 'error', 'warning', 'information', 'hint'];

/** One line per finding: file, range, severity, code, message. */
type Report = Map<string, string[]>;

function cliReport(dir: string): Report {
  const r = spawnSync(process.execPath, [CLI, '--format', 'json', '.'], { cwd: dir, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: 120_000 });
  assert.equal(r.error, undefined, String(r.error));
  const out: Report = new Map();
  for (const d of JSON.parse(r.stdout).diagnostics) {
    const line = `${d.line - 1}:${d.column - 1}-${d.endLine - 1}:${d.endColumn - 1} ${d.severity} ${d.code} ${d.message}`;
    (out.get(d.file) ?? out.set(d.file, []).get(d.file)!).push(line);
  }
  for (const v of out.values()) v.sort();
  return out;
}

async function serverReport(dir: string): Promise<Report> {
  const client = new TestClient();
  try {
    await client.initialize([dir], { textDocument: { diagnostic: { dynamicRegistration: false } }, workspace: { diagnostics: { refreshSupport: false } } });
    const r: any = await client.request('workspace/diagnostic', { previousResultIds: [] }, 120_000);
    const out: Report = new Map();
    const prefix = `file://${dir}/`;
    for (const item of r.items) {
      if (!item.items.length) continue;
      const file = decodeURIComponent(String(item.uri).slice(prefix.length));
      out.set(
        file,
        item.items
          .map((d: any) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${SEVERITY[d.severity]} ${d.code} ${String(d.message).replaceAll(`${dir}/`, '')}`)
          .sort(),
      );
    }
    return out;
  } finally {
    await client.close();
  }
}

function tree(files: Record<string, string | Buffer>): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-equal-'));
  for (const [p, b] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), b);
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

async function assertSame(files: Record<string, string | Buffer>, what: string): Promise<void> {
  const t = tree(files);
  try {
    const cli = cliReport(t.dir);
    const server = await serverReport(t.dir);
    const paths = [...new Set([...cli.keys(), ...server.keys()])].sort();
    for (const p of paths) assert.deepEqual(server.get(p) ?? [], cli.get(p) ?? [], `${what}: ${p}`);
  } finally {
    t.dispose();
  }
}

const corpora = ['corpus', 'corpus-embedded'].map((c) => corpusDir(c)).filter((d): d is string => d !== undefined);

describe('the CLI and the server report the same findings', () => {
  test('inputs that once differed: a BOM in an env file, a NUL byte in a drop-in comment, CR-only line ends', async () => {
    const unit = '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n';
    await assertSame(
      {
        'bom/etc/systemd/system/kubelet.service': unit,
        'bom/etc/default/kubelet': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('KUBELET_EXTRA_ARGS=--bogus-flag\n')]),
        'nul/etc/systemd/system/kubelet.service': unit,
        'nul/etc/systemd/system/kubelet.service.d/20-x.conf': Buffer.concat([Buffer.from('[Service]\n# a comment \u0000 with a NUL\nExecStart=\nExecStart=/usr/bin/kubelet --bogus-flag\n')]),
        'cr/etc/systemd/system/kubelet.service': '[Service]\rExecStart=/usr/bin/kubelet --bogus-flag\r',
      },
      'known cases',
    );
  });

  for (const c of corpora) {
    test(`every file of ${c.split('/').slice(-1)[0]}, each in a folder of its own`, { timeout: 300_000 }, async () => {
      const names = readdirSync(join(c, 'files')).sort();
      const files: Record<string, Buffer> = {};
      names.forEach((n, i) => (files[`${String(i).padStart(3, '0')}/${n}`] = readFileSync(join(c, 'files', n))));
      await assertSame(files, c);
    });
  }

  test('generated workspaces', { timeout: 300_000 }, async () => {
    const samples = fc.sample(G.workspace, { numRuns: Number(process.env.FUZZ_RUNS ?? 0) > 0 ? 40 : 12, seed: 20261201 });
    const files: Record<string, string> = {};
    samples.forEach((ws, i) => ws.forEach((f) => (files[`g${i}/${f.path}`] = f.text)));
    await assertSame(files, 'generated');
  });
});
