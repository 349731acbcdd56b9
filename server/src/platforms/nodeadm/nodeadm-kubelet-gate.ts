/**
 * nodeadm's spec.featureGates are nodeadm's own gates (InstanceIdNodeName, FastImagePull, ...;
 * awslabs/amazon-eks-ami nodeadm/api/v1alpha1/nodeconfig_types.go, nodeadm v20260724); nodeadm never passes them to
 * the kubelet. A kubelet gate written there does nothing: it belongs in spec.kubelet.config.featureGates.
 */
import { finding, type Finding } from '../../model/finding.ts';
import { featureGate } from '../../catalog/feature-gates.ts';
import type { Rule } from '../../rules/types.ts';

export const nodeadmKubeletGate: Rule = {
  id: 'nodeadm-kubelet-gate',
  summary: "a Kubernetes feature gate in nodeadm's spec.featureGates, which only holds nodeadm's own gates",
  severity: 'warning',
  fix: false,
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    if (node.platform?.tool !== 'nodeadm') return out;
    for (const g of node.platform.gates) {
      if (!featureGate(g.name)) continue;
      out.push(finding('nodeadm-kubelet-gate', 'warning', g.span,
        `${g.name} is a kubelet feature gate, but spec.featureGates holds only nodeadm's own gates. It never reaches the kubelet: set it under spec.kubelet.config.featureGates.`));
    }
    return out;
  },
};
