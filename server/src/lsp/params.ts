/**
 * Checks of request and notification params a handler reads (issue #28): a hover without a position, a codeAction
 * with `context: null`, a didChange without `text` answered with stack traces in the log. A request with params the
 * protocol does not allow answers InvalidParams (JSON-RPC -32602) naming what is missing; a notification, which has
 * no answer, is ignored with one line in the log.
 */
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver';

const isCount = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 0;

export function isPosition(p: unknown): boolean {
  const x = p as { line?: unknown; character?: unknown } | null;
  return typeof x === 'object' && x !== null && isCount(x.line) && isCount(x.character);
}

export function isRange(r: unknown): boolean {
  const x = r as { start?: unknown; end?: unknown } | null;
  return typeof x === 'object' && x !== null && isPosition(x.start) && isPosition(x.end);
}

/** An object with a start and an end of numeric line and character, whatever their values. */
function isRangeShape(r: unknown): boolean {
  const pos = (p: unknown) => typeof p === 'object' && p !== null && typeof (p as { line?: unknown }).line === 'number' && typeof (p as { character?: unknown }).character === 'number';
  const x = r as { start?: unknown; end?: unknown } | null;
  return typeof x === 'object' && x !== null && pos(x.start) && pos(x.end);
}

export function invalidParams(method: string, what: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `${method}: ${what}`);
}

/** Throws InvalidParams unless `p.position` is an LSP Position. */
export function needPosition(method: string, p: { position?: unknown } | null | undefined): void {
  if (!isPosition(p?.position)) throw invalidParams(method, 'params.position must be a Position ({ line, character }, whole numbers from 0)');
}

/** Throws InvalidParams unless `p` has a Range and a CodeActionContext with a diagnostics array. */
export function needCodeActionParams(p: { range?: unknown; context?: unknown } | null | undefined): void {
  if (!isRange(p?.range)) throw invalidParams('textDocument/codeAction', 'params.range must be a Range');
  const c = p?.context as { diagnostics?: unknown } | null | undefined;
  if (typeof c !== 'object' || c === null || !Array.isArray(c.diagnostics)) throw invalidParams('textDocument/codeAction', 'params.context must be a CodeActionContext with a diagnostics array');
}

/** Why a didChange's content changes cannot be applied, or undefined. */
export function badContentChanges(p: { contentChanges?: unknown } | null | undefined): string | undefined {
  const changes = p?.contentChanges;
  if (!Array.isArray(changes)) return 'contentChanges is not an array';
  for (const c of changes as { text?: unknown; range?: unknown }[]) {
    if (typeof c !== 'object' || c === null || typeof c.text !== 'string') return 'a content change has no text';
    // (Numbers out of range are clamped by the document manager, as vscode-languageserver-textdocument does.)
    if (c.range !== undefined && !isRangeShape(c.range)) return 'a content change has a range that is not a Range';
  }
  return undefined;
}

/**
 * The connection as TextDocuments.listen() sees it: didChange notifications whose changes cannot be applied are
 * ignored with one line in the log (the document keeps its text) instead of throwing in the document manager.
 */
export function guardedDocumentsConnection(connection: Connection, warn: (m: string) => void): Connection {
  const guarded = Object.create(connection) as Connection;
  guarded.onDidChangeTextDocument = (handler) =>
    connection.onDidChangeTextDocument((params) => {
      const why = badContentChanges(params);
      if (why) {
        warn(`textDocument/didChange ignored: ${why} (${typeof params?.textDocument?.uri === 'string' ? params.textDocument.uri : 'no uri'}).`);
        return;
      }
      return handler(params);
    });
  return guarded;
}
