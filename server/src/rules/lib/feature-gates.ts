/** Helpers shared by the feature-gate rules (feature-gate-unknown, -removed, -locked) and config-needs-feature-gate. */
import type { Item, NodeModel } from '../../node/model.ts';
import { mapItems } from '../../node/read.ts';
import type { GateState } from '../../node/gates.ts';

/** How the user wrote the map: `--feature-gates` (flag or kubeadm extra arg) or `featureGates`. */
export function gateWritten(item: Item): string {
  return item.from.how === 'flag' || item.from.how === 'kubeadm-extra-args' ? '--feature-gates' : 'featureGates';
}

/** The gates of a node, for the feature-gate rules. */
export function gateItems(node: NodeModel): Item[] {
  return mapItems(node, 'featureGates');
}

/** "NodeSwap is off (its default in 1.29)" / "NodeSwap is off (featureGates sets it to false)". */
export function describeGate(node: NodeModel, g: GateState): string {
  const onOff = g.enabled ? 'on' : 'off';
  if (g.item && g.lockedAgainst) return `${g.name} is locked ${onOff} in Kubernetes ${node.kubernetesVersion} (${gateWritten(g.item)} cannot set it to ${g.item.text})`;
  if (g.item) return `${g.name} is ${onOff} (${gateWritten(g.item)} sets ${g.item.key === g.name ? `it to ${g.item.text}` : `${g.item.key}=${g.item.text}`})`;
  if (g.unknown) return `${g.name} does not exist in Kubernetes ${node.kubernetesVersion}`;
  return `${g.name} is ${onOff} (its default in Kubernetes ${node.kubernetesVersion})`;
}
