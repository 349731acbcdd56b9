/** The codes this platform's readers report (rules/parser-codes.ts says why codes have metadata). */
import type { RuleMeta } from '../../rules/types.ts';

export const CODES: readonly RuleMeta[] = [
  {
    id: 'kind-api-version', area: 'parsers', severity: 'error', fix: true,
    fixDoes: 'sets `apiVersion` to `kind.x-k8s.io/v1alpha4`',
    summary: 'a kind cluster configuration on an apiVersion kind no longer reads',
  },
  {
    id: 'kind-patch-not-applied', area: 'parsers', severity: ['warning', 'information'], fix: false,
    summary: 'a kind kubeadmConfigPatches patch kind skips (another apiVersion than it generates) or whose kubeletExtraArgs map it drops',
  },
];
