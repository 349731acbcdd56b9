/** Helpers shared by the feature-gate rules (feature-gate-unknown, -removed, -locked). */
import type { Item, NodeModel } from '../../node/model.ts';
import { mapItems } from '../../node/read.ts';

/** How the user wrote the map: `--feature-gates` (flag or kubeadm extra arg) or `featureGates`. */
export function gateWritten(item: Item): string {
  return item.from.how === 'flag' || item.from.how === 'kubeadm-extra-args' ? '--feature-gates' : 'featureGates';
}

/** The gates of a node, for the feature-gate rules. */
export function gateItems(node: NodeModel): Item[] {
  return mapItems(node, 'featureGates');
}
