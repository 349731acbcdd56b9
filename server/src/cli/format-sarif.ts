/**
 * SARIF 2.1.0 (OASIS), as code-scanning tools ingest it. GitHub code scanning
 * (docs.github.com, "SARIF support for code scanning") matches a result across
 * uploads by its rule id, its file path and its `partialFingerprints`, so paths
 * are relative to the folder the CLI ran in (`%SRCROOT%`, the repository root in
 * a CI job) and every result carries a fingerprint that does not depend on its
 * line number; each rule links its page (`helpUri`).
 */
import { createHash } from 'node:crypto';
import type { Analysis } from '../engine.ts';
import type { Severity } from '../model/finding.ts';
import type { Range } from '../model/range.ts';
import { PARSER_CODES, RULES } from '../registry.ts';
import type { RuleMeta } from '../rules/types.ts';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/** The uriBaseId of every relative artifact URI: the folder the CLI ran in. */
export const SRCROOT = '%SRCROOT%';
/** The partialFingerprints key (versioned: a change of what is hashed gets a new key, not silently new alerts). */
export const FINGERPRINT = 'kubeletLint/v1';

export interface SarifOptions {
  version: string;
  /** The folder relative paths are relative to (absolute, POSIX separators): the CLI's working folder. */
  root: string;
  /** Base URL of the rule pages: `<ruleDocs><id>.md` is a rule's page. */
  ruleDocs: string;
  /** The text of each file read, for fingerprints. */
  texts: ReadonlyMap<string, string>;
  informationUri?: string;
}

export function formatSarif(analysis: Analysis, o: SarifOptions): string {
  const known = new Map<string, RuleMeta>([...RULES, ...PARSER_CODES].map((r) => [r.id, r]));
  const used = [...new Set(analysis.findings.map((f) => f.code))].sort();
  const ruleIndex = new Map(used.map((id, i) => [id, i]));
  const root = o.root.endsWith('/') ? o.root : o.root + '/';
  const location = (file: string) => artifactLocation(file, root);
  const region = (r: Range) => ({
    startLine: r.start.line + 1,
    startColumn: r.start.character + 1,
    endLine: r.end.line + 1,
    endColumn: r.end.character + 1,
  });
  const fingerprints = new Fingerprints(o.texts);
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kubelet-lint',
            version: o.version,
            semanticVersion: o.version,
            ...(o.informationUri ? { informationUri: o.informationUri } : {}),
            rules: used.map((id) => ruleDescriptor(id, known.get(id), o.ruleDocs)),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: fileUri(root) } },
        columnKind: 'utf16CodeUnits',
        results: analysis.findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: ruleIndex.get(f.code),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [{ physicalLocation: { artifactLocation: location(f.file), region: region(f.range) } }],
          partialFingerprints: { [FINGERPRINT]: fingerprints.of(f.code, relativePath(f.file, root), f.file, f.range, f.message) },
          ...(f.related?.length
            ? {
                relatedLocations: f.related.map((r, i) => ({
                  id: i,
                  message: { text: r.message },
                  physicalLocation: { artifactLocation: location(r.span.file), region: region(r.span.range) },
                })),
              }
            : {}),
          ...(f.fixes?.length
            ? {
                fixes: f.fixes.map((x) => ({
                  description: { text: x.title },
                  artifactChanges: groupByFile(x.edits).map(([file, edits]) => ({
                    artifactLocation: location(file),
                    replacements: edits.map((e) => ({ deletedRegion: region(e.range), insertedContent: { text: e.newText } })),
                  })),
                })),
              }
            : {}),
        })),
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}

function ruleDescriptor(id: string, meta: RuleMeta | undefined, docs: string) {
  const summary = meta?.summary ?? id;
  const severity = meta ? (typeof meta.severity === 'string' ? meta.severity : meta.severity[0]) : undefined;
  const page = `${docs}${encodeURIComponent(id)}.md`;
  return {
    id,
    shortDescription: { text: summary },
    fullDescription: { text: summary },
    helpUri: page,
    help: { text: `${summary}. What it catches, why, an example and the fix: ${page}`, markdown: `${summary}. [What it catches, why, an example and the fix](${page}).` },
    ...(severity ? { defaultConfiguration: { level: LEVEL[severity] } } : {}),
    properties: { tags: ['kubelet', ...(meta ? [meta.area] : [])] },
  };
}

/**
 * Per result, a hash of what it is about rather than where: the rule, the file, the text its range covers and the
 * text of its first line, whitespace collapsed; an edit above it (the line number changes) keeps the fingerprint,
 * an edit of the flagged text makes a new one. Results with the same hash are told apart by their order (":2", ...),
 * as GitHub's own line hashes are.
 */
class Fingerprints {
  private lines = new Map<string, string[] | undefined>();
  private seen = new Map<string, number>();
  constructor(private texts: ReadonlyMap<string, string>) {}

  of(rule: string, path: string, file: string, range: Range, message: string): string {
    const lines = this.linesOf(file);
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    let about: string;
    if (lines) {
      const first = lines[range.start.line] ?? '';
      const covered =
        range.start.line === range.end.line
          ? first.slice(range.start.character, range.end.character)
          : [first.slice(range.start.character), ...lines.slice(range.start.line + 1, range.end.line), (lines[range.end.line] ?? '').slice(0, range.end.character)].join('\n');
      about = `${squash(covered)}\0${squash(first)}`;
    } else {
      // A file not read from disk (there is none here today): the message stands in for its text.
      about = `\0\0${message}`;
    }
    const hash = createHash('sha256').update(`${rule}\0${path}\0${about}`).digest('hex').slice(0, 32);
    const n = (this.seen.get(hash) ?? 0) + 1;
    this.seen.set(hash, n);
    return `${hash}:${n}`;
  }

  private linesOf(file: string): string[] | undefined {
    if (!this.lines.has(file)) this.lines.set(file, this.texts.get(file)?.split(/\r?\n/));
    return this.lines.get(file);
  }
}

function groupByFile<T extends { file: string }>(edits: T[]): [string, T[]][] {
  const m = new Map<string, T[]>();
  for (const e of edits) m.set(e.file, [...(m.get(e.file) ?? []), e]);
  return [...m];
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** A file's path as code scanning names it: relative to `root` when it lies under it, else as given. */
function relativePath(file: string, root: string): string {
  return file.startsWith(root) ? file.slice(root.length) : file;
}

/**
 * A SARIF artifact location: a path relative to the root (as walked, or an absolute one under the root) is a
 * relative reference against `%SRCROOT%`; an absolute path elsewhere is a file:// URI with no base. Each segment is
 * percent-encoded so `#`, `?` and `%` in folder names do not turn into fragments or queries.
 */
export function artifactLocation(file: string, root: string): { uri: string; uriBaseId?: string } {
  const rel = relativePath(file, root);
  return rel.startsWith('/') ? { uri: fileUri(rel) } : { uri: encodePath(rel), uriBaseId: SRCROOT };
}

function fileUri(abs: string): string {
  // A Windows path (C:/...) gets the third slash a file URI needs before its drive letter.
  return `file://${abs.startsWith('/') ? '' : '/'}${encodePath(abs)}`;
}
