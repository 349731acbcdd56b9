/** Handlers never crash the server: an exception becomes a logged error and an empty result; cancellation answers empty. */
import type { CancellationToken } from 'vscode-languageserver';

export interface Logger {
  error(message: string): void;
}

export function runSafe<T>(log: Logger, name: string, empty: T, token: CancellationToken | undefined, fn: () => T): T {
  if (token?.isCancellationRequested) return empty;
  try {
    const r = fn();
    return token?.isCancellationRequested ? empty : r;
  } catch (e) {
    log.error(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return empty;
  }
}

export async function runSafeAsync<T>(log: Logger, name: string, empty: T, token: CancellationToken | undefined, fn: () => Promise<T>): Promise<T> {
  if (token?.isCancellationRequested) return empty;
  try {
    const r = await fn();
    return token?.isCancellationRequested ? empty : r;
  } catch (e) {
    log.error(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return empty;
  }
}
