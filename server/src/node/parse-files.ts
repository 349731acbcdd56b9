/** Text -> per-kind parse. Every file is parsed once; later stages only read the results. */
import type { FileKind, SourceFile } from '../model/source.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigFileParse, EnvFile, RuntimeConfigParse, UnitFile } from '../parse/types.ts';
import type { Format, ParsedFile, ParseOptions } from '../formats/types.ts';
import type { Payload, PatchRefs } from '../embed/payload.ts';
import type { InstanceTypeMention, VersionMention } from './model.ts';
import { scanModelines, type Modeline } from '../parse/modeline.ts';
import { scanSuppressions, type Suppression } from '../parse/suppressions.ts';

export type { ParsedFile };

/**
 * The one empty list of parsed files without kubelet-lint comments or problems (most): frozen, as nothing adds to a
 * parse after this function, and 32 bytes a list for each document of a long stream add up (issue #28).
 */
const NONE: never[] = Object.freeze([]) as never[];

/** The file parsed by its format's parser, with its kubelet-lint comments. */
export function parseAs(src: SourceFile, format: Format, opts?: ParseOptions): ParsedFile {
  const { path, text } = src;
  const kind = format.kind;
  const nl = text.indexOf('\n');
  const { problems, ...body } = format.parse(path, text, opts);
  // A parser's lists, grown a push at a time, keep 17 slots for the usual one document: exact copies, as a stream
  // holds one parse per document and the CLI's fix check two analyses of it (issue #28).
  if (body.config) body.config = { ...body.config, kubeletConfigs: body.config.kubeletConfigs.slice(), kubeadm: body.config.kubeadm.slice() };
  const out: ParsedFile = { path, kind, ...body, modelines: NONE, suppressions: NONE, comments: 'line', problems: [...problems], crlf: nl > 0 && text.charCodeAt(nl - 1) === 13 };
  const comments = format.comments(out);
  out.comments = comments;
  // Both comment kinds start with "kubelet-lint": one scan of a large file tells that it has neither.
  if (comments !== 'none' && text.includes('kubelet-lint')) {
    const m = scanModelines(path, text);
    out.modelines = m.modelines;
    for (const x of m.problems) out.problems.push(x);
    out.suppressions = scanSuppressions(text, comments === 'trailing');
  }
  if (out.problems.length === 0) out.problems = NONE;
  return out;
}
