/**
 * A carrier's payloads as workspace files (see payload.ts). Payloads that cannot be checked (an encoding, or
 * template expressions that keep the parser from reading them) are left out with one information finding each,
 * when they look like kubelet files.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { FileKind, SourceFile } from '../model/source.ts';

/** What expansion needs of a parsed file (formats/types.ts ParsedFile is one). */
interface ParsedFile {
  readonly path: string;
  readonly kind: FileKind;
  readonly embedded?: Payload[];
  readonly problems: readonly Finding[];
}
import { payloadPath, payloadOffset, type Payload } from './payload.ts';
import { rangeToHost } from './to-host.ts';
import { TEMPLATE_MARKER, YAML_TEMPLATE_MARKER } from './template.ts';

export interface Expansion {
  sources: SourceFile[];
  /** Payload by its workspace path. */
  payloads: Map<string, { host: string; payload: Payload }>;
  notes: Finding[];
  /** Files a carrier writes that were seen but not read, by workspace path: why, and where (issue #37). */
  unread: Map<string, { why: string; span: Finding['range']; host: string }>;
}

export interface ExpandDeps {
  detect(path: string, text: string): FileKind | undefined;
  parse(src: SourceFile, kind: FileKind): ParsedFile;
  /** Files of this kind hold files (a script written by a cloud-config). */
  isCarrier(kind: FileKind): boolean;
  /** Rule ids a carrier of this kind keeps quiet about its payloads (Format.quietInPayloads). */
  quiet(kind: FileKind): readonly string[] | undefined;
}

/** The parser could not read all of it: an error, or a line it skips (unit-syntax, envfile-syntax, ...). */
const unreadable = (p: ParsedFile) => p.problems.some((x) => x.severity === 'error' || x.code.endsWith('-syntax'));

const YAML_KINDS: ReadonlySet<string> = new Set(['kubelet-config', 'kubeadm-config']);

export function expandCarrier(host: ParsedFile, deps: ExpandDeps, out: Expansion): void {
  const queue = [...(host.embedded ?? [])];
  // Where each of this carrier's paths is in out.sources (every path starts with the carrier's, so no other carrier's
  // source shares it): a stream of 20,000 documents searched the list once per payload.
  const at = new Map<string, number>();
  for (let next = 0; next < queue.length; next++) {
    const payload = queue[next];
    const path = payloadPath(host.path, payload.target);
    const src = { path, text: payload.text };
    const kind = payload.kind ?? deps.detect(path, payload.text);
    // A carrier written by a carrier (a script in write_files): its files are files of the same machine.
    if (kind && deps.isCarrier(kind) && !payload.unchecked) {
      const parsed = deps.parse(src, kind);
      const quiet = deps.quiet(kind);
      for (const inner of parsed.embedded ?? []) queue.push(nestedOnce(payload, inner, quiet));
      // What keeps the inner carrier from being read (a cloud-config part that is no YAML) is said in the outer file.
      for (const p of parsed.problems) out.notes.push(finding(p.code, p.severity, { file: host.path, range: rangeToHost(payload, p.range) }, p.message));
      continue;
    }
    const note = (why: string) =>
      out.notes.push(finding('payload-not-checked', 'information', { file: host.path, range: payload.span }, `${payload.target} is not checked: ${why}.`));
    if (payload.unchecked) {
      if (kind || /kubelet|kubeadm|systemd/.test(payload.target)) note(payload.unchecked);
      out.unread.set(path, { why: payload.unchecked, span: payload.span, host: host.path });
      continue;
    }
    // A template that breaks the file's syntax would be a page of false errors; one that does not is read as the
    // same file on disk is (config-placeholder reports placeholder values).
    const marker = kind && (YAML_KINDS.has(kind) ? YAML_TEMPLATE_MARKER : TEMPLATE_MARKER).test(payload.text);
    if (marker && unreadable(deps.parse(src, kind))) {
      const why = 'it holds template expressions, which are read only once the file is rendered';
      note(why);
      out.unread.set(path, { why, span: payload.span, host: host.path });
      continue;
    }
    // cloud-init writes the entries in order: of two for one path, the last one is the file.
    const earlier = at.get(path);
    out.unread.delete(path);
    if (earlier !== undefined) out.sources[earlier] = src;
    else {
      at.set(path, out.sources.length);
      out.sources.push(src);
    }
    out.payloads.set(path, { host: host.path, payload });
  }
}

/**
 * nested(), made once per pair of payload objects: a carrier parsed again after a keystroke elsewhere hands out the
 * same payload objects for its unchanged parts (formats/yaml-stream.ts), and the same nested payload keeps what was
 * computed from it. (`quiet` is the inner carrier's format's, the same for the same payload.)
 */
const NESTED = new WeakMap<Payload, WeakMap<Payload, Payload>>();
function nestedOnce(outer: Payload, inner: Payload, quiet: readonly string[] | undefined): Payload {
  let byInner = NESTED.get(outer);
  if (!byInner) NESTED.set(outer, (byInner = new WeakMap()));
  let out = byInner.get(inner);
  if (!out) byInner.set(inner, (out = nested(outer, inner, quiet)));
  return out;
}

/** A payload of a payload, mapped straight to the outer carrier: offsets composed, text encoded for both. */
function nested(outer: Payload, inner: Payload, quiet: readonly string[] | undefined): Payload {
  const o = outer.map;
  const offsets = inner.map.offsets.map((i) => o.offsets[Math.min(i, o.offsets.length - 1)]);
  const encode = (text: string, at: number) => {
    const t = inner.map.encode(text, payloadOffset(o, at) ?? 0);
    return t === undefined ? undefined : o.encode(t, at);
  };
  const template = inner.template || outer.template;
  const instanceTypes = inner.instanceTypes ?? outer.instanceTypes;
  const target = outer.ownRoot ? outer.target.replace(/\.ya?ml$/, '') + inner.target : inner.target;
  // A line either carrier would read as its own syntax (a heredoc delimiter in a script of a MIME part, a boundary).
  const refuses = [inner.map.refusesLine, o.refusesLine].filter((f): f is (l: string) => boolean => f !== undefined);
  const map = { host: o.host, offsets, encode, ...(refuses.length && { refusesLine: (l: string) => refuses.some((f) => f(l)) }) };
  const out: Payload = { ...inner, target, map, span: rangeToHost(outer, inner.span), ...(template && { template }), ...(instanceTypes && { instanceTypes }) };
  if (outer.quiet || quiet) out.quiet = [...(outer.quiet ?? []), ...(quiet ?? [])];
  return out;
}
