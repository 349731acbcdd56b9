/**
 * A gate deleted from pkg/features/kube_features.go (or from the packages the
 * kubelet registers gates from) is unknown to later kubelets:
 * `unrecognized feature gate: X` stops the kubelet at startup, whatever the
 * value. Operators carry DevicePlugins, BlockVolume, PodPriority,
 * RuntimeClass ... long after the features went GA (kubelet-facts §4;
 * catalog/feature-gates.ts lists the sources and which versions are bracketed).
 *
 * No fix: whether the entry can go depends on what the operator meant by it.
 */
import { finding, type Finding } from '../model/finding.ts';
import { gateAt, lastSpec, type FeatureGate } from '../catalog/feature-gates.ts';
import { gateItems, gateWritten } from './lib/feature-gates.ts';
import type { Rule } from './types.ts';

export const featureGateRemoved: Rule = {
  id: 'feature-gate-removed',
  summary: 'a feature gate that was removed from the kubelet of the target version',
  severity: 'error',
  fix: false,
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
          `${gateWritten(item)} sets ${item.key}=${item.text}, but the ${item.key} feature gate was removed in Kubernetes ${gate.removedIn}` +
            `${gate.approximate ? ' (approximately)' : ''}; a ${v} kubelet refuses to start ("unrecognized feature gate: ${item.key}"). ${became(gate)}`,
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
