/**
 * @module core/db/unavailable
 * Tells "the database cannot be reached right now" apart from every other failure, so that callers
 * hear a retryable 503 while PostgreSQL restarts or fails over, not a 500 that reads like a bug.
 */

/**
 * SQLSTATE classes and codes of a server that is going away, not yet accepting connections, or
 * too busy to finish a statement within the statement timeout (57014, query_canceled: the only
 * cancellations we issue are the server's own timeouts).
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
/** Socket-level failures on the way to the server (refused while it restarts, cut when it crashed). */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres reports a connection that ended under it only in its message. */
const UNAVAILABLE_MESSAGES = [/^Connection terminated/, /^Client has encountered a connection error/, /timeout exceeded when trying to connect/];

/** Whether `err` (or its cause) says the database is unreachable for now, rather than the query being wrong. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (UNAVAILABLE_MESSAGES.some((m) => m.test(e.message))) return true;
  }
  return false;
}
