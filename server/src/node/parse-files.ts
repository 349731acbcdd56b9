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

/** The file parsed by its format's parser, with its kubelet-lint comments. */
export function parseAs(src: SourceFile, format: Format, opts?: ParseOptions): ParsedFile {
  const { path, text } = src;
  const kind = format.kind;
  const nl = text.indexOf('\n');
  const { problems, ...body } = format.parse(path, text, opts);
  const out: ParsedFile = { path, kind, ...body, modelines: [], suppressions: [], problems: [...problems], crlf: nl > 0 && text.charCodeAt(nl - 1) === 13 };
  const comments = format.comments(out);
  // Both comment kinds start with "kubelet-lint": one scan of a large file tells that it has neither.
  if (comments !== 'none' && text.includes('kubelet-lint')) {
    const m = scanModelines(path, text);
    out.modelines = m.modelines;
    for (const x of m.problems) out.problems.push(x);
    out.suppressions = scanSuppressions(text, comments === 'trailing');
  }
  return out;
}
