/**
 * Everything the language server runs that is not the protocol: the engine and the editor features. Bundled
 * on its own (dist/server-engine.js) and loaded on first use through engine() in engine-loader.ts.
 */
export { analyze } from '../engine.ts';
export { parseCapacityOrType } from '../node/instance-capacity.ts';
export { fixProblem } from '../features/fix-check.ts';
export { detectKind, looksLikeEnvFile } from '../registry.ts';
export { ParseCache } from '../node/parse-cache.ts';
export { allocatableForFile } from '../features/allocatable-data.ts';
export { codeActions } from '../features/code-actions.ts';
export { suppressionActions } from '../features/suppress-actions.ts';
export { diagnosticsFor, pathsWithFindings } from '../features/diagnostics.ts';
export { effectiveConfiguration } from '../features/effective-config.ts';
// Hover, completion, inlay hints, code lenses, links, definitions and refactors reach into the payloads of carrier files (features/embedded.ts).
export {
  codeLensesIn as codeLenses, completionAt as completion, definitionIn as definition, documentLinksIn as documentLinks, hoverAt as hover, inlayHintsIn as inlayHints,
  refactorActionsAt as refactorActions,
} from '../features/embedded.ts';
export { documentSymbols, foldingRanges } from '../features/symbols.ts';
