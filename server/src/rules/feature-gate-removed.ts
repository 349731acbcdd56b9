/**
 * A gate deleted from pkg/features/kube_features.go (or from the packages the
 * kubelet registers gates from) is unknown to later kubelets:
 * `unrecognized feature gate: X` stops the kubelet at startup, whatever the
 * value. Operators carry DevicePlugins, BlockVolume, PodPriority,
 * RuntimeClass ... long after the features went GA (kubelet-facts §4;
 * catalog/feature-gates.ts lists the sources and which versions are bracketed).
 *
 * Fix: delete the entry (the kubelet cannot start with it, and the gate's behaviour
 * is fixed now), with one separator, so the other gates keep their values.
 */
import { finding, type Finding } from '../model/finding.ts';
import { gateAt, lastSpec, type FeatureGate } from '../catalog/feature-gates.ts';
import { gateItems, gateWritten } from './lib/feature-gates.ts';
import { oneFix } from './lib/edit.ts';
import { removeMapItem } from './lib/remove-item.ts';
import type { Rule } from './types.ts';

export const featureGateRemoved: Rule = {
  id: 'feature-gate-removed',
  summary: 'a feature gate that was removed from the kubelet of the target version',
  severity: 'error',
  fix: true,
  fixDoes: 'deletes the entry with one separator (an only entry leaves `featureGates: {}`)',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    const v = node.kubernetesVersion;
    for (const item of gateItems(node)) {
      if (item.key === undefined || !item.keySpan) continue;
      const st = gateAt(item.key, v);
      if (st.status !== 'removed') continue;
      const { gate } = st;
      out.push(
        finding(
          'feature-gate-removed',
          'error',
          item.keySpan,
          `Feature gate ${item.key} was removed ${gate.approximate ? 'by' : 'in'} Kubernetes ${gate.removedIn}: a ${v} kubelet refuses to start. ` +
            `${gateWritten(item)} sets ${item.key}=${item.text}, and the kubelet fails with "unrecognized feature gate: ${item.key}"` +
            `${gate.approximate ? ` (${gate.removedIn} no longer has the gate; the exact release that dropped it is not recorded)` : ''}. ${became(gate)}`,
          oneFix(`Delete the ${item.key} entry`, removeMapItem(node, item)),
        ),
      );
    }
    return out;
  },
};

/** What the feature had become when its gate went. */
function became(gate: FeatureGate): string {
  const last = lastSpec(gate);
  if (!last) return 'Delete the entry.';
  if (last.stage === 'ga') {
    return last.default
      ? `The feature went GA in ${last.since} and is always on now: delete the entry.`
      : `The feature went GA in ${last.since} with the gate off, and that behaviour is fixed now: delete the entry.`;
  }
  return `The feature was dropped (last ${last.stage === 'deprecated' ? 'deprecated' : `${last.stage}`}, default ${last.default ? 'on' : 'off'}, since ${last.since}): delete the entry.`;
}
