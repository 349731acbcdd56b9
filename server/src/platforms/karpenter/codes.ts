/** The codes this platform's readers report (rules/parser-codes.ts says why codes have metadata). */
import type { RuleMeta } from '../../rules/types.ts';

export const CODES: readonly RuleMeta[] = [
  { id: 'karpenter-al2-userdata-on-al2023', area: 'parsers', severity: 'warning', fix: false, summary: 'Karpenter user data for AL2 (bootstrap.sh, KUBELET_EXTRA_ARGS, kubelet-config.json) on AL2023 nodes, where it does nothing' },
  { id: 'karpenter-kubelet-invalid', area: 'parsers', severity: 'error', fix: false, summary: 'Karpenter kubelet settings its API refuses although the kubelet takes them (signals, a grace period without a threshold)' },
  { id: 'karpenter-reserved-in-userdata', area: 'parsers', severity: 'warning', fix: false, summary: 'a reservation, eviction threshold or max pods the node takes from a Karpenter EC2NodeClass userData, which Karpenter does not schedule by' },
  { id: 'karpenter-userdata-overridden', area: 'parsers', severity: 'warning', fix: false, summary: "a kubelet setting in an AL2023 EC2NodeClass userData NodeConfig that Karpenter's own NodeConfig overrides (maxPods, keys spec.kubelet sets)" },
  { id: 'karpenter-kubelet-moved', area: 'parsers', severity: 'warning', fix: false, summary: 'a kubelet block in a karpenter.sh/v1 NodePool, which v1 moved to EC2NodeClass spec.kubelet' },
];
