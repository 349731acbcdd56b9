/**
 * Container runtime configs -> the cgroup driver of the runtime the kubelet's pods use.
 *
 * containerd: config.toml (version 1, 2 and 3 layouts), the default runtime
 *   (`default_runtime_name`, "runc" when unset) and its `options.SystemdCgroup`
 *   (default false = cgroupfs). The legacy CRI `systemd_cgroup` only affects the
 *   old io.containerd.runtime.v1.linux shim.
 * Docker: daemon.json `exec-opts` `native.cgroupdriver=...` (default cgroupfs).
 * CRI-O: `[crio.runtime] cgroup_manager` (default systemd).
 *
 * smol-toml validates and decodes TOML but gives no positions; `locateToml`
 * finds keys and values by one linear scan that tracks `[table]` headers,
 * quoted/dotted keys, inline tables, arrays and multi-line strings.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { LineIndex } from '../model/range.ts';
import type { Span } from '../model/range.ts';
import { finding } from '../model/finding.ts';
import type { Finding } from '../model/finding.ts';
import type { MapNode, RuntimeCgroupDriver, RuntimeConfigParse } from './types.ts';
import { parseJsonText } from './json.ts';
import { getEntry } from './types.ts';

// ---------------------------------------------------------------------------
// TOML key locator

export interface TomlLocation {
  /** Offsets of the key as written (the last segment of a dotted key). */
  keyStart: number;
  keyEnd: number;
  /** Offsets of the value as written (quotes included). */
  valueStart: number;
  valueEnd: number;
}

/** Path segments joined with this separator are the keys of the map `locateToml` returns. */
export const TOML_PATH_SEP = '\u0000';

/**
 * Find every `key = value` of a TOML text by its full path (table header +
 * dotted key, quotes removed), in one pass. Array-of-tables entries `[[x]]`
 * are located under path `x` (later entries replace earlier ones). Never
 * throws; on text smol-toml rejects it still returns what it found.
 */
export function locateToml(text: string): Map<string, TomlLocation> {
  const out = new Map<string, TomlLocation>();
  const n = text.length;
  let i = 0;
  let table: string[] = [];

  const isWs = (c: number) => c === 32 || c === 9;
  const skipWs = () => { while (i < n && isWs(text.charCodeAt(i))) i++; };
  const skipToEol = () => { while (i < n && text.charCodeAt(i) !== 10) i++; };
  const skipWsNlComments = () => {
    for (;;) {
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === 32 || c === 9 || c === 10 || c === 13) i++;
        else break;
      }
      if (i < n && text.charCodeAt(i) === 35 /* # */) { skipToEol(); continue; }
      return;
    }
  };

  /** One key segment: bare, "basic" or 'literal'. */
  const readKeySeg = (): { key: string; s: number; e: number } | undefined => {
    skipWs();
    const s = i;
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      let key = '';
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */ && i + 1 < n) {
          const e = text[i + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', b: '\b', f: '\f', e: '\x1b' };
          if (e === 'u' || e === 'U') {
            const len = e === 'u' ? 4 : 8;
            key += String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + len), 16) || 0);
            i += 2 + len;
          } else {
            key += map[e] ?? e;
            i += 2;
          }
          continue;
        }
        if (d === 34 || d === 10) { i++; break; }
        key += text[i];
        i++;
      }
      return { key, s, e: i };
    }
    if (c === 39 /* ' */) {
      const end = text.indexOf("'", i + 1);
      const nl = text.indexOf('\n', i + 1);
      const stop = end < 0 || (nl >= 0 && nl < end) ? (nl < 0 ? n : nl) : end;
      const key = text.slice(i + 1, stop);
      i = Math.min(n, stop + 1);
      return { key, s, e: i };
    }
    while (i < n) {
      const d = text.charCodeAt(i);
      if ((d >= 48 && d <= 57) || (d >= 65 && d <= 90) || (d >= 97 && d <= 122) || d === 95 || d === 45) i++;
      else break;
    }
    if (i === s) return undefined;
    return { key: text.slice(s, i), s, e: i };
  };

  /** Dotted key; stops before `=` or `]`. */
  const readKey = (): { path: string[]; s: number; e: number } | undefined => {
    const path: string[] = [];
    let s = -1;
    let e = -1;
    for (;;) {
      const seg = readKeySeg();
      if (!seg) return path.length ? { path, s, e } : undefined;
      path.push(seg.key);
      s = seg.s;
      e = seg.e;
      skipWs();
      if (text.charCodeAt(i) === 46 /* . */) { i++; continue; }
      return { path, s, e };
    }
  };

  const record = (path: string[], ks: number, ke: number, vs: number, ve: number) => {
    out.set(path.join(TOML_PATH_SEP), { keyStart: ks, keyEnd: ke, valueStart: vs, valueEnd: ve });
  };

  /** Skip a string starting at i (any of the four kinds). */
  const skipString = () => {
    const q = text[i];
    if (text.startsWith(q + q + q, i)) {
      const end = text.indexOf(q + q + q, i + 3);
      i = end < 0 ? n : end + 3;
      while (i < n && text[i] === q) i++; // up to two extra quotes belong to the content
      return;
    }
    i++;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (q === '"' && d === 92) { i += 2; continue; }
      if (d === 10) return;
      i++;
      if (text[i - 1] === q) return;
    }
  };

  /** Read a value at i; record inline-table members under `path`. Iterative for arrays beyond a small depth. */
  const readValue = (path: string[], depth: number): void => {
    const c = text[i];
    if (c === '"' || c === "'") { skipString(); return; }
    if (c === '[' || c === '{') {
      if (depth > 50) { skipBracketed(); return; }
      if (c === '[') {
        i++;
        for (;;) {
          skipWsNlComments();
          if (i >= n) return;
          const d = text[i];
          if (d === ']') { i++; return; }
          if (d === ',') { i++; continue; }
          const before = i;
          readValue([], depth + 1);
          if (i === before) i++;
        }
      }
      i++;
      for (;;) {
        skipWsNlComments();
        if (i >= n) return;
        const d = text[i];
        if (d === '}') { i++; return; }
        if (d === ',') { i++; continue; }
        const before = i;
        const k = readKey();
        if (!k) { if (i === before) i++; continue; }
        skipWs();
        if (text[i] === '=') i++;
        skipWs();
        const vs = i;
        const full = [...path, ...k.path];
        readValue(full, depth + 1);
        record(full, k.s, k.e, vs, trimEnd(vs, i));
      }
    }
    // scalar: number, bool, date-time (may hold one space)
    while (i < n) {
      const d = text[i];
      if (d === ',' || d === ']' || d === '}' || d === '#' || d === '\n' || d === '\r') break;
      i++;
    }
  };

  const trimEnd = (s: number, e: number): number => {
    while (e > s && /\s/.test(text[e - 1])) e--;
    return e;
  };

  /** Skip a nested [...] / {...} without recursion (hostile nesting). */
  const skipBracketed = () => {
    let depth = 0;
    while (i < n) {
      const d = text[i];
      if (d === '"' || d === "'") { skipString(); continue; }
      if (d === '#') { skipToEol(); continue; }
      if (d === '[' || d === '{') depth++;
      else if (d === ']' || d === '}') { depth--; if (depth === 0) { i++; return; } }
      i++;
    }
  };

  while (i < n) {
    skipWsNlComments();
    if (i >= n) break;
    const c = text[i];
    const lineStart = i;
    if (c === '[') {
      const arr = text[i + 1] === '[';
      i += arr ? 2 : 1;
      const k = readKey();
      table = k ? k.path : [];
      skipToEol();
      continue;
    }
    const k = readKey();
    if (!k) { skipToEol(); if (i === lineStart) i++; continue; }
    skipWs();
    if (text[i] !== '=') { skipToEol(); continue; }
    i++;
    skipWs();
    const vs = i;
    const full = [...table, ...k.path];
    readValue(full, 0);
    record(full, k.s, k.e, vs, trimEnd(vs, i));
    skipToEol();
  }
  return out;
}

// ---------------------------------------------------------------------------
// shared helpers

type Tbl = Record<string, unknown>;
const isTbl = (v: unknown): v is Tbl => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
const sub = (t: unknown, ...keys: string[]): unknown => {
  let cur: unknown = t;
  for (const k of keys) {
    if (!isTbl(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
};

function tomlSyntax(path: string, text: string, lines: LineIndex, e: unknown, what: string): Finding {
  if (e instanceof TomlError) {
    const line = Math.max(0, (e.line ?? 1) - 1);
    const col = Math.max(0, (e.column ?? 1) - 1);
    const first = String(e.message).split('\n')[0].replace(/^Invalid TOML document:\s*/i, '');
    const lineLen = line < lines.lineCount ? lines.lineText(line).length : 0;
    return finding('runtime-config-invalid', 'error', { file: path, range: { start: { line, character: col }, end: { line, character: Math.max(col, lineLen) } } },
      `Invalid TOML: ${first}. ${what} refuses to start with a config file it cannot parse.`);
  }
  return finding('runtime-config-invalid', 'error', { file: path, range: lines.range(0, 0) }, `Invalid TOML: ${(e as Error)?.message ?? String(e)}. ${what} refuses to start with a config file it cannot parse.`);
}

function firstLineSpan(path: string, lines: LineIndex): Span {
  return { file: path, range: { start: { line: 0, character: 0 }, end: { line: 0, character: lines.lineText(0).length } } };
}

function tomlHeader(path: string[]): string {
  return path.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : `"${p}"`)).join('.');
}

// ---------------------------------------------------------------------------
// containerd

/**
 * containerd config.toml. Version 3 (containerd 2.x): plugin
 * `io.containerd.cri.v1.runtime`; version 2: `io.containerd.grpc.v1.cri`;
 * version 1 (no `version`): `cri`. The default runtime is
 * `containerd.default_runtime_name` ("runc" when unset) and its cgroup driver
 * is `containerd.runtimes.<name>.options.SystemdCgroup` (false when unset).
 */
export function parseContainerdConfig(path: string, text: string): RuntimeConfigParse {
  const lines = new LineIndex(text);
  const out: RuntimeConfigParse = { path, runtime: 'containerd', problems: [] };
  let doc: Tbl;
  try {
    doc = parseToml(text) as Tbl;
  } catch (e) {
    out.problems.push(tomlSyntax(path, text, lines, e, 'containerd'));
    return out;
  }
  const loc = locateToml(text);
  const valueAt = (p: string[]): Span | undefined => {
    const l = loc.get(p.join(TOML_PATH_SEP));
    return l ? { file: path, range: lines.range(l.valueStart, l.valueEnd) } : undefined;
  };
  const where = (p: string[]): Span | undefined => {
    const l = loc.get(p.join(TOML_PATH_SEP));
    return l ? { file: path, range: lines.range(l.keyStart, l.valueEnd) } : undefined;
  };
  const version = typeof doc.version === 'number' ? doc.version : typeof doc.version === 'bigint' ? Number(doc.version) : 1;
  const plugin = version >= 3 ? 'io.containerd.cri.v1.runtime' : version === 2 ? 'io.containerd.grpc.v1.cri' : 'cri';
  const base = ['plugins', plugin, 'containerd'];
  const dr = sub(doc, ...base, 'default_runtime_name');
  const runtimeName = typeof dr === 'string' && dr !== '' ? dr : 'runc';
  const rtPath = [...base, 'runtimes', runtimeName];
  const optPath = [...rtPath, 'options', 'SystemdCgroup'];
  const v = sub(doc, ...optPath);
  const rtType = sub(doc, ...rtPath, 'runtime_type');
  const header = `[${tomlHeader(rtPath)}.options]`;
  const defaultNote = runtimeName === 'runc' && typeof dr !== 'string' ? ' (default_runtime_name unset, so runc)' : ` (default_runtime_name = "${runtimeName}")`;

  // Legacy: systemd_cgroup in the CRI plugin table applies only to the v1 linux shim.
  const legacyPath = ['plugins', plugin, 'systemd_cgroup'];
  const legacy = version < 3 ? sub(doc, ...legacyPath) : undefined;
  const legacyShim = rtType === 'io.containerd.runtime.v1.linux' || (rtType === undefined && version === 1 && sub(doc, ...rtPath) === undefined);
  if (legacyShim && typeof legacy === 'boolean') {
    out.cgroupDriver = {
      path, runtime: 'containerd', driver: legacy ? 'systemd' : 'cgroupfs', explicit: true,
      span: where(legacyPath) ?? firstLineSpan(path, lines),
      ...withValue(valueAt(legacyPath), 'toml-bool'),
      detail: `systemd_cgroup = ${legacy} in [${tomlHeader(['plugins', plugin])}] (legacy setting of the io.containerd.runtime.v1.linux shim used by the default runtime "${runtimeName}")`,
    };
    return out;
  }
  if (v === undefined) {
    out.cgroupDriver = {
      path, runtime: 'containerd', driver: 'cgroupfs', explicit: false,
      span: firstLineSpan(path, lines),
      detail: `SystemdCgroup is not set for the default runtime "${runtimeName}"${defaultNote}: containerd defaults to SystemdCgroup = false, i.e. cgroupfs (setting: SystemdCgroup in ${header})` +
        (typeof legacy === 'boolean' ? `; systemd_cgroup = ${legacy} in [${tomlHeader(['plugins', plugin])}] is ignored for runtime_type ${String(rtType ?? 'io.containerd.runc.v2')}` : ''),
    };
    return out;
  }
  const span = where(optPath) ?? firstLineSpan(path, lines);
  if (typeof v !== 'boolean') {
    out.problems.push(finding('runtime-config-invalid', 'error', span, `SystemdCgroup must be a boolean, not ${JSON.stringify(v)}. Write true or false without quotes; containerd fails to load the CRI runtime options.`));
  }
  const on = v === true;
  out.cgroupDriver = {
    path, runtime: 'containerd', driver: on ? 'systemd' : 'cgroupfs', explicit: true, span,
    ...(typeof v === 'boolean' ? withValue(valueAt(optPath), 'toml-bool') : {}),
    detail: `SystemdCgroup = ${typeof v === 'boolean' ? v : JSON.stringify(v)} in ${header}, the default runtime${defaultNote}`,
  };
  return out;
}

// ---------------------------------------------------------------------------
// Docker

/**
 * /etc/docker/daemon.json: `"exec-opts": ["native.cgroupdriver=systemd"]`.
 * dockerd takes the first exec-opt whose key equals native.cgroupdriver
 * (case-insensitively); default cgroupfs (systemd on cgroup v2 hosts since Docker 20.10).
 */
export function parseDockerDaemonJson(path: string, text: string): RuntimeConfigParse {
  const out: RuntimeConfigParse = { path, runtime: 'docker', problems: [] };
  const r = parseJsonText(path, text);
  const lines = r.lines;
  for (const p of r.problems) {
    out.problems.push({ ...p, code: 'runtime-config-invalid', message: `${p.message} dockerd refuses to start with an invalid daemon.json ("unable to configure the Docker daemon with file ...").` });
  }
  if (r.problems.length || !r.root) return out;
  if (r.root.kind !== 'map') {
    out.problems.push(finding('runtime-config-invalid', 'error', r.root.span, 'daemon.json must hold a JSON object; dockerd refuses to start.'));
    return out;
  }
  const root: MapNode = r.root;
  const eo = getEntry(root, 'exec-opts');
  if (eo && eo.value.kind === 'seq') {
    for (const it of eo.value.items) {
      if (it.kind !== 'scalar' || typeof it.value !== 'string') continue;
      const eq = it.value.indexOf('=');
      if (eq < 0) continue;
      const key = it.value.slice(0, eq).trim();
      const val = it.value.slice(eq + 1).trim();
      if (key.toLowerCase() !== 'native.cgroupdriver') continue;
      if (val !== 'systemd' && val !== 'cgroupfs') {
        out.problems.push(finding('runtime-config-invalid', 'error', it.span, `native.cgroupdriver=${val} is not supported: dockerd accepts only systemd or cgroupfs and refuses to start ("native.cgroupdriver option ${val} not supported").`));
        return out;
      }
      out.cgroupDriver = {
        path, runtime: 'docker', driver: val, explicit: true, span: it.span,
        // the whole "native.cgroupdriver=..." string, when it is written plainly (no escapes)
        ...(it.source === it.value ? withValue(it.span, 'json-exec-opt') : {}),
        detail: `"exec-opts": ["${it.value}"] in daemon.json`,
      };
      return out;
    }
  } else if (eo && !(eo.value.kind === 'scalar' && eo.value.value === null)) {
    out.problems.push(finding('runtime-config-invalid', 'error', eo.value.span, '"exec-opts" must be a list of strings such as "native.cgroupdriver=systemd"; dockerd refuses to start.'));
  }
  out.cgroupDriver = {
    path, runtime: 'docker', driver: 'cgroupfs', explicit: false, span: firstLineSpan(path, lines),
    detail: 'no "exec-opts": ["native.cgroupdriver=..."] in daemon.json: dockerd defaults to cgroupfs (on cgroup v2 hosts Docker 20.10+ defaults to systemd)',
  };
  return out;
}

// ---------------------------------------------------------------------------
// CRI-O

/**
 * crio.conf or a crio.conf.d drop-in: `[crio.runtime] cgroup_manager`
 * ("systemd" by default). For drop-ins the caller merges files in order; a
 * file that does not set it reports the default with explicit: false.
 */
export function parseCrioConfig(path: string, text: string): RuntimeConfigParse {
  const lines = new LineIndex(text);
  const out: RuntimeConfigParse = { path, runtime: 'crio', problems: [] };
  let doc: Tbl;
  try {
    doc = parseToml(text) as Tbl;
  } catch (e) {
    out.problems.push(tomlSyntax(path, text, lines, e, 'CRI-O'));
    return out;
  }
  const p = ['crio', 'runtime', 'cgroup_manager'];
  const v = sub(doc, ...p);
  if (v === undefined) {
    out.cgroupDriver = {
      path, runtime: 'crio', driver: 'systemd', explicit: false, span: firstLineSpan(path, lines),
      detail: 'cgroup_manager is not set in [crio.runtime]: CRI-O defaults to systemd',
    };
    return out;
  }
  const l = locateToml(text).get(p.join(TOML_PATH_SEP));
  const span: Span = l ? { file: path, range: lines.range(l.keyStart, l.valueEnd) } : firstLineSpan(path, lines);
  if (v !== 'systemd' && v !== 'cgroupfs') {
    out.problems.push(finding('runtime-config-invalid', 'error', span, `cgroup_manager = ${JSON.stringify(v)} is not valid: CRI-O accepts "systemd" or "cgroupfs" and refuses to start otherwise.`));
    return out;
  }
  out.cgroupDriver = {
    path, runtime: 'crio', driver: v, explicit: true, span,
    ...withValue(l ? { file: path, range: lines.range(l.valueStart, l.valueEnd) } : undefined, 'toml-string'),
    detail: `cgroup_manager = "${v}" in [crio.runtime]`,
  };
  return out;
}

function withValue(span: Span | undefined, form: NonNullable<RuntimeCgroupDriver['value']>['form']): Pick<RuntimeCgroupDriver, 'value'> {
  return span ? { value: { span, form } } : {};
}
