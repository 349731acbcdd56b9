// One build for every bundle: the CLI, the language server and the VS Code client.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { yamlBrowserBuild } from './scripts/esbuild-yaml.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const serverLaunch = JSON.parse(readFileSync('client/server-node-flags.json', 'utf8'));

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
  define: { PACKAGE_VERSION: JSON.stringify(pkg.version), PACKAGE_HOMEPAGE: JSON.stringify(pkg.homepage ?? ''), SERVER_NODE_FLAGS: JSON.stringify(serverLaunch.flags), SERVER_ENV: JSON.stringify(serverLaunch.env ?? {}) },
};

/**
 * vscode-jsonrpc and vscode-languageserver require `crypto` and `child_process` as they load, for pipe names, UUIDs
 * and npm/yarn path lookups that a server speaking over stdio does not use before (or usually at all) it answers
 * `initialize`. Node loads those builtins (with dgram, ~20 internal modules) in ~6 ms. In the server bundle the two
 * requires return an object that loads the builtin on its first property access instead; every use in those
 * libraries is a property access (`(0, crypto_1.randomBytes)(16)`), so behaviour is unchanged.
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^(crypto|child_process)$/ }, (args) =>
      /node_modules[\\/]vscode-(jsonrpc|languageserver)[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      loader: 'js',
      contents: `let m;
const load = () => (m ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy({}, {
  get: (_t, k) => load()[k],
  has: (_t, k) => k in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_t, k) => {
    const d = Object.getOwnPropertyDescriptor(load(), k);
    if (d) d.configurable = true;
    return d;
  },
});
`,
    }));
  },
};

const entries = [
  { in: 'server/src/cli/main.ts', out: 'dist/cli.js', banner: '#!/usr/bin/env node' },
  // The server answers `initialize` before it loads the engine and the features (server/src/lsp/engine-loader.ts).
  { in: 'server/src/lsp/main.ts', out: 'dist/server.js', banner: '#!/usr/bin/env node', plugins: [lazyBuiltins], define: { SERVER_ENGINE_FILE: '"server-engine.js"' } },
  { in: 'server/src/lsp/engine-side.ts', out: 'dist/server-engine.js' },
  { in: 'client/src/extension.ts', out: 'dist/client.js', external: ['vscode'] },
  // VS Code for the Web (package.json `browser`): the client in the browser extension host, the whole server (engine
  // included: a worker loads one file) in a web worker. The engine's few Buffer calls get server/src/web/buffer.ts.
  { in: 'client/src/extension-web.ts', out: 'dist/web/client.js', external: ['vscode'], web: 'cjs' },
  { in: 'server/src/web/main.ts', out: 'dist/web/server.js', web: 'iife', inject: ['server/src/web/buffer.ts'], define: { SERVER_ENGINE_FILE: 'undefined' } },
];

/** A bundle for the browser: no Node builtins, the packages' browser builds. */
const webOptions = (format) => ({ platform: 'browser', target: 'es2022', format, mainFields: ['browser', 'module', 'main'] });

// Each bundle's esbuild metafile (what each input contributes) goes outside dist/, so it is not packaged: the
// bench reads it to tell the LSP libraries' bytes from the project's own (bench/lsp-scenarios.mjs bundleScenario).
const META = 'node_modules/.cache/kubelet-build';
mkdirSync(META, { recursive: true });

await Promise.all(
  entries
    .filter((e) => existsSync(e.in))
    .map(async (e) => {
      const r = await build({
        ...common,
        ...(e.web ? webOptions(e.web) : {}),
        entryPoints: [e.in],
        inject: e.inject ?? [],
        outfile: e.out,
        external: e.external ?? [],
        banner: e.banner ? { js: e.banner } : undefined,
        plugins: [yamlBrowserBuild(process.cwd()), ...(e.plugins ?? [])],
        define: { ...common.define, ...e.define },
        metafile: true,
      });
      // dist/web/server.js is web-server.meta.json, beside server.meta.json.
      writeFileSync(`${META}/${e.out.replace(/^dist\//, '').replace(/\.js$/, '').replaceAll('/', '-')}.meta.json`, JSON.stringify(r.metafile));
    }),
);
