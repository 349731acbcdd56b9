/**
 * server/src/io/read-file.ts: the CLI's and the server's one way to read a file. Issue #18: a file replaced
 * by a FIFO between the server's lstat() and readFile() made the workspace scan wait forever (open() of a FIFO
 * without a writer blocks), and every request with it. The reader opens with O_NONBLOCK|O_NOFOLLOW and checks the
 * descriptor it got, so the swap is harmless whenever it happens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkspaceFiles } from '../../server/src/lsp/disk-files.ts';
import { detectKind, looksLikeEnvFile } from '../../server/src/registry.ts';
import { decodeSource, readSourceFile, readSourceFileSync } from '../../server/src/io/read-file.ts';
import { HANG_MS } from '../helpers/hang.ts';

function tmp(): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'read-file-'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

const notHanging = <T>(p: Promise<T>): Promise<T> =>
  Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error('hung')), HANG_MS).unref())]);

test('a FIFO without a writer is refused at once, synchronously and asynchronously', async () => {
  const t = tmp();
  try {
    const fifo = join(t.dir, 'kubelet.env');
    execFileSync('mkfifo', [fifo]);
    const r = await notHanging(readSourceFile(fifo));
    assert.deepEqual(r, { ok: false, reason: 'not a regular file' });
    assert.deepEqual(readSourceFileSync(fifo), { ok: false, reason: 'not a regular file' });
  } finally {
    t.dispose();
  }
});

test('the server scan asked to re-read a path that is now a FIFO forgets it instead of waiting', async () => {
  const t = tmp();
  try {
    const path = join(t.dir, 'kubelet.env');
    writeFileSync(path, 'KUBELET_EXTRA_ARGS=--v=2\n');
    const files = new WorkspaceFiles(() => {}, { detectKind, looksLikeEnvFile });
    await files.addFolder(t.dir);
    assert.equal(files.size, 1);
    rmSync(path);
    execFileSync('mkfifo', [path]);
    assert.equal(await notHanging(files.read(path)), true);
    assert.equal(files.size, 0);
  } finally {
    t.dispose();
  }
});

test('a symbolic link is not followed by the reader (O_NOFOLLOW)', async () => {
  const t = tmp();
  try {
    writeFileSync(join(t.dir, 'real'), 'A=1\n');
    symlinkSync(join(t.dir, 'real'), join(t.dir, 'link'));
    assert.equal((await readSourceFile(join(t.dir, 'link'))).ok, false);
    assert.equal(readSourceFileSync(join(t.dir, 'link')).ok, false);
  } finally {
    t.dispose();
  }
});

test('bytes decode the same way for both: BOM and NUL kept, invalid UTF-8 replaced', async () => {
  const t = tmp();
  try {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x3d, 0x00, 0xff, 0x0a]);
    const path = join(t.dir, 'x.env');
    writeFileSync(path, bytes);
    const expected = '\ufeffA=\0\ufffd\n';
    assert.equal(decodeSource(bytes), expected);
    assert.deepEqual(await readSourceFile(path), { ok: true, text: expected, size: 8 });
    assert.deepEqual(readSourceFileSync(path), { ok: true, text: expected, size: 8 });
  } finally {
    t.dispose();
  }
});
