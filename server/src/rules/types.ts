import type { Finding } from '../model/finding.ts';
import type { ArgProblem } from '../node/command-line.ts';
import type { Allocatable } from '../node/allocatable.ts';
import type { NodeModel } from '../node/model.ts';

export interface RuleContext {
  node: NodeModel;
  /** What the kubelet's flag parser rejected on this node's command line. */
  argProblems: readonly ArgProblem[];
  allocatable: Allocatable;
}

export interface Rule {
  id: string;
  /** One line for docs and --list-rules. */
  summary: string;
  run(ctx: RuleContext): Finding[];
}
