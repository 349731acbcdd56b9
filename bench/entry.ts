/**
 * What the benchmark runs, bundled by bench/build.mjs exactly like the
 * shipped bundles (minified, platform node, module-first): the engine, the
 * copy of `yaml` the engine is bundled with (the floor the YAML scenarios are
 * compared against), and the JSON schema of KubeletConfiguration generated
 * from the field catalog (for the yaml-language-server peer).
 */
export { analyze } from '../server/src/engine.ts';
export { diagnosticsFor } from '../server/src/features/diagnostics.ts';
export { ParseCache } from '../server/src/node/parse-cache.ts';
export { LineCounter, Parser, parseAllDocuments } from 'yaml';
export { kubeletConfigSchema } from './schema.ts';
// The CLI's stages (server/src/cli/main.ts), for the CLI scenarios (bench/cli-scenarios.mjs).
export { walk } from '../server/src/cli/walk.ts';
export { withSafeFixes } from '../server/src/features/fix-check.ts';
export { formatJson, jsonChunks } from '../server/src/cli/format-json.ts';
export { formatText } from '../server/src/cli/format-text.ts';
