// Preloaded into the language server by the memory scenario only (node --expose-gc -r bench/gc-hook.cjs dist/server.js):
// SIGUSR2 runs two full garbage collections and writes the heap figures to stderr (one line,
// `kubelet-bench-memory {...}`), so RSS can be read without uncollected garbage in it and
// a leak (heap grows) can be told from memory the allocator keeps (RSS grows, heap does not).
// Two, as in test/lsp/gc-on-signal.cjs: the old-space pages a collection empties are given back to the
// system only at the next one (seen here: after 10,000 edits old space held 14 MB for 6 MB of live
// objects after one collection, 6.7 MB after two). The server itself is unchanged.
if (typeof global.gc === 'function') {
  process.on('SIGUSR2', () => {
    global.gc();
    global.gc();
    const m = process.memoryUsage();
    process.stderr.write(`kubelet-bench-memory ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers })}\n`);
  });
}
