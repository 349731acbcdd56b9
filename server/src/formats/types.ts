/**
 * What the rest of the system needs to know about one file format. A format is one module, in this folder (the
 * formats every node may have) or in its platform's folder (server/src/platforms/<id>/); the registry
 * (server/src/registry.ts) lists them, and nothing else lists formats by hand.
 */
import type { Finding } from '../model/finding.ts';
import type { FileKind } from '../model/source.ts';
import type { LineIndex } from '../model/range.ts';
import type { Payload, PatchRefs } from '../embed/payload.ts';
import type { InstanceTypeMention } from '../model/mentions.ts';
import type { VersionMention } from '../model/version-mention.ts';
import type { Modeline } from '../parse/modeline.ts';
import type { Suppression } from '../parse/suppressions.ts';
import type { ConfigFileParse, EnvFile, KubeadmDoc, KubeletConfigDoc, PlatformInfo, RuntimeConfigParse, UnitFile } from '../parse/types.ts';

/** A file parsed by its format's parser, with its kubelet-lint comments. */
export interface ParsedFile {
  path: string;
  kind: FileKind;
  unit?: UnitFile;
  env?: EnvFile;
  config?: ConfigFileParse;
  runtime?: RuntimeConfigParse;
  /** A carrier's payloads (embed/payload.ts). */
  embedded?: Payload[];
  /** Instance types the file names for its node (node/model.ts InstanceTypeMention). */
  instanceTypes?: InstanceTypeMention[];
  /** Kubernetes versions the file states for its node's kubelet (node/model.ts VersionMention), the first wins. */
  versions?: VersionMention[];
  /** The platform that writes the kubelet's configuration around this file, when only its carrier says so (an env file). */
  platform?: PlatformInfo;
  /** Files whose documents its platform merges into it at their places, from its carrier (embed/payload.ts). */
  patchRefs?: PatchRefs;
  modelines: Modeline[];
  suppressions: Suppression[];
  /** Where kubelet-lint comments may be written in the file (its format's Format.comments). */
  comments: CommentStyle;
  problems: Finding[];
  /** The first line ends in "\r\n": lines a fix or refactor adds end the same way. */
  crlf: boolean;
}

/** The files of an analysis as a platform's node hooks see them (node/parse-cache.ts Workspace). */
export interface FileSet {
  readonly paths: readonly string[];
  kind(path: string): FileKind | undefined;
  get(path: string, kind?: FileKind, opts?: { fragment?: boolean }): ParsedFile | undefined;
  text(path: string): string | undefined;
}

/** What a file of a platform (and the files it names) gives its node's kubelet. */
export interface StandaloneRead {
  kubeletConfigs: KubeletConfigDoc[];
  kubeadm: KubeadmDoc[];
  platform?: PlatformInfo;
  /** Every file read, the anchor's own included. */
  files: string[];
  problems: Finding[];
}

/**
 * How a standalone file of a platform anchors its node, when more than its own parse decides it. Without hooks a
 * platform's standalone file is a node when its parse names the platform (it holds kubelet settings), else none.
 */
export interface NodeHooks {
  /** 'none' (with what to say about it) when this file anchors no node; else what its node reads. */
  read(files: FileSet, path: string): StandaloneRead | { none: true; problems: Finding[] };
  /** Files this one makes part of its node: never nodes of their own. */
  claims?(files: FileSet, path: string): string[];
}

/** How a file is to be parsed. */
export interface ParseOptions {
  /** Read as a drop-in fragment (a kubelet --config-dir file): no apiVersion or kind needed. */
  fragment?: boolean;
  /**
   * The last parse of the same file from another text, when the caller keeps one (node/parse-cache.ts): a format may
   * reuse what did not change (a long stream's untouched documents). The result must be what a fresh parse gives.
   */
  previous?: { text: string; parsed: ParsedBody };
  /**
   * The text's line index when the caller has one (a payload's, embed/payload.ts): the parse uses it instead of making
   * a second one (a long stream holds a parse per document, and the CLI's fix check two analyses of it: issue #28).
   */
  lines?: LineIndex;
}

/** The registry as code below it sees it (node/ gets it from the engine). */
export interface FormatRegistry {
  detectKind(path: string, text: string): FileKind | undefined;
  formatOf(kind: FileKind): Format;
  readonly carrierKinds: ReadonlySet<FileKind>;
  readonly runtimeKinds: ReadonlySet<FileKind>;
  readonly standaloneOrder: readonly FileKind[];
  readonly systemdLineKinds: ReadonlySet<FileKind>;
  /** The platform a format belongs to, by kind (undefined for the formats every node may have). */
  platformOfKind(kind: FileKind): string | undefined;
}

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
  /**
   * Where recognition tries it among all formats, lowest first (byPath in rank order, then byContent in rank
   * order); formats of platforms interleave with the others by this number. Ranks are unique.
   */
  rank: number;
  /**
   * Recognises scripts: text whose first line is `#!` is a program for the kernel to run, so only a format that reads
   * scripts may claim it by content (issue #36: a bash user data with a NodeConfig in a here-document is no NodeConfig).
   */
  readsScripts?: boolean;
  /** Also read when named as a template of its file (`kubelet-config.yaml.j2`, `config.yaml.tpl`): its parser masks expressions. */
  templateNames?: boolean;
  /** A platform's standalone format: how a file anchors its node, when its own parse does not say it all. */
  node?: NodeHooks;
  /**
   * A platform's standalone format whose image ships the kubelet's unit: a file of it anchors the drop-ins of that
   * unit (`kubelet.service`) found at its node root when the unit itself is not in the workspace.
   */
  anchorsDropinsOf?: string;
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
  parse(path: string, text: string, opts?: ParseOptions): ParsedBody;
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
