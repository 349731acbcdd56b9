import type { Finding, Severity } from '../model/finding.ts';
import type { ArgProblem } from '../node/command-line.ts';
import type { Allocatable } from '../node/allocatable.ts';
import type { NodeModel } from '../node/model.ts';

export interface RuleContext {
  node: NodeModel;
  /** What the kubelet's flag parser rejected on this node's command line. */
  argProblems: readonly ArgProblem[];
  allocatable: Allocatable;
  /**
   * The node's version for choosing which fix to offer, never for deciding whether to report: reading it is not
   * evidence (node/evidence.ts records reads of `node.kubernetesVersion`, and a finding resting on an assumed version
   * is asked at every version).
   */
  versionForFixes: string;
}

/** The sections of docs/rules/README.md; `parsers` holds the codes the file readers report. */
export type RuleArea = 'reservation' | 'eviction' | 'cgroup-driver' | 'flags-fields' | 'systemd-files' | 'parsers';

/** What the docs and --list-rules say about a finding code; a Rule carries it, and so do the parsers' codes. */
export interface RuleMeta {
  id: string;
  /** One line for docs and --list-rules. */
  summary: string;
  /** The severity the code is reported with, or every severity it can be reported with (the usual one first). */
  severity: Severity | readonly Severity[];
  /** Whether some of its findings carry a quick fix. */
  fix: boolean;
  /** What the quick fix does, in a few words (the page's header line says it); required when `fix`. */
  fixDoes?: string;
  area: RuleArea;
}

export interface Rule extends RuleMeta {
  run(ctx: RuleContext): Finding[];
}
