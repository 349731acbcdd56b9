/**
 * A small LSP test client: spawns `node dist/server.js --stdio`, speaks
 * JSON-RPC through vscode-jsonrpc, and waits for notifications with a
 * timeout (never a fixed sleep).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource, StreamMessageReader, StreamMessageWriter, createMessageConnection, type MessageConnection } from 'vscode-languageserver/node';
import type { ClientCapabilities, Diagnostic, InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver';

export const ROOT = resolve(__dirname, '..', '..');
export const SERVER = join(ROOT, 'dist', 'server.js');

export function uri(path: string): string {
  return pathToFileURL(path).href;
}

/** A temp workspace holding copies of example folders. */
export function workspace(...examples: string[]): { dir: string; path: (rel: string) => string; read: (rel: string) => string; write: (rel: string, text: string) => void; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kubelet-lsp-'));
  for (const e of examples) cpSync(join(ROOT, 'examples', e), join(dir, e), { recursive: true });
  return {
    dir,
    path: (rel) => join(dir, rel),
    read: (rel) => readFileSync(join(dir, rel), 'utf8'),
    write: (rel, text) => writeFileSync(join(dir, rel), text),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface Waiter {
  method: string;
  test: (params: any) => boolean;
  resolve: (params: any) => void;
}

export class TestClient {
  readonly conn: MessageConnection;
  readonly proc: ChildProcess;
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  readonly log: string[] = [];
  readonly serverRequests: { method: string; params: unknown }[] = [];
  private waiters: Waiter[] = [];
  private history: { method: string; params: any }[] = [];
  private versions = new Map<string, number>();
  exited = false;

  /** `server`: another copy of the server bundle to run (default dist/server.js). */
  constructor(opts: { nodeArgs?: string[]; server?: string } = {}) {
    this.proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.server ?? SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.on('exit', () => (this.exited = true));
    this.proc.stderr!.on('data', (d) => this.log.push(String(d)));
    this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.conn.onNotification((method, params: any) => {
      if (method === 'textDocument/publishDiagnostics') this.diagnostics.set(params.uri, params);
      if (method === 'window/logMessage') this.log.push(params.message);
      this.history.push({ method, params });
      this.settle(method, params);
    });
    this.conn.onRequest((method, params) => {
      this.serverRequests.push({ method, params });
      this.history.push({ method, params });
      this.settle(method, params);
      if (method === 'workspace/configuration') return [this.settings];
      return null;
    });
    this.conn.listen();
  }

  /** Resolves (and drops) the waiters this message satisfies. */
  private settle(method: string, params: any): void {
    this.waiters = this.waiters.filter((w) => {
      if (w.method === method && w.test(params)) {
        w.resolve(params);
        return false;
      }
      return true;
    });
  }

  /** What the client answers to workspace/configuration (when it declares that capability). */
  settings: unknown = {};

  /** Resolves with the first matching notification or server request, including ones already received. */
  wait<T = any>(method: string, test: (params: T) => boolean = () => true, timeoutMs = 5000): Promise<T> {
    const past = this.history.find((h) => h.method === method && test(h.params));
    if (past) return Promise.resolve(past.params);
    return new Promise<T>((res, rej) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        rej(new Error(`timed out waiting for ${method}; log:\n${this.log.join('\n')}`));
      }, timeoutMs);
      const waiter: Waiter = { method, test, resolve: (p) => { clearTimeout(timer); res(p); } };
      this.waiters.push(waiter);
    });
  }

  /** Versions of every publishDiagnostics received for `u`, in order. */
  publishedVersions(u: string): (number | undefined)[] {
    return this.history.filter((h) => h.method === 'textDocument/publishDiagnostics' && h.params.uri === u).map((h) => h.params.version);
  }

  /** Waits for diagnostics of `uri` (at `version` when given) satisfying `test`. */
  waitDiagnostics(u: string, test: (d: Diagnostic[]) => boolean = () => true, version?: number): Promise<PublishDiagnosticsParams> {
    return this.wait<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (p) => p.uri === u && (version === undefined || p.version === version) && test(p.diagnostics));
  }

  request<T = any>(method: string, params: unknown, timeoutMs = 5000): Promise<T> {
    return Promise.race([
      this.conn.sendRequest(method, params) as Promise<T>,
      new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`request ${method} timed out`)), timeoutMs).unref()),
    ]);
  }

  /** A request the test may cancel ($/cancelRequest), for one the server may hold open (a long poll); no timeout. */
  cancellable<T = any>(method: string, params: unknown): { result: Promise<T>; cancel: () => void } {
    const source = new CancellationTokenSource();
    return { result: this.conn.sendRequest(method, params, source.token) as Promise<T>, cancel: () => source.cancel() };
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.conn.sendNotification(method, params);
  }

  async initialize(folders: string[], capabilities: ClientCapabilities = {}, initializationOptions: unknown = { debounceMs: 0 }): Promise<InitializeResult> {
    const r = await this.request<InitializeResult>('initialize', {
      processId: process.pid,
      rootUri: folders[0] ? uri(folders[0]) : null,
      workspaceFolders: folders.map((f) => ({ uri: uri(f), name: f })),
      capabilities,
      initializationOptions,
    });
    await this.notify('initialized', {});
    return r;
  }

  open(path: string, text: string, languageId = 'plaintext'): string {
    const u = uri(path);
    this.versions.set(u, 1);
    void this.notify('textDocument/didOpen', { textDocument: { uri: u, languageId, version: 1, text } });
    return u;
  }

  /** An incremental change; returns the new version. */
  change(u: string, changes: { range?: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string }[]): number {
    const v = (this.versions.get(u) ?? 1) + 1;
    this.versions.set(u, v);
    void this.notify('textDocument/didChange', { textDocument: { uri: u, version: v }, contentChanges: changes });
    return v;
  }

  async close(): Promise<void> {
    if (this.exited) return;
    try {
      await this.request('shutdown', null, 2000);
      await this.notify('exit', null);
    } catch {
      /* killed below */
    }
    const gone = new Promise<void>((r) => (this.exited ? r() : this.proc.once('exit', () => r())));
    const t = setTimeout(() => this.proc.kill(), 2000);
    await gone;
    clearTimeout(t);
    this.conn.dispose();
  }
}

/** Position of the first occurrence of `needle` in `text` (plus `offset` characters). */
export function positionOf(text: string, needle: string, offset = 0): { line: number; character: number } {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`"${needle}" not found`);
  const before = text.slice(0, i + offset);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

/** Applies LSP text edits to a text (end to start). */
export function applyEdits(text: string, edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]): string {
  const offset = (p: { line: number; character: number }) => {
    const lines = text.split('\n');
    let o = 0;
    for (let i = 0; i < p.line; i++) o += lines[i].length + 1;
    return o + p.character;
  };
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}
