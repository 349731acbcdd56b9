// An esbuild plugin for every bundle (build.mjs, bench/build.mjs): `yaml` is bundled from the library's own browser
// build. It is the same code and version as its node build (dist/), compiled as ES modules and without the node
// build's debugging hooks, which read `process.env.LOG_TOKENS` for every token the parser takes and
// `process.env.LOG_STREAM` for every document it composes (yaml 2.x dist/parse/parser.js, dist/compose/composer.js).
// Each read of process.env is a call into the C++ environment lookup: a third of the time of parsing a 30-line
// KubeletConfiguration (issue 29). The other differences do not reach us: warnings go to console.warn instead of
// process.emitWarning (both stderr), and !!binary gives an Uint8Array instead of a Buffer (the failsafe schema we read
// with has no !!binary).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function yamlBrowserBuild(root) {
  const dir = dirname(createRequire(join(root, 'package.json')).resolve('yaml/package.json'));
  return {
    name: 'yaml-browser-build',
    setup(b) {
      b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(dir, 'browser', 'index.js') }));
    },
  };
}
