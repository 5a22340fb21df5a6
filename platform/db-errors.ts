/**
 * Whether an error means "PostgreSQL cannot be reached right now" (down, restarting, in crash
 * recovery, the connection cut) rather than a fault of the request or of the code. The api answers
 * those with 503 and Retry-After instead of 500; the check activities wait for the database
 * instead of spending their engine retries on it (activities/database-wait.ts).
 *
 * SQLSTATE classes: 08 connection exception; 57P01 admin shutdown, 57P02 crash shutdown,
 * 57P03 cannot connect now (starting up, recovering); 53300 too many connections. Node socket
 * codes for a server that is not there. The pg driver's own messages for a cut connection carry
 * no code, hence the messages.
 */
const SQLSTATES = /^(08...|57P0[123]|53300)$/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const MESSAGES = /Connection terminated|connection terminated|terminating connection|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|timeout exceeded when trying to connect|Connection ended unexpectedly|read ECONNRESET|connect ECONNREFUSED|Client was closed and is not queryable|Cannot use a pool after calling end/;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; sqlState?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.sqlState === 'string' ? e.sqlState : '';
  if (SQLSTATES.test(code) || SOCKET_CODES.has(code)) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
