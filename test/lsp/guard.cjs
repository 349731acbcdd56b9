// Preloaded into the language server by guard.test.ts (node --require): anything that would spawn a
// process, open a network connection or evaluate code throws and leaves a trace on stderr. The server
// needs none of them; vscode-languageserver/node bundles helpers that could, and this proves they stay uncalled.
'use strict';
const trip = (what) =>
  function () {
    const e = new Error(`guard: ${what} is not allowed in the language server`);
    process.stderr.write(`${e.stack}\n`);
    throw e;
  };
const cp = require('child_process');
for (const k of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) cp[k] = trip(`child_process.${k}`);
const net = require('net');
net.connect = trip('net.connect');
net.createConnection = trip('net.createConnection');
for (const m of ['http', 'https']) {
  const h = require(m);
  h.request = trip(`${m}.request`);
  h.get = trip(`${m}.get`);
}
globalThis.eval = trip('eval');
globalThis.Function = new Proxy(Function, { apply: trip('Function()'), construct: trip('new Function()') });
