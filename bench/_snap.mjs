import { createRequire } from 'node:module';
import { writeHeapSnapshot } from 'node:v8';
const [bundle, dir] = process.argv.slice(2);
const E = createRequire(import.meta.url)(bundle);
const { files } = E.walk([dir]);
globalThis.keep = E.analyze(files, {});
gc();
console.log(writeHeapSnapshot('/tmp/a.heapsnapshot'));
