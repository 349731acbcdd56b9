/**
 * Container runtime configs join the node whose files share the deepest
 * folder with them: the same root in a root-filesystem layout, the same
 * folder in a flat one. A tie leaves the runtime unattached.
 */
import { commonDepth, dirname, nodeRoot } from '../workspace/paths.ts';
import type { NodeModel } from './model.ts';
import type { Workspace } from './workspace.ts';

const RUNTIME_KINDS = new Set(['containerd', 'docker', 'crio']);

export function attachRuntimes(ws: Workspace, nodes: NodeModel[]): void {
  if (nodes.length === 0) return;
  for (const path of ws.paths) {
    const kind = ws.kind(path);
    if (!kind || !RUNTIME_KINDS.has(kind)) continue;
    const parsed = ws.get(path);
    const driver = parsed?.runtime?.cgroupDriver;
    if (!driver) continue;
    const root = nodeRoot(path);
    let best = -1;
    let winners: NodeModel[] = [];
    for (const n of nodes) {
      const depth = Math.max(...n.files.map((f) => (nodeRoot(f) === root ? 1000 : commonDepth(dirname(f), root))));
      if (depth > best) {
        best = depth;
        winners = [n];
      } else if (depth === best) winners.push(n);
    }
    if (winners.length === 1) {
      winners[0].runtimes.push(driver);
      winners[0].files.push(path);
    }
  }
}
