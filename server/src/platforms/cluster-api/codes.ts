/** The codes this platform's readers report (rules/parser-codes.ts says why codes have metadata). */
import type { RuleMeta } from '../../rules/types.ts';

export const CODES: readonly RuleMeta[] = [
  { id: 'capi-extra-args-duplicate', area: 'parsers', severity: 'error', fix: false, summary: 'a flag named twice in a Cluster API v1beta2 `kubeletExtraArgs` list, which its API refuses' },
];
