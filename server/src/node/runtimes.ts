/**
 * Container runtime configs join the node whose files share the deepest
 * folder with them: the same root in a root-filesystem layout, the same
 * folder in a flat one. A tie leaves the runtime unattached, and so does a
 * node that shares no folder with it.
 */
import type { RuntimeCgroupDriver } from '../parse/types.ts';
import { commonDepth, dirname, nodeRoot } from '../model/paths.ts';
import type { Workspace } from './parse-cache.ts';

/** A runtime config joined to a node: its path (one of the node's files) and the cgroup driver it sets. */
export interface AttachedRuntime {
  path: string;
  driver: RuntimeCgroupDriver;
}

/**
 * The runtime configs each node gets, one list per entry of `nodes` (the files of each node's build; `services`: which
 * of them a systemd unit runs). A config already attached counts as a file of its node for the configs after it, in
 * path order.
 */
export function attachRuntimes(ws: Workspace, nodes: readonly (readonly string[])[], services: readonly boolean[] = []): AttachedRuntime[][] {
  const out: AttachedRuntime[][] = nodes.map(() => []);
  if (nodes.length === 0) return out;
  const files = nodes.map((f) => [...f]);
  // Nodes by the node roots of their files. A node with a file under the runtime config's own root beats any
  // folder depth, so those nodes are the candidates when there are any, found without scanning every file of
  // every node for every runtime config (that scan was half of an edit in a workspace of 100 nodes).
  const byRoot = new Map<string, Set<number>>();
  const addRoot = (n: number, f: string): void => {
    const r = nodeRoot(f);
    let set = byRoot.get(r);
    if (!set) byRoot.set(r, (set = new Set()));
    set.add(n);
  };
  files.forEach((fs, n) => {
    for (const f of fs) addRoot(n, f);
  });
  for (const path of ws.paths) {
    const kind = ws.kind(path);
    if (!kind || !ws.registry.runtimeKinds.has(kind)) continue;
    const driver = ws.get(path)?.runtime?.cgroupDriver;
    if (!driver) continue;
    const root = nodeRoot(path);
    const sameRoot = byRoot.get(root);
    let winners: number[];
    // Of the nodes at the root, the kubelet a unit runs: a kubeadm file beside it (etc/kubernetes/kubeadm.yaml) is
    // the same machine's, and must not make a tie that leaves the runtime, and its cgroup driver, unattached (#37).
    const run = sameRoot && [...sameRoot].filter((n) => services[n]);
    if (sameRoot) winners = run && run.length ? run : [...sameRoot];
    else {
      // No node has a file under this root: the deepest folder shared with the runtime config decides. Sharing none
      // is no tie to break: a runtime config of another tree is another machine's (issue #37).
      let best = 0;
      winners = [];
      files.forEach((fs, n) => {
        const depth = Math.max(...fs.map((f) => commonDepth(dirname(f), root)));
        if (depth === 0) return;
        if (depth > best) {
          best = depth;
          winners = [n];
        } else if (depth === best) winners.push(n);
      });
    }
    if (winners.length === 1) {
      const n = winners[0];
      out[n].push({ path, driver });
      files[n].push(path);
      addRoot(n, path);
    }
  }
  return out;
}
