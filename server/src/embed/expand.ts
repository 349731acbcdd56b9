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
  for (let payload = queue.shift(); payload; payload = queue.shift()) {
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
      continue;
    }
    // A template that breaks the file's syntax would be a page of false errors; one that does not is read as the
    // same file on disk is (config-placeholder reports placeholder values).
    const marker = kind && (YAML_KINDS.has(kind) ? YAML_TEMPLATE_MARKER : TEMPLATE_MARKER).test(payload.text);
    if (marker && unreadable(deps.parse(src, kind))) {
      note('it holds template expressions, which are read only once the file is rendered');
      continue;
    }
    // cloud-init writes the entries in order: of two for one path, the last one is the file.
    const earlier = out.sources.findIndex((s) => s.path === path);
    if (earlier >= 0) out.sources.splice(earlier, 1);
    out.sources.push(src);
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
  const out: Payload = { ...inner, target, map: { host: o.host, offsets, encode }, span: rangeToHost(outer, inner.span), ...(template && { template }), ...(instanceTypes && { instanceTypes }) };
  if (outer.quiet || quiet) out.quiet = [...(outer.quiet ?? []), ...(quiet ?? [])];
  return out;
}
