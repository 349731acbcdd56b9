/**
 * A node's results kept from one analysis to the next (the language server's), so that an edit re-runs the rules
 * of the node it touches only: a workspace of a hundred nodes spent most of every keystroke re-checking the
 * ninety-nine others.
 *
 * A node is reused when everything its result is computed from is the very same (NodeInputs): the workspace's list
 * of paths (a file added or removed can change how any reference resolves), every analysis option, and the parse
 * of every file the node read (its units, environment files, configs and the runtime configs joined to it),
 * compared by identity — the parse cache hands out the same object for an unchanged text and a new one for any
 * change.
 *
 * The node's build (buildNode) is kept the same way: it is reused while the seed (the units systemd would read)
 * and every file the build read are the same. Builds and models are never changed once made, so both are shared.
 */
import type { Finding } from '../model/finding.ts';
import type { Allocatable } from './allocatable.ts';
import type { BuiltNode } from './build.ts';
import type { NodeSeed } from './group.ts';
import type { NodeModel } from './model.ts';
import type { ParsedFile } from './parse-files.ts';
import type { FileRead, Workspace } from './parse-cache.ts';
import { carrierOf } from '../embed/payload.ts';

/** Everything a node's results are computed from besides the workspace's paths. */
export interface NodeInputs {
  /**
   * Every analysis option as a value compared with ===, by option name. engine.ts types it with one field per
   * option, so a new option does not compile until it says how it changes a node's results.
   */
  readonly options: Readonly<Record<string, string>>;
  /** The node's files with their parses, compared by identity. */
  readonly files: readonly string[];
  readonly parses: readonly (ParsedFile | undefined)[];
}

export interface ReusedNode {
  node: NodeModel;
  allocatable: Allocatable;
  /** Everything the analysis reported for the node: its build problems, modeline problems and rule findings. */
  findings: readonly Finding[];
}

interface Entry extends ReusedNode {
  inputs: NodeInputs;
}

interface BuiltEntry {
  seed: NodeSeed;
  reads: readonly FileRead[];
  built: BuiltNode;
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

function sameInputs(a: NodeInputs, b: NodeInputs): boolean {
  return sameOptions(a.options, b.options) && sameList(a.files, b.files) && sameList(a.parses, b.parses);
}

/** The same option values under the same names (without the key lists: asked for every node at every keystroke). */
function sameOptions(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}

export class NodeReuse {
  private paths: readonly string[] = [];
  private entries = new Map<string, Entry>();
  private builds = new Map<string, BuiltEntry>();
  private seen = new Set<string>();
  /** Set by freeze() (ParseCache.freeze), until retain(): analyses read the entries and add none. */
  private frozen = false;
  /** Whether this analysis may reuse entries: it has the paths they were made with (decided once, in begin). */
  private usable = true;

  freeze(): void {
    this.frozen = true;
    // Frozen for the CLI's fix check, which analyses the texts its fixes make: a node with a fix of its own reads
    // other parses there (except in a half of a failed group), so its results would not be reused. In a stream with
    // a fix in every document they were a third of the CLI's peak memory.
    for (const [id, e] of this.entries) {
      if (!e.findings.some((f) => f.fixes?.length)) continue;
      this.entries.delete(id);
      this.builds.delete(id);
    }
  }

  /** Starts an analysis of a workspace with these paths (sorted); nothing is reused if they differ from the last. */
  begin(paths: readonly string[]): void {
    if (this.frozen) {
      // Once per analysis, not per node: a stream's payloads are paths too (20,000 of them in the bench's stream).
      this.usable = sameList(paths, this.paths);
      return;
    }
    if (!sameList(paths, this.paths)) {
      this.entries.clear();
      this.builds.clear();
    }
    this.paths = paths;
    this.usable = true;
    this.seen = new Set();
  }

  /** buildNode(ws, seed), or the same build kept from a previous analysis. */
  build(ws: Workspace, seed: NodeSeed, make: () => BuiltNode): BuiltNode {
    const e = this.usable ? this.builds.get(seed.anchor) : undefined;
    if (e && sameSeed(e.seed, seed) && ws.sameReads(e.reads)) {
      if (!this.frozen) this.seen.add(seed.anchor);
      return e.built;
    }
    if (this.frozen) return make();
    this.seen.add(seed.anchor);
    const { result, reads } = ws.record(make);
    this.builds.set(seed.anchor, { seed, reads, built: result });
    return result;
  }

  /** The results kept for node `id` if they were computed from exactly `inputs`. */
  get(id: string, inputs: NodeInputs): ReusedNode | undefined {
    if (!this.frozen) this.seen.add(id);
    const e = this.usable ? this.entries.get(id) : undefined;
    return e && sameInputs(e.inputs, inputs) ? e : undefined;
  }

  set(id: string, inputs: NodeInputs, result: ReusedNode): void {
    if (this.frozen) return;
    this.seen.add(id);
    this.entries.set(id, { inputs, ...result });
  }

  /** Forgets the nodes that read a file not in `paths` (a closed document: its parse must not outlive it here). */
  retain(paths: ReadonlySet<string>): void {
    this.frozen = false;
    this.usable = true;
    // A carrier's payloads are kept with it (they are not files of the workspace themselves).
    const kept = (p: string) => paths.has(p) || paths.has(carrierOf(p) ?? p);
    for (const [id, e] of this.entries) if (!e.node.files.every(kept)) this.entries.delete(id);
    for (const [id, e] of this.builds) if (!e.reads.every((r) => kept(r.path)) || !e.seed.units.every((u) => kept(u.path))) this.builds.delete(id);
  }

  /** Ends the analysis: nodes it did not have are forgotten (the cache holds one result per current node). */
  end(): void {
    if (this.frozen) return;
    for (const id of this.entries.keys()) if (!this.seen.has(id)) this.entries.delete(id);
    for (const id of this.builds.keys()) if (!this.seen.has(id)) this.builds.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Whether an analysis has anything to gain from this: not when frozen with nothing kept (the CLI's fix check of a
   * stream whose every document has a fix), where looking up and recording each node only costs (a tenth of it).
   */
  get useful(): boolean {
    return !this.frozen || this.entries.size > 0 || this.builds.size > 0;
  }
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
