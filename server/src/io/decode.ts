/**
 * What every edge shares about a file's bytes, without touching the disk (the browser edge uses it too): the size
 * limit and the one decoding (io/read-file.ts says why it keeps a byte order mark and NUL bytes).
 */

/** Files larger than this are not read; real kubelet configurations are a few KiB. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export function decodeSource(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
}
