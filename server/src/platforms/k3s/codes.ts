/** The codes this platform's readers report (rules/parser-codes.ts says why codes have metadata). */
import type { RuleMeta } from '../../rules/types.ts';

export const CODES: readonly RuleMeta[] = [
  {
    id: 'k3s-kubelet-arg-replaced', area: 'parsers', severity: 'warning', fix: true,
    fixDoes: 'names the later key `kubelet-arg+`, so that it adds to the list',
    summary: 'a k3s/RKE2 `kubelet-arg` list that a later config file (`config.yaml.d/`) replaces',
  },
];
