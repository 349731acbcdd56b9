/**
 * The one way the CLI and the language server read a file from disk, so that both hand the engine the same text for
 * the same bytes.
 *
 * - Opened with O_NONBLOCK and O_NOFOLLOW, then checked on the descriptor (fstat): a path swapped for a FIFO, a
 *   device or a symbolic link after the caller looked at it is refused instead of blocking or leaving the tree.
 * - At most MAX_FILE_BYTES are read, however large the file has grown since it was looked at.
 * - Decoded as UTF-8 with invalid sequences replaced (U+FFFD) and a byte order mark KEPT: the parsers drop it where
 *   their oracle does (systemd's config_parse() for units, go-yaml, ...) and keep it where it does not (an env
 *   file's first name then starts with U+FEFF, as in systemd). NUL bytes are kept too, for the same reason.
 */
import { closeSync, constants, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import { decodeSource, MAX_FILE_BYTES } from './decode.ts';

export { decodeSource, MAX_FILE_BYTES };
/** How long the server waits for one file (a stuck network or FUSE mount) before it gives up on it. */
export const READ_TIMEOUT_MS = 5000;

export type ReadResult = { ok: true; text: string; size: number } | { ok: false; reason: string };

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | (constants.O_NOCTTY ?? 0);

const MIB = `${MAX_FILE_BYTES / 1024 / 1024} MiB`;

function refuse(st: { isFile(): boolean; size: number }): string | undefined {
  if (!st.isFile()) return 'not a regular file';
  if (st.size > MAX_FILE_BYTES) return `larger than ${MIB}`;
  return undefined;
}

function errorReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'a symbolic link';
  return code === 'EACCES' || code === 'EPERM' ? 'unreadable (permission denied)' : `unreadable (${code ?? (e as Error).message})`;
}

/** Reads a regular file synchronously (the CLI). */
export function readSourceFileSync(path: string): ReadResult {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    return { ok: false, reason: errorReason(e) };
  }
  try {
    const st = fstatSync(fd);
    const why = refuse(st);
    if (why) return { ok: false, reason: why };
    // Sized by the file (an 8 MiB buffer per file made a walk of 25,000 small files take seconds), grown when the
    // file has grown since fstat, never past one byte over the limit.
    let buf = Buffer.allocUnsafe(Math.min(st.size, MAX_FILE_BYTES) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_FILE_BYTES + 1));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > MAX_FILE_BYTES) return { ok: false, reason: `larger than ${MIB}` };
    }
    return { ok: true, text: decodeSource(buf.subarray(0, n)), size: n };
  } catch (e) {
    return { ok: false, reason: errorReason(e) };
  } finally {
    closeSync(fd);
  }
}

/** Reads a regular file without ever waiting more than READ_TIMEOUT_MS for it (the server's scan). */
export async function readSourceFile(path: string, timeoutMs = READ_TIMEOUT_MS): Promise<ReadResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ReadResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    timer.unref?.();
  });
  try {
    return await Promise.race([readAsync(path), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function readAsync(path: string): Promise<ReadResult> {
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(path, FLAGS);
  } catch (e) {
    return { ok: false, reason: errorReason(e) };
  }
  try {
    const st = await fh.stat();
    const why = refuse(st);
    if (why) return { ok: false, reason: why };
    let buf = Buffer.allocUnsafe(Math.min(MAX_FILE_BYTES + 1, st.size + 1));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        // The file grew since fstat: read on into a larger buffer, never past the limit.
        if (n > MAX_FILE_BYTES) return { ok: false, reason: `larger than ${MIB}` };
        const bigger = Buffer.allocUnsafe(Math.min(MAX_FILE_BYTES + 1, n * 2));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, n, buf.length - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > MAX_FILE_BYTES) return { ok: false, reason: `larger than ${MIB}` };
    return { ok: true, text: decodeSource(buf.subarray(0, n)), size: n };
  } catch (e) {
    return { ok: false, reason: errorReason(e) };
  } finally {
    await fh.close().catch(() => undefined);
  }
}
