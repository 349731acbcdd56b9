/**
 * server/src/lsp/framing.ts: the filter in front of vscode-jsonrpc's reader.
 * Well-formed messages must come out byte for byte whatever the chunking;
 * bytes that are not a message must cost only themselves.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameFilter } from '../../server/src/lsp/framing.ts';

const frame = (o: unknown, header = '') => {
  const body = Buffer.from(JSON.stringify(o), 'utf8');
  return Buffer.concat([Buffer.from(`${header}Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
};

/** Feeds `input` in chunks cut at `cuts` (offsets), returns the bodies that came out and the drops reported. */
function run(input: Buffer, cuts: number[]): { bodies: string[]; dropped: number } {
  const f = new FrameFilter();
  let dropped = 0;
  f.onDrop = (n) => (dropped += n);
  const out: Buffer[] = [];
  f.on('data', (d: Buffer) => out.push(d));
  let at = 0;
  for (const c of [...cuts.filter((x) => x > 0 && x < input.length).sort((a, b) => a - b), input.length]) {
    if (c > at) f.write(input.subarray(at, c));
    at = c;
  }
  const all = Buffer.concat(out);
  const bodies: string[] = [];
  for (let i = 0; i < all.length; ) {
    const end = all.indexOf('\r\n\r\n', i);
    const m = /^Content-Length: (\d+)$/.exec(all.subarray(i, end).toString('ascii'));
    assert.ok(m, `the filter wrote a plain header: ${all.subarray(i, end).toString('ascii')}`);
    bodies.push(all.subarray(end + 4, end + 4 + Number(m[1])).toString('utf8'));
    i = end + 4 + Number(m[1]);
  }
  return { bodies, dropped };
}

/** Deterministic chunkings: none, every byte, and pseudo-random cuts. */
function chunkings(len: number): number[][] {
  const out: number[][] = [[], Array.from({ length: Math.min(len, 4000) }, (_, i) => i)];
  let seed = 7;
  for (let k = 0; k < 20; k++) {
    const cuts: number[] = [];
    for (let i = 0; i < 12; i++) cuts.push((seed = (seed * 1103515245 + 12345) % 2147483648) % len);
    out.push(cuts);
  }
  return out;
}

const MESSAGES = [
  { jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///x' }, position: { line: 0, character: 0 } } },
  // Text that looks like a header inside a string: JSON escapes its CR/LF, so it is no header.
  { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///h', text: 'Content-Length: 5\r\n\r\n{}\nContent-Length:12\r\n' } } },
  { jsonrpc: '2.0', method: 'x', params: { text: 'ünïcødé ✓ 𝄞 '.repeat(50) } },
  { jsonrpc: '2.0', method: 'big', params: { text: 'KUBELET_EXTRA_ARGS=--v=2\n'.repeat(20000) } },
];

test('well-formed messages pass unchanged whatever the chunking, nothing reported as dropped', () => {
  const input = Buffer.concat([...MESSAGES.map((m) => frame(m)), frame(MESSAGES[0], 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n')]);
  const want = [...MESSAGES, MESSAGES[0]].map((m) => JSON.stringify(m));
  for (const cuts of chunkings(input.length)) {
    const r = run(input, cuts);
    assert.deepEqual(r.bodies, want);
    assert.equal(r.dropped, 0);
  }
});

const GARBAGE: [string, Buffer][] = [
  ['a stray line', Buffer.from('hello, not a message\n')],
  ['garbage and a blank line', Buffer.from('garbage\r\n\r\n')],
  ['a header without Content-Length', Buffer.from('Content-Type: application/json\r\n\r\n{}')],
  ['a length that is not a number', Buffer.from('Content-Length: abc\r\n\r\n{}')],
  ['a partial header name', Buffer.from('Content-Len')],
  ['a header line without a colon', Buffer.from('Content-Length: 2\r\nnonsense\r\n\r\n{}')],
  ['a too large length', Buffer.from('Content-Length: 100000\r\n\r\n{"jsonrpc":"2.0"')],
];

for (const [name, junk] of GARBAGE) {
  test(`${name}: the messages after it come through intact`, () => {
    const after = MESSAGES.slice(0, 3).map((m) => frame(m));
    const input = Buffer.concat([frame(MESSAGES[0]), junk, ...after]);
    for (const cuts of chunkings(input.length)) {
      const r = run(input, cuts);
      assert.deepEqual(r.bodies.slice(-3), MESSAGES.slice(0, 3).map((m) => JSON.stringify(m)), `cut at ${cuts.length > 20 ? "every byte" : cuts}`);
      assert.equal(r.bodies[0], JSON.stringify(MESSAGES[0]));
      assert.ok(r.dropped > 0, 'the junk is reported');
    }
  });
}

test('a too small length: the cut body goes on (the reader reports it), its rest is dropped, the next message is intact', () => {
  const body = JSON.stringify(MESSAGES[0]);
  const input = Buffer.concat([Buffer.from(`Content-Length: 10\r\n\r\n${body}`), frame(MESSAGES[1])]);
  for (const cuts of chunkings(input.length)) {
    const r = run(input, cuts);
    assert.deepEqual(r.bodies, [body.slice(0, 10), JSON.stringify(MESSAGES[1])]);
  }
});
