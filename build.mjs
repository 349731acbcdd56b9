// One build for every bundle: the CLI, the language server and the VS Code client.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
  // jsonc-parser's UMD main requires its modules dynamically; its ESM build bundles.
  mainFields: ['module', 'main'],
  define: { PACKAGE_VERSION: JSON.stringify(pkg.version) },
};

const entries = [
  { in: 'server/src/cli/main.ts', out: 'dist/cli.js', banner: '#!/usr/bin/env node' },
  { in: 'server/src/lsp/main.ts', out: 'dist/server.js', banner: '#!/usr/bin/env node' },
  { in: 'client/src/extension.ts', out: 'dist/client.js', external: ['vscode'] },
];

await Promise.all(
  entries
    .filter((e) => existsSync(e.in))
    .map((e) =>
      build({
        ...common,
        entryPoints: [e.in],
        outfile: e.out,
        external: e.external ?? [],
        banner: e.banner ? { js: e.banner } : undefined,
      }),
    ),
);
