/**
 * The suppression comments (parse/suppressions.ts reads them; the "Disable ..." code actions of
 * features/suppress-actions.ts write them). See README "Silencing a finding".
 */
export const DISABLE_NEXT_LINE = 'kubelet-lint-disable-next-line';
export const DISABLE_LINE = 'kubelet-lint-disable-line';
export const DISABLE_FILE = 'kubelet-lint-disable-file';
/** The `line` of a file-wide suppression. */
export const FILE_WIDE = -1;
