// Bundles bench/entry.ts like /work/main/build.mjs bundles the shipped code
// (minified, platform node, module-first), so the engine scenarios time the
// same kind of code the CLI and the language server run.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { yamlBrowserBuild } from '../scripts/esbuild-yaml.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_CACHE_DIR: where the bundles go; worktrees that share one node_modules (a symlink) each set their own.
const cache = process.env.BENCH_CACHE_DIR ?? join(root, 'node_modules', '.cache', 'kubelet-bench');
export const ENGINE_BUNDLE = join(cache, 'engine.cjs');

export const PROFILE_BUNDLE = join(cache, 'engine-profile.cjs');

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
    plugins: [yamlBrowserBuild(root)],
  });
  return outfile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(await buildBench({ profile: process.argv.includes('--profile') }));
}
