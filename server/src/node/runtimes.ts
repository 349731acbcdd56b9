/**
 * Container runtime configs join the node whose files share the deepest
 * folder with them: the same root in a root-filesystem layout, the same
 * folder in a flat one. A tie leaves the runtime unattached.
 */
import { commonDepth, dirname, nodeRoot } from '../model/paths.ts';
import type { NodeModel } from './model.ts';
import type { Workspace } from './parse-cache.ts';
import { RUNTIME_KINDS } from '../formats/index.ts';


export function attachRuntimes(ws: Workspace, nodes: NodeModel[]): void {
  if (nodes.length === 0) return;
  // Nodes by the node roots of their files. A node with a file under the runtime config's own root beats any
  // folder depth, so those nodes are the candidates when there are any, found without scanning every file of
  // every node for every runtime config (that scan was half of an edit in a workspace of 100 nodes).
  const byRoot = new Map<string, Set<NodeModel>>();
  const addRoot = (n: NodeModel, f: string): void => {
    const r = nodeRoot(f);
    let set = byRoot.get(r);
    if (!set) byRoot.set(r, (set = new Set()));
    set.add(n);
  };
  for (const n of nodes) for (const f of n.files) addRoot(n, f);
  for (const path of ws.paths) {
    const kind = ws.kind(path);
    if (!kind || !RUNTIME_KINDS.has(kind)) continue;
    const parsed = ws.get(path);
    const driver = parsed?.runtime?.cgroupDriver;
    if (!driver) continue;
    const root = nodeRoot(path);
    const sameRoot = byRoot.get(root);
    let winners: NodeModel[];
    if (sameRoot) winners = [...sameRoot];
    else {
      // No node has a file under this root: the deepest folder shared with the runtime config decides.
      let best = -1;
      winners = [];
      for (const n of nodes) {
        const depth = Math.max(...n.files.map((f) => commonDepth(dirname(f), root)));
        if (depth > best) {
          best = depth;
          winners = [n];
        } else if (depth === best) winners.push(n);
      }
    }
    if (winners.length === 1) {
      winners[0].runtimes.push(driver);
      winners[0].files.push(path);
      addRoot(winners[0], path);
    }
  }
}
