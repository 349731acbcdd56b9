// Preloaded into the language server by stress.test.ts (node --expose-gc --require): SIGUSR2 runs two
// full garbage collections and writes "gc-done" to stderr, so the test reads the server's RSS
// (/proc/<pid>/status) without uncollected garbage in it. The server code is unchanged; nothing here
// is reachable from the protocol.
'use strict';
if (typeof global.gc === 'function') {
  process.on('SIGUSR2', () => {
    global.gc();
    global.gc();
    const m = process.memoryUsage();
    process.stderr.write(`gc-done ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external })}\n`);
  });
}
