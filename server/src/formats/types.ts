/**
 * What the rest of the system needs to know about one file format. Each format is one module in this folder
 * (formats/<kind>.ts) and one line in formats/index.ts; nothing else lists formats by hand.
 */
import type { Finding } from '../model/finding.ts';
import type { ParsedFile } from '../node/parse-files.ts';

/** A file as recognition sees it: its name split up, and the first 64 KiB of its text. */
export interface Candidate {
  path: string;
  /** File name, as written and lower-cased. */
  name: string;
  lower: string;
  /** Name of the folder holding the file. */
  dir: string;
  /** Lower-cased extension without the dot ('' when none). */
  ext: string;
  head: string;
}

/** What a format's parser adds to a ParsedFile. */
export type ParsedBody = Partial<Pick<ParsedFile, 'unit' | 'env' | 'config' | 'runtime' | 'embedded' | 'instanceTypes' | 'versions'>> & { problems: readonly Finding[] };

/**
 * How kubelet-lint comments (suppressions and modelines) are written in the format: `line` for a whole-line
 * `# kubelet-lint ...`, `trailing` when one may also end a line, `none` when the format has no comments (JSON).
 */
export type CommentStyle = 'none' | 'line' | 'trailing';

/**
 * How a file of the format becomes part of a node: `anchor` files (units, drop-ins) start one; `standalone` files
 * are a node of their own when no other file claims them by reference, tried in `order` (lowest first); `runtime`
 * files attach to the node they sit beside; `carrier` files hold other files (embedded regions) and join nothing
 * themselves.
 */
export type Join = { kind: 'anchor' } | { kind: 'standalone'; order: number } | { kind: 'runtime' } | { kind: 'carrier' };

export interface Format<K extends string = string> {
  kind: K;
  /** A few words for messages and docs. */
  label: string;
  /**
   * Recognition. `byPath` decides from the name alone; `byContent` looks at the text too. The detector tries
   * every format's byPath in registration order, then every byContent: the first that says yes wins.
   * Regular expressions here run on untrusted text up to 64 KiB: anchor lines with `^[ \t]*`, never `^\s*`
   * (with the m flag that is quadratic over a run of blank lines), and use no nested quantifiers.
   */
  byPath?(c: Candidate): boolean;
  byContent?(c: Candidate): boolean;
  parse(path: string, text: string, opts?: { fragment?: boolean }): ParsedBody;
  comments(parsed: ParsedFile): CommentStyle;
  join: Join;
  /**
   * For a carrier: rule ids whose findings about its payloads are not reported, because the tool the carrier
   * configures supplies what the rule misses (Karpenter's AMI bootstrap computes kube-reserved).
   */
  quietInPayloads?: readonly string[];
  /** A fix that deletes text must not fuse line ends (systemd's read_line, fixes/keep-line-ends.ts). */
  systemdLineEnds?: boolean;
  /** Globs the language server watches on disk. */
  watch: readonly string[];
  /** Patterns of the client's document selector (files the editor sends to the server). */
  selector: readonly string[];
  /** `workspaceContains:` globs that activate the extension (package.json activationEvents). */
  activation: readonly string[];
}

export function defineFormat<K extends string>(f: Format<K>): Format<K> {
  return f;
}
