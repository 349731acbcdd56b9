/**
 * The state of a feature gate in the kubelet that would run: the default of the
 * target version (pkg/features/kube_features.go, catalog/feature-gates.ts), then
 * `featureGates` and `--feature-gates` (one merged map in the node model; the
 * kubelet applies the flag over the file). validation.go asks exactly this:
 * `localFeatureGate.SetFromMap(kc.FeatureGates)` then `.Enabled(...)`.
 * AllAlpha/AllBeta apply to the alpha/beta gates not named themselves.
 */
import { gateAt } from '../catalog/feature-gates.ts';
import { parseGoBool } from '../quantity/mapflag.ts';
import type { Item, NodeModel } from './model.ts';
import { mapItems } from './read.ts';

export interface GateState {
  name: string;
  enabled: boolean;
  /** The featureGates entry that decided it; absent when the version's default applies. */
  item?: Item;
  /** The gate is unknown or removed at this version: reads as false (or as its entry), and feature-gate-* reports any entry. */
  unknown?: boolean;
  /**
   * `item` sets a gate locked to its default the other way: the kubelet stops at that entry ("cannot set feature gate
   * X to false, feature is locked to true", feature-gate-locked), before any check that uses the gate. It reads as its
   * locked value, so the checks that follow see what the kubelet will run with once the entry is fixed.
   */
  lockedAgainst?: boolean;
}

export function gateState(node: NodeModel, name: string): GateState {
  const items = mapItems(node, 'featureGates');
  const st = gateAt(name, node.kubernetesVersion);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.key !== name) continue;
    const v = typeof item.value === 'boolean' ? item.value : typeof item.value === 'string' ? parseGoBool(item.value) : undefined;
    if (v === undefined) continue;
    if (st.status !== 'known') return { name, enabled: v, item, unknown: true };
    if (st.spec.locked && v !== st.spec.default) return { name, enabled: st.spec.default, item, lockedAgainst: true };
    return { name, enabled: v, item };
  }
  if (st.status !== 'known') return { name, enabled: false, unknown: true };
  // feature_gate.go: AllAlpha / AllBeta set every alpha / beta gate that is not named itself.
  const all = st.spec.stage === 'alpha' ? 'AllAlpha' : st.spec.stage === 'beta' ? 'AllBeta' : undefined;
  const allItem = all ? [...items].reverse().find((i) => i.key === all) : undefined;
  const allValue = allItem ? (typeof allItem.value === 'boolean' ? allItem.value : typeof allItem.value === 'string' ? parseGoBool(allItem.value) : undefined) : undefined;
  if (allItem && allValue !== undefined) return { name, enabled: allValue, item: allItem };
  return { name, enabled: st.spec.default };
}
