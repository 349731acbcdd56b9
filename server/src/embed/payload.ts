/**
 * Embedded documents: a carrier file (a cloud-init #cloud-config, later Butane, Ignition, MIME user data, ...)
 * yields payloads, regions of its text that are themselves a unit, a drop-in, an env file or a
 * KubeletConfiguration. Each payload becomes a file of the workspace at `<carrier>//<target path>`: the carrier
 * is the root of a file system, so a unit's `--config=` and `EnvironmentFile=` resolve to the payloads with
 * those paths (node/group.ts and workspace/paths.ts need no change, and `//` never occurs in a real path), and
 * findings, positions and edits are mapped back to the carrier through the payload's `map`.
 */
import type { FileKind } from '../model/source.ts';
import type { InstanceTypeMention } from '../model/mentions.ts';
import type { VersionMention } from '../model/version-mention.ts';
import type { PlatformInfo } from '../parse/types.ts';
import type { LineIndex, Position, Range, Span } from '../model/range.ts';

/** PayloadMap.encode of a carrier that holds payload text as it is (one function, not one per payload: issue #28). */
export const VERBATIM = (text: string): string => text;

/** How a payload's text sits in its carrier. */
export interface PayloadMap {
  /** The carrier's line index (shared by every payload of one carrier). */
  readonly host: LineIndex;
  /** Offset in the carrier of each payload offset, 0 ..= text.length (the last one: just after the payload). */
  readonly offsets: Int32Array;
  /**
   * `text` written for the carrier at carrier offset `at` (re-indented for a YAML block scalar, re-escaped for a
   * quoted string); undefined when the form cannot hold it (the edit is then not offered).
   */
  encode(text: string, at: number): string | undefined;
  /**
   * Set when the carrier cannot take an edit piecemeal (an Ignition base64 `data:` URL): a fix's edits are applied
   * to the payload and the whole of carrier offsets start..end is replaced by encode(edited payload).
   */
  readonly rewrite?: { start: number; end: number; encode(text: string): string };
  /**
   * Whether the carrier would read a line of the payload as its own syntax, not as payload text: a heredoc's
   * delimiter, a MIME boundary. An edit whose resulting line (the text before it on its line, what it inserts and the
   * rest of the line after it) is such a line is not offered (issue #28: the inserted text alone was checked).
   */
  refusesLine?(line: string): boolean;
}

export interface Payload {
  /** The absolute path the carrier writes the payload to (`/etc/systemd/system/kubelet.service.d/20-x.conf`). */
  target: string;
  text: string;
  /** What the payload is, when the carrier says so; otherwise recognised from `target` and `text` like a file. */
  kind?: FileKind;
  map: PayloadMap;
  /** Where the payload's value is in the carrier (for findings about the payload as a whole). */
  span: Range;
  /** Line index of `text`. */
  lines: LineIndex;
  /**
   * A carrier payload that is a machine of its own (a document of a multi-document stream), not a file of the outer
   * carrier's machine: the files it holds are named under its target, so two documents' files never share a path.
   */
  ownRoot?: boolean;
  /**
   * Rule ids not reported about this payload, set when it comes through carriers that keep them quiet
   * (Format.quietInPayloads of a Karpenter document inside a multi-document stream).
   */
  quiet?: readonly string[];
  /** Set when the payload is not analysed: why (an encoding, template expressions). */
  unchecked?: string;
  /** Instance types the carrier names for this payload's node (eksctl instanceType, kops machineType), at their place in the carrier. */
  instanceTypes?: InstanceTypeMention[];
  /** Kubernetes versions the carrier states for this payload's node (a kind node image, eksctl metadata.version), at their place in the carrier. */
  versions?: VersionMention[];
  /**
   * The platform tool that builds the kubelet's configuration from this payload, when only the carrier knows it (a
   * Karpenter spec.kubelet is a plain KubeletConfiguration fragment; Karpenter's base applies to it; a kind patch
   * merges into kind's generated KubeletConfiguration; node/platform.ts). A span without a file is the payload's start.
   */
  platform?: PlatformInfo;
  /**
   * The carrier is a template whose directives decide its lines (parse/template.ts): placeholders in the payload
   * are expected there, not forgotten (no config-placeholder).
   */
  template?: boolean;
  /**
   * Placeholders the machine fills in before the payload is read (Cluster API's cloud-init data is a Jinja template
   * cloud-init renders at boot; clusterctl substitutes `${VAR}` when it generates a cluster): a value matching this is
   * no forgotten placeholder (no config-placeholder there). Whole-value matches only.
   */
  filledOnMachine?: RegExp;
  /**
   * A talhelper node's `@file` patches (formats/talhelper.ts): files of the workspace whose documents node/build.ts
   * merges among the payload's own, in talhelper's order (node/talos-patches.ts).
   */
  patchRefs?: PatchRefs;
}

/** Files a platform merges into a payload at their places (talhelper's `@file` patches), and what they add to it. */
export interface PatchRefs {
  readonly files: readonly PatchFileRef[];
  /** Facts the merged platform information takes from the payload (PlatformInfo.facts). */
  readonly facts?: Readonly<Record<string, unknown>>;
}

/** One `@file` patch as written in the carrier. */
export interface PatchFileRef {
  /** The path after `@`, trimmed: relative to the carrier's folder unless absolute (talhelper pkg/substitute/pathsubst.go). */
  readonly path: string;
  /** The patch string in the carrier (where an unresolved reference is reported). */
  readonly span: Span;
  /** The payload line before which the file applies: the payload's documents above it come before the file's. */
  readonly line: number;
}

const SEP = '//';

/** The workspace path of a payload: `<carrier path>//<target without its leading slashes>`. */
export function payloadPath(host: string, target: string): string {
  return host + SEP + target.replace(/^\/+/, '');
}

/** The carrier path of a payload path; undefined for a file of the workspace. */
export function carrierOf(path: string): string | undefined {
  const i = path.indexOf(SEP);
  return i < 0 ? undefined : path.slice(0, i);
}

/** A payload path as people read it, `cloud-init.yaml → /etc/kubelet.conf`; any other path unchanged. */
export function readablePath(path: string): string {
  const host = carrierOf(path);
  return host === undefined ? path : `${host} → /${path.slice(host.length + SEP.length)}`;
}

/** Carrier offset of a payload offset, clamped into the payload. */
export function hostOffset(map: PayloadMap, offset: number): number {
  const o = map.offsets;
  return o[Math.max(0, Math.min(offset, o.length - 1))];
}

/** Payload offset of a carrier offset: the first payload character at or after it (undefined: outside the payload). */
export function payloadOffset(map: PayloadMap, at: number): number | undefined {
  const o = map.offsets;
  if (!ascending(o)) return scan(o, at);
  if (o.length === 0 || at < o[0] || at > o[o.length - 1]) return undefined;
  let lo = 0;
  let hi = o.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (o[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Offset of a position in a text given its line index. */
export function offsetAt(lines: LineIndex, p: Position): number {
  const start = lines.starts[Math.min(p.line, lines.starts.length - 1)] ?? 0;
  return Math.min(start + p.character, lines.text.length);
}

/** Whether a map's carrier offsets never decrease (all but a payload made of parts in another order: talhelper's). */
const ASCENDING = new WeakMap<Int32Array, boolean>();
function ascending(o: Int32Array): boolean {
  let v = ASCENDING.get(o);
  if (v === undefined) {
    v = true;
    for (let i = 1; i < o.length && v; i++) v = o[i - 1] <= o[i];
    ASCENDING.set(o, v);
  }
  return v;
}

/**
 * payloadOffset for a map whose parts are in another order than in the carrier: the first payload character written
 * at the carrier offset; else, for an offset between two characters of the payload (the indentation a block scalar
 * leaves out), the character after the narrowest such gap.
 */
function scan(o: Int32Array, at: number): number | undefined {
  for (let i = 0; i < o.length; i++) if (o[i] === at) return i;
  let best: number | undefined;
  for (let i = 1; i < o.length; i++) {
    // (No wider than an indentation: a jump from one part to the next is no place inside the payload.)
    if (o[i - 1] < at && at < o[i] && o[i] - o[i - 1] <= 64 && (best === undefined || o[i] - o[i - 1] < o[best] - o[best - 1])) best = i;
  }
  return best;
}
