/**
 * nodeadm's maxPodsExpression computes maxPods (and the kubeReserved memory sized from it), but "any MaxPods value
 * set in Config takes precedence over the result of this expression. If the expression is successfully evaluated,
 * kubeReserved will always be calculated on its result" (awslabs/amazon-eks-ami
 * nodeadm/api/v1alpha1/nodeconfig_types.go, nodeadm v20260724). Both set: the kubelet admits kubelet.config.maxPods
 * pods while its reservation is sized for the expression's count.
 */
import { finding, type Finding } from '../../model/finding.ts';
import type { Span } from '../../model/range.ts';
import type { Rule } from '../../rules/types.ts';

export const nodeadmMaxPodsExpressionIgnored: Rule = {
  id: 'nodeadm-max-pods-expression-ignored',
  summary: 'kubelet.config.maxPods set beside maxPodsExpression: the pod limit ignores the expression, the reservation does not',
  severity: 'warning',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const expr = node.platform?.tool === 'nodeadm' ? (node.platform.facts?.maxPodsExpression as { text: string; span: Span } | undefined) : undefined;
    const s = node.settings.get('maxPods');
    if (!expr || s?.kind !== 'scalar' || !s.span || s.from.how === 'platform') return out;
    out.push(finding('nodeadm-max-pods-expression-ignored', 'warning', s.span,
      `maxPods ${s.text} overrides maxPodsExpression, but nodeadm still sizes kubeReserved for the expression's result. The kubelet admits up to ${s.text} pods while the reservation follows "${expr.text}"; keep one of the two.`,
      { related: [{ span: expr.span, message: 'the maxPodsExpression that no longer sets maxPods' }] }));
    return out;
  },
};
