// A minimal LSP client over stdio (Content-Length framing, JSON-RPC 2.0), kept
// small so that the client adds as little as possible to the measured latency.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SHIPPED = JSON.parse(readFileSync(fileURLToPath(new URL('../client/server-node-flags.json', import.meta.url)), 'utf8'));
/** The node flags and environment variables the extension starts the server with: the bench measures the server as shipped. */
export const SHIPPED_NODE_FLAGS = SHIPPED.flags;
export const SHIPPED_ENV = SHIPPED.env ?? {};

export const fileUri = (p) => pathToFileURL(p).href;

export class LspServer {
  constructor(serverPath, { settings = {}, args = ['--stdio'], nodeArgs = [] } = {}) {
    this.settings = settings;
    this.nextId = 1;
    this.pending = new Map();
    this.diagWaiters = [];
    this.latestDiag = new Map(); // uri -> version of the latest publishDiagnostics
    this.stderr = [];
    this.exited = false;
    this.buf = Buffer.alloc(0);
    // BENCH_SERVER_NODE_ARGS: node flags for the server instead of the shipped ones, for experiments
    // (e.g. "--max-semi-space-size=1 --single-threaded"; "-" for none).
    const env = process.env.BENCH_SERVER_NODE_ARGS;
    const flags = env === undefined ? SHIPPED_NODE_FLAGS : env.split(' ').filter((x) => x && x !== '-');
    // BENCH_SERVER_ENV=-: without the shipped environment variables, for experiments.
    const extraEnv = process.env.BENCH_SERVER_ENV === '-' ? {} : SHIPPED_ENV;
    this.proc = spawn(process.execPath, [...flags, ...nodeArgs, serverPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...extraEnv } });
    this.exitPromise = new Promise((r) => this.proc.once('exit', (code, signal) => { this.exited = true; this.exitInfo = { code, signal }; r(); }));
    this.proc.stderr.on('data', (d) => this.stderr.push(String(d)));
    this.proc.stdout.on('data', (d) => this.onData(d));
    this.proc.stdin.on('error', () => undefined);
    this.exitPromise.then(() => {
      for (const [, p] of this.pending) p.reject(new Error(`server exited (${JSON.stringify(this.exitInfo)}): ${this.stderr.join('').slice(-500)}`));
      this.pending.clear();
      for (const w of this.diagWaiters) w.reject(new Error('server exited'));
      this.diagWaiters = [];
    });
  }

  get pid() {
    return this.proc.pid;
  }

  /** Resident set size of the server process in bytes (/proc/<pid>/status VmRSS). */
  rss() {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${this.proc.pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  }

  /** CPU time the server process has used, user and system, in ms (/proc/<pid>/stat; NaN elsewhere). */
  cpuMs() {
    try {
      const fields = readFileSync(`/proc/${this.proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return NaN;
    }
  }

  /** Full GC in the server (only when started with the gc hook), then RSS in bytes. */
  async rssAfterGc(settleMs = 150) {
    const seen = this.stderr.length;
    this.proc.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, settleMs));
    const line = this.stderr.slice(seen).join('').split('\n').find((l) => l.startsWith('kubelet-bench-memory '));
    this.lastHeap = line ? JSON.parse(line.slice('kubelet-bench-memory '.length)) : undefined;
    return this.rss();
  }

  onData(chunk) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      const headerEnd = this.buf.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const m = /Content-Length:\s*(\d+)/i.exec(this.buf.subarray(0, headerEnd).toString('ascii'));
      if (!m) throw new Error('bad LSP header');
      const len = Number(m[1]);
      if (this.buf.length < headerEnd + 4 + len) return;
      const body = this.buf.subarray(headerEnd + 4, headerEnd + 4 + len).toString('utf8');
      this.buf = this.buf.subarray(headerEnd + 4 + len);
      this.onMessage(JSON.parse(body));
    }
  }

  onMessage(msg) {
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
      return;
    }
    if (msg.id !== undefined) {
      // A request from the server.
      let result = null;
      if (msg.method === 'workspace/configuration') result = (msg.params?.items ?? [{}]).map(() => this.settings);
      this.write({ jsonrpc: '2.0', id: msg.id, result });
      return;
    }
    if (msg.method === 'textDocument/publishDiagnostics') {
      const { uri, version } = msg.params;
      this.latestDiag.set(uri, version);
      this.lastDiagnostics = msg.params;
      this.diagWaiters = this.diagWaiters.filter((w) => {
        if (w.uri === uri && (w.version === undefined || version === w.version)) {
          w.resolve(msg.params);
          return false;
        }
        return true;
      });
    }
  }

  write(msg) {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    this.proc.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  request(method, params, timeoutMs = 10000) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(`server exited before ${method}`));
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms; stderr: ${this.stderr.join('').slice(-500)}`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (r) => { clearTimeout(timer); resolve(r); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Resolves on the publishDiagnostics of `uri` for `version` (any version when undefined). */
  waitDiagnostics(uri, version, timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.diagWaiters = this.diagWaiters.filter((x) => x !== w);
        reject(new Error(`no diagnostics for ${uri} v${version} within ${timeoutMs} ms`));
      }, timeoutMs);
      const w = { uri, version, resolve: (p) => { clearTimeout(timer); resolve(p); }, reject: (e) => { clearTimeout(timer); reject(e); } };
      this.diagWaiters.push(w);
    });
  }

  async initialize({ rootPath = null, initializationOptions = { debounceMs: 0 }, capabilities = {} } = {}) {
    const result = await this.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'kubelet-bench' },
      rootUri: rootPath ? fileUri(rootPath) : null,
      workspaceFolders: rootPath ? [{ uri: fileUri(rootPath), name: 'bench' }] : null,
      capabilities,
      initializationOptions,
    });
    this.notify('initialized', {});
    return result;
  }

  async close() {
    if (this.exited) return;
    const kill = setTimeout(() => this.proc.kill('SIGKILL'), 2000);
    try {
      await this.request('shutdown', null, 2000);
      this.notify('exit', null);
    } catch {
      this.proc.kill('SIGKILL');
    }
    await this.exitPromise;
    clearTimeout(kill);
  }
}
