/**
 * The engine and the features, loaded when first needed. Parsing and compiling their ~500 KB of code
 * took 20–30 ms of every server start, before it could answer `initialize` (bench: cold-start); now the
 * first analysis pays for it, once. The build defines SERVER_ENGINE_FILE (dist/server-engine.js, next
 * to dist/server.js); run from source, and in the web worker's bundle (one file), the module is required directly.
 */
import type * as EngineSide from './engine-side.ts';

declare const SERVER_ENGINE_FILE: string | undefined;

let loaded: typeof EngineSide | undefined;

export function engine(): typeof EngineSide {
  if (!loaded) {
    loaded = (typeof SERVER_ENGINE_FILE === 'string' ? require(`${__dirname}/${SERVER_ENGINE_FILE}`) : require('./engine-side.ts')) as typeof EngineSide;
  }
  return loaded;
}
