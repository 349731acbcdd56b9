/** The files of one analysis, parsed lazily and once, by path. */
import type { FileKind, SourceFile } from '../model/source.ts';
import { detectKind } from '../workspace/detect.ts';
import { parseAs, type ParsedFile } from './parse-files.ts';

export class Workspace {
  readonly paths: string[];
  private readonly sources = new Map<string, SourceFile>();
  private readonly parsed = new Map<string, ParsedFile>();
  private readonly detected = new Map<string, FileKind | undefined>();

  constructor(files: readonly SourceFile[]) {
    for (const f of files) this.sources.set(f.path, f);
    this.paths = [...this.sources.keys()].sort();
  }

  kind(path: string): FileKind | undefined {
    if (this.parsed.has(path)) return this.parsed.get(path)!.kind;
    if (!this.detected.has(path)) {
      const src = this.sources.get(path);
      this.detected.set(path, src ? detectKind(path, src.text) : undefined);
    }
    return this.detected.get(path);
  }

  /**
   * The file parsed as `kind`. A file named by a reference (EnvironmentFile=,
   * --config) is read as what the referrer expects, whatever its name says.
   */
  get(path: string, kind?: FileKind, opts?: { fragment?: boolean }): ParsedFile | undefined {
    const have = this.parsed.get(path);
    if (have && (kind === undefined || have.kind === kind || compatible(have.kind, kind))) return have;
    const src = this.sources.get(path);
    if (!src) return undefined;
    const k = kind ?? this.kind(path);
    if (!k) return undefined;
    const p = parseAs(src, k, opts);
    this.parsed.set(path, p);
    return p;
  }

  /** Every file parsed so far (including ones pulled in by references). */
  all(): ParsedFile[] {
    return [...this.parsed.values()];
  }
}

function compatible(have: FileKind, want: FileKind): boolean {
  const cfg = new Set<FileKind>(['kubelet-config', 'kubeadm-config']);
  return cfg.has(have) && cfg.has(want);
}
