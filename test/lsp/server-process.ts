/**
 * Process-level probes for the stress, robustness and workspace tests: raw
 * bytes written to the server's stdin (what a JSON-RPC library never sends),
 * responses read straight off its stdout, its resident memory from /proc, and
 * diagnostics from a brand-new server as the reference for "fresh analysis".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver';
import { HANG_MS } from '../helpers/hang.ts';
import { TestClient } from './client.ts';

export const GC_HOOK = join(__dirname, 'gc-on-signal.cjs');
const SHIPPED_NODE_FLAGS: string[] = JSON.parse(readFileSync(join(__dirname, '..', '..', 'client', 'server-node-flags.json'), 'utf8')).flags;
/** Node flags for a server whose memory the test reads: what the extension passes, plus the GC hook. */
export const MEMORY_NODE_ARGS = ['--expose-gc', ...SHIPPED_NODE_FLAGS, '--require', GC_HOOK];

/** One JSON-RPC message with its Content-Length header, as bytes. */
export function frame(message: object): Buffer {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/**
 * Every message the server writes, parsed from its stdout next to the
 * client's own reader (which drops responses to ids it did not send).
 */
export class StdoutTap {
  readonly messages: any[] = [];
  private buf = Buffer.alloc(0);
  private waiters: { test: (m: any) => boolean; resolve: (m: any) => void }[] = [];

  constructor(client: TestClient) {
    client.proc.stdout!.on('data', (d: Buffer) => this.onData(d));
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const m = /Content-Length: *(\d+)/i.exec(this.buf.subarray(0, end).toString('ascii'));
      if (!m) throw new Error(`server wrote a bad header: ${this.buf.subarray(0, end).toString('ascii')}`);
      const start = end + 4;
      const len = Number(m[1]);
      if (this.buf.length < start + len) return;
      const msg = JSON.parse(this.buf.subarray(start, start + len).toString('utf8'));
      this.buf = this.buf.subarray(start + len);
      this.messages.push(msg);
      this.waiters = this.waiters.filter((w) => (w.test(msg) ? (w.resolve(msg), false) : true));
    }
  }

  /** The response to the request with `id`. */
  response(id: string | number): Promise<any> {
    return this.wait((m) => m.id === id && !('method' in m), `the response to ${id}`);
  }

  wait(test: (m: any) => boolean, what: string): Promise<any> {
    const past = this.messages.find(test);
    if (past) return Promise.resolve(past);
    return new Promise((res, rej) => {
      const t = setTimeout(() => rej(new Error(`no ${what} within ${HANG_MS} ms`)), HANG_MS);
      this.waiters.push({ test, resolve: (m) => (clearTimeout(t), res(m)) });
    });
  }
}

/** Resident set size of a process in MiB (Linux: /proc/<pid>/status VmRSS). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

/**
 * RSS once it stops moving: after a GC, V8 hands freed pages back to the system
 * from background threads, so a reading taken at once may still count them.
 * Samples every 100 ms until three in a row are within 0.25 MiB (a quiet
 * period, not a timing assertion); after HANG_MS, the last sample.
 */
export async function settledRssMiB(pid: number): Promise<number> {
  const deadline = Date.now() + HANG_MS;
  let last = rssMiB(pid);
  let steady = 0;
  while (steady < 3 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const now = rssMiB(pid);
    steady = Math.abs(now - last) < 0.25 ? steady + 1 : 0;
    last = now;
  }
  return last;
}

/** Full GC in a server started with MEMORY_NODE_ARGS; resolves once it reports back, with its heap figures in MiB. */
export function collectGarbage(client: TestClient): Promise<{ heapUsed: number; heapTotal: number }> {
  return new Promise((res, rej) => {
    let text = '';
    const t = setTimeout(() => done(new Error('the server did not report a GC (started without MEMORY_NODE_ARGS?)')), HANG_MS);
    const onData = (d: Buffer) => {
      text += String(d);
      const line = text.split('\n').find((l) => l.startsWith('gc-done ') && l.endsWith('}'));
      if (line) done(undefined, JSON.parse(line.slice('gc-done '.length)));
    };
    const done = (e?: Error, m?: { heapUsed: number; heapTotal: number }) => {
      clearTimeout(t);
      client.proc.stderr!.off('data', onData);
      if (e) rej(e);
      else res({ heapUsed: m!.heapUsed / 1048576, heapTotal: m!.heapTotal / 1048576 });
    };
    client.proc.stderr!.on('data', onData);
    client.proc.kill('SIGUSR2');
  });
}

/** What makes two diagnostics the same finding, in a stable order. */
export function comparable(ds: readonly Diagnostic[]): { code: unknown; range: Diagnostic['range']; severity: unknown; message: unknown }[] {
  return ds
    .map((d) => ({ code: d.code, range: d.range, severity: d.severity, message: d.message }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** Diagnostics of `text` at `path` from a brand-new server on `folders`: a fresh analysis, with no state from earlier edits. */
export async function freshDiagnostics(folders: string[], path: string, text: string): Promise<Diagnostic[]> {
  const c = new TestClient();
  try {
    await c.initialize(folders);
    const u = c.open(path, text);
    return (await c.wait('textDocument/publishDiagnostics', (p: any) => p.uri === u && p.version === 1, HANG_MS)).diagnostics;
  } finally {
    await c.close();
  }
}

/** Waits until `cond()` holds, checking after each event-loop turn; fails after HANG_MS (a hang guard, not a timing assertion). */
export async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until the async `check` holds, re-checking after each event-loop turn; fails after HANG_MS (a hang guard). */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
