/**
 * A node's results kept from one analysis to the next (the language server's), so that an edit re-runs the rules
 * of the node it touches only: a workspace of a hundred nodes spent most of every keystroke re-checking the
 * ninety-nine others.
 *
 * A node is reused when everything its result is computed from is the very same: the workspace's list of paths
 * (a file added or removed can change how any reference resolves), the options, and the parse of every file the
 * node read (its units, environment files, configs and the runtime config attached to it), compared by identity —
 * the parse cache hands out the same object for an unchanged text and a new one for any change.
 */
import type { Finding } from '../model/finding.ts';
import type { Allocatable } from './allocatable.ts';
import type { NodeModel } from './model.ts';

export interface ReusedNode {
  node: NodeModel;
  allocatable: Allocatable;
  /** Everything the analysis reported for the node: its build problems, modeline problems and rule findings. */
  findings: readonly Finding[];
}

interface Entry extends ReusedNode {
  inputs: readonly unknown[];
}

export class NodeReuse {
  private paths: readonly string[] = [];
  private entries = new Map<string, Entry>();
  private seen = new Set<string>();

  /** Starts an analysis of a workspace with these paths (sorted); nothing is reused if they differ from the last. */
  begin(paths: readonly string[]): void {
    if (!sameList(paths, this.paths)) this.entries.clear();
    this.paths = paths;
    this.seen = new Set();
  }

  /** The results kept for node `id` if they were computed from exactly `inputs`. */
  get(id: string, inputs: readonly unknown[]): ReusedNode | undefined {
    this.seen.add(id);
    const e = this.entries.get(id);
    return e && sameList(e.inputs, inputs) ? e : undefined;
  }

  set(id: string, inputs: readonly unknown[], result: ReusedNode): void {
    this.seen.add(id);
    this.entries.set(id, { inputs, ...result });
  }

  /** Forgets the nodes that read a file not in `paths` (a closed document: its parse must not outlive it here). */
  retain(paths: ReadonlySet<string>): void {
    for (const [id, e] of this.entries) if (!e.node.files.every((f) => paths.has(f))) this.entries.delete(id);
  }

  /** Ends the analysis: nodes it did not have are forgotten (the cache holds one result per current node). */
  end(): void {
    for (const id of this.entries.keys()) if (!this.seen.has(id)) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
