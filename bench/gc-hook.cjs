// Preloaded into the language server by the memory scenario only (node --expose-gc -r bench/gc-hook.cjs dist/server.js):
// SIGUSR2 runs a full garbage collection and writes the heap figures to stderr (one line,
// `kubelet-bench-memory {...}`), so RSS can be read without uncollected garbage in it and
// a leak (heap grows) can be told from memory the allocator keeps (RSS grows, heap does not).
// The server itself is unchanged.
if (typeof global.gc === 'function') {
  process.on('SIGUSR2', () => {
    global.gc();
    const m = process.memoryUsage();
    process.stderr.write(`kubelet-bench-memory ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers })}\n`);
  });
}
