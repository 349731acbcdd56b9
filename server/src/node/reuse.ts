/**
 * A node's results kept from one analysis to the next (the language server's), so that an edit re-runs the rules
 * of the node it touches only: a workspace of a hundred nodes spent most of every keystroke re-checking the
 * ninety-nine others.
 *
 * A node is reused when everything its result is computed from is the very same: the workspace's list of paths
 * (a file added or removed can change how any reference resolves), the options, and the parse of every file the
 * node read (its units, environment files, configs and the runtime config attached to it), compared by identity —
 * the parse cache hands out the same object for an unchanged text and a new one for any change.
 *
 * The node's model itself is kept the same way, before runtimes and modelines are applied to it: its build is
 * reused while the seed (the units systemd would read) and every file the build read are the same.
 */
import type { Finding } from '../model/finding.ts';
import type { Allocatable } from './allocatable.ts';
import type { BuiltNode } from './build.ts';
import type { NodeSeed } from './group.ts';
import type { NodeModel } from './model.ts';
import type { FileRead, Workspace } from './parse-cache.ts';

export interface ReusedNode {
  node: NodeModel;
  allocatable: Allocatable;
  /** Everything the analysis reported for the node: its build problems, modeline problems and rule findings. */
  findings: readonly Finding[];
}

interface Entry extends ReusedNode {
  inputs: readonly unknown[];
}

interface BuiltEntry {
  seed: NodeSeed;
  version: string;
  reads: readonly FileRead[];
  /** As buildNode returned it: attachRuntimes and the modelines change the model later (on a copy). */
  built: BuiltNode;
}

/** A copy whose later changes (runtimes and files added, capacity and version from modelines) stay its own. */
function copy(b: BuiltNode): BuiltNode {
  return { ...b, node: { ...b.node, files: [...b.node.files], runtimes: [...b.node.runtimes] } };
}

function sameSeed(a: NodeSeed, b: NodeSeed): boolean {
  return (
    a.anchor === b.anchor &&
    a.standalone === b.standalone &&
    sameList(a.units, b.units) &&
    a.masked.length === b.masked.length &&
    a.masked.every((m, i) => m.path === b.masked[i].path && m.by === b.masked[i].by)
  );
}

export class NodeReuse {
  private paths: readonly string[] = [];
  private entries = new Map<string, Entry>();
  private builds = new Map<string, BuiltEntry>();
  private seen = new Set<string>();

  /** Starts an analysis of a workspace with these paths (sorted); nothing is reused if they differ from the last. */
  begin(paths: readonly string[]): void {
    if (!sameList(paths, this.paths)) {
      this.entries.clear();
      this.builds.clear();
    }
    this.paths = paths;
    this.seen = new Set();
  }

  /** buildNode(ws, seed, version), or a copy of the same build kept from a previous analysis. */
  build(ws: Workspace, seed: NodeSeed, version: string, make: () => BuiltNode): BuiltNode {
    this.seen.add(seed.anchor);
    const e = this.builds.get(seed.anchor);
    if (e && e.version === version && sameSeed(e.seed, seed) && ws.sameReads(e.reads)) return copy(e.built);
    const { result, reads } = ws.record(make);
    this.builds.set(seed.anchor, { seed, version, reads, built: copy(result) });
    return result;
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
    for (const [id, e] of this.builds) if (!e.reads.every((r) => paths.has(r.path)) || !e.seed.units.every((u) => paths.has(u.path))) this.builds.delete(id);
  }

  /** Ends the analysis: nodes it did not have are forgotten (the cache holds one result per current node). */
  end(): void {
    for (const id of this.entries.keys()) if (!this.seen.has(id)) this.entries.delete(id);
    for (const id of this.builds.keys()) if (!this.seen.has(id)) this.builds.delete(id);
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
