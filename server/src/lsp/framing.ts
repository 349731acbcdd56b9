/**
 * Re-frames the bytes the client writes to stdin before vscode-jsonrpc reads
 * them, so that bytes which are not a message cost only themselves.
 *
 * vscode-jsonrpc's reader (messageReader.ts, ReadableStreamMessageReader)
 * stops at a header it cannot read but has already consumed it: the body that
 * follows is then taken for the next header, and so is every later message.
 * The server stays up but never answers again. Here:
 *  - bytes before a `Content-Length: N` header (a stray line, a header
 *    without a length or with a length that is not a number) are dropped;
 *  - a body in which another header appears (its Content-Length was too
 *    large) is dropped up to where that header starts. A JSON text never
 *    holds `Content-Length: <digits>` followed by a raw CR: letters appear
 *    outside strings only in true/false/null, and strings cannot hold a raw CR;
 *  - a body cut short by a too small Content-Length goes through (the reader
 *    reports a JSON error for it) and the rest of it is dropped.
 * A message is passed on once it is complete, with a plain Content-Length header.
 */
import { Transform, type TransformCallback } from 'node:stream';

const NAME = /content-length:/i;
/** The rest of a header from its Content-Length line: the length, other header lines, the blank line. */
const HEADER = /^Content-Length:[ \t]*(\d+)[ \t]*\r\n(?:[A-Za-z0-9-]+:[^\r\n]*\r\n)*\r\n/i;
const HEADER_LINES = /^(?:[A-Za-z0-9-]+:[^\r\n]*\r\n)*$/;
/** A header is far shorter than this. */
const MAX_HEADER = 4096;
/** Longer than "Content-Length: <digits>\r": a header split across two chunks is still found. */
const TAIL = 48;

export class FrameFilter extends Transform {
  /** Bytes not yet known to be a header (latin1: one char per byte). */
  private head = '';
  /** Body bytes of the message being read, and how many it needs (-1: reading a header). */
  private body: Buffer[] = [];
  private have = 0;
  private need = -1;
  /** The last body bytes taken, to find a header that starts in one chunk and ends in the next. */
  private tail: Buffer = Buffer.alloc(0);

  /** Told about dropped bytes (for the server log). */
  onDrop: (bytes: number, why: string) => void = () => {};

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      while (chunk.length) chunk = this.need < 0 ? this.takeHeader(chunk) : this.takeBody(chunk);
      done();
    } catch (e) {
      done(e as Error);
    }
  }

  /** Looks for the next header; returns the bytes after it (the body's start), or nothing while waiting for more. */
  private takeHeader(chunk: Buffer): Buffer {
    this.head += chunk.toString('latin1');
    for (;;) {
      const i = this.head.search(NAME);
      if (i < 0) {
        if (this.head.length > TAIL) this.discard(this.head.length - TAIL, 'bytes that are not a message');
        return Buffer.alloc(0);
      }
      const at = this.head.slice(i, i + MAX_HEADER);
      const m = HEADER.exec(at);
      if (m) {
        // Header lines before Content-Length (Content-Type) are fine; anything else there is dropped.
        const before = this.head.slice(0, i);
        if (before && !HEADER_LINES.test(before)) this.onDrop(i, 'bytes before a header');
        const rest = Buffer.from(this.head.slice(i + m[0].length), 'latin1');
        this.head = '';
        this.need = Number(m[1]);
        this.body = [];
        this.have = 0;
        if (this.need === 0) this.emitMessage();
        return rest;
      }
      if (at.includes('\r\n\r\n') || at.length >= MAX_HEADER) {
        this.discard(i + 1, 'a header that cannot be read');
        continue;
      }
      return Buffer.alloc(0); // the header is not complete yet
    }
  }

  /** Adds body bytes; returns what follows the message (or a header found inside its body). */
  private takeBody(chunk: Buffer): Buffer {
    const part = chunk.length > this.need - this.have ? chunk.subarray(0, this.need - this.have) : chunk;
    // A header may start in the last bytes already taken (chunks can be a single byte): scan across the seam first.
    const seam = Buffer.concat([this.tail, part.subarray(0, TAIL)]);
    const s = headerInside(seam);
    const at = s >= 0 && s < this.tail.length ? s - this.tail.length : headerInside(part);
    if (at !== -1) {
      // The declared length ran into the next message: drop this one, read on from that header.
      this.onDrop(this.have + at, 'a message whose Content-Length runs into the next one');
      const resume = at < 0 ? Buffer.concat([this.tail.subarray(this.tail.length + at), chunk]) : chunk.subarray(at);
      this.need = -1;
      this.body = [];
      this.have = 0;
      this.tail = Buffer.alloc(0);
      return resume;
    }
    this.body.push(part);
    this.have += part.length;
    this.tail = part.length >= TAIL ? part.subarray(part.length - TAIL) : Buffer.concat([this.tail, part]).subarray(-TAIL);
    if (this.have === this.need) this.emitMessage();
    return chunk.subarray(part.length);
  }

  private emitMessage(): void {
    this.push(Buffer.from(`Content-Length: ${this.need}\r\n\r\n`, 'ascii'));
    for (const b of this.body) this.push(b);
    this.need = -1;
    this.body = [];
    this.have = 0;
    this.tail = Buffer.alloc(0);
  }

  private discard(n: number, why: string): void {
    this.head = this.head.slice(n);
    this.onDrop(n, why);
  }
}

/** Start of a `Content-Length: <digits>` + CR inside body bytes, or -1. */
function headerInside(b: Buffer): number {
  for (let from = 0; ; ) {
    const a = b.indexOf('Content-Length', from, 'latin1');
    const c = b.indexOf('content-length', from, 'latin1');
    const i = a < 0 ? c : c < 0 ? a : Math.min(a, c);
    if (i < 0) return -1;
    if (/^Content-Length:[ \t]*\d+[ \t]*\r/i.test(b.subarray(i, i + TAIL).toString('latin1'))) return i;
    from = i + 1;
  }
}
