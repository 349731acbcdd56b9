/**
 * Handlers never crash the server: an exception becomes a logged error and an
 * empty result. A cancelled request answers the RequestCancelled error
 * (LSP 3.17 "Cancellation Support"), never the empty result: an empty
 * diagnostic report or hover would look like a real answer ("no problems
 * here") to a client that applies it.
 */
import { LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver';

export interface Logger {
  error(message: string): void;
}

export function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled');
}

function isCancelled(e: unknown): boolean {
  return e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled;
}

/** `fn` may return early with `empty` when it sees the token cancelled: that still answers RequestCancelled. */
export async function runSafeAsync<T>(log: Logger, name: string, empty: T, token: CancellationToken | undefined, fn: () => Promise<T>): Promise<T> {
  if (token?.isCancellationRequested) throw cancelled();
  let r: T;
  try {
    r = await fn();
  } catch (e) {
    if (isCancelled(e)) throw e; // a nested runSafeAsync saw the cancellation: not a failure
    log.error(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return empty;
  }
  if (token?.isCancellationRequested) throw cancelled();
  return r;
}
