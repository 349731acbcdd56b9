/**
 * A maxPods above the pod addresses an EC2 instance type gets from the AWS VPC CNI without prefix delegation: ENIs ×
 * (IPv4 addresses per ENI − 1) + 2 (awslabs/amazon-eks-ami templates/shared/runtime/eni-max-pods.txt; the same
 * formula as aws/karpenter-provider-aws pkg/providers/instancetype/types.go ENILimitedPods, v1.14.1). The kubelet
 * admits maxPods pods (capped by podsPerCore × cores) and Karpenter packs that many onto the node, but pods past the
 * CNI's addresses stay in ContainerCreating. Prefix delegation or another CNI lifts the limit, which the node's files
 * do not show: information, not a warning. Only instance types the file names are compared (node/model.ts
 * PlatformInfo.instanceTypes); a requirement by category or size names none.
 */
import { instanceType } from '../../catalog/instance-types.ts';
import { finding, type Finding } from '../../model/finding.ts';
import { numberSetting } from '../../node/read.ts';
import type { Rule } from '../../rules/types.ts';

export const maxPodsAboveEniLimit: Rule = {
  id: 'max-pods-above-eni-limit',
  summary: "maxPods above the VPC CNI's pod addresses on an instance type the file names (without prefix delegation)",
  severity: 'information',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const named = node.platform?.instanceTypes;
    const s = node.settings.get('maxPods');
    if (!named?.length || s?.kind !== 'scalar' || !s.span || s.from.how === 'platform' || s.template) return out;
    const maxPods = numberSetting(node, 'maxPods', 110);
    const perCore = Math.trunc(numberSetting(node, 'podsPerCore', 0));
    const over: string[] = [];
    const seen = new Set<string>();
    for (const { name } of named) {
      const t = instanceType(name);
      if (!t || t.maxPods === undefined || seen.has(t.name)) continue;
      seen.add(t.name);
      const pods = perCore > 0 ? Math.min(maxPods, perCore * t.vcpu) : maxPods;
      if (pods > t.maxPods) over.push(`${t.name} (${t.maxPods})`);
    }
    if (over.length === 0) return out;
    out.push(finding('max-pods-above-eni-limit', 'information', s.span,
      `maxPods ${s.text} is above the pod addresses the VPC CNI gives ${over.length === 1 ? `${over[0]}.` : `${over.length} of the named instance types. They are ${over.join(', ')}.`} ` +
        'Without prefix delegation, pods past that count get no IP address and stay in ContainerCreating, although the kubelet ' +
        'and Karpenter count room for them. With prefix delegation (ENABLE_PREFIX_DELEGATION) or another CNI this is fine.'));
    return out;
  },
};
