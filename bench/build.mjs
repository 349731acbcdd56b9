// Bundles bench/entry.ts like /work/main/build.mjs bundles the shipped code
// (minified, platform node, module-first), so the engine scenarios time the
// same kind of code the CLI and the language server run.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ENGINE_BUNDLE = join(root, 'node_modules', '.cache', 'kubelet-bench', 'engine.cjs');

export const PROFILE_BUNDLE = join(root, 'node_modules', '.cache', 'kubelet-bench', 'engine-profile.cjs');

/** The bench bundle; `{ profile: true }` keeps names and layout readable (for bench/profile.mjs). */
export async function buildBench({ profile = false } = {}) {
  const outfile = profile ? PROFILE_BUNDLE : ENGINE_BUNDLE;
  await build({
    absWorkingDir: root,
    entryPoints: ['bench/entry.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: !profile,
    sourcemap: true,
    logLevel: 'warning',
    mainFields: ['module', 'main'],
    define: { PACKAGE_VERSION: '"bench"' },
  });
  return outfile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(await buildBench({ profile: process.argv.includes('--profile') }));
}
