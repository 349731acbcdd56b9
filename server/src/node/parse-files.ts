/** Text -> per-kind parse. Every file is parsed once; later stages only read the results. */
import type { FileKind, SourceFile } from '../model/source.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigFileParse, EnvFile, RuntimeConfigParse, UnitFile } from '../parse/types.ts';
import { formatOf } from '../formats/index.ts';
import type { CommentStyle } from '../formats/types.ts';
import type { Payload, TalosPatches } from '../embed/payload.ts';
import type { InstanceTypeMention, VersionMention } from './model.ts';
import { scanModelines, type Modeline } from '../parse/modeline.ts';
import { scanSuppressions, type Suppression } from '../parse/suppressions.ts';

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
  /** A talhelper node's `@file` patches, from its carrier (embed/payload.ts; node/talos-patches.ts joins them). */
  talosPatches?: TalosPatches;
  modelines: Modeline[];
  suppressions: Suppression[];
  /** Where kubelet-lint comments may be written in the file (its format's Format.comments). */
  comments: CommentStyle;
  problems: Finding[];
  /** The first line ends in "\r\n": lines a fix or refactor adds end the same way. */
  crlf: boolean;
}

/** The file parsed by its format's parser (formats/<kind>.ts), with its kubelet-lint comments. */
export function parseAs(src: SourceFile, kind: FileKind, opts?: { fragment?: boolean }): ParsedFile {
  const { path, text } = src;
  const nl = text.indexOf('\n');
  const format = formatOf(kind);
  const { problems, ...body } = format.parse(path, text, opts);
  const out: ParsedFile = { path, kind, ...body, modelines: [], suppressions: [], comments: 'line', problems: [...problems], crlf: nl > 0 && text.charCodeAt(nl - 1) === 13 };
  const comments = format.comments(out);
  out.comments = comments;
  // Both comment kinds start with "kubelet-lint": one scan of a large file tells that it has neither.
  if (comments !== 'none' && text.includes('kubelet-lint')) {
    const m = scanModelines(path, text);
    out.modelines = m.modelines;
    for (const x of m.problems) out.problems.push(x);
    out.suppressions = scanSuppressions(text, comments === 'trailing');
  }
  return out;
}
