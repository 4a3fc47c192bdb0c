// Whether an error means "the database cannot be reached right now" rather than "this query is wrong":
// the connection was cut (a restart, a failover, pg_terminate_backend), could not be made, or the
// server refuses connections for the moment. Such a request answers 503 (http/error-replies.ts): the client
// may try again, and nothing about the request itself was at fault.

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres's own words for a connection that is gone or never came. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

function unavailableItself(error: { code?: unknown; severity?: unknown; message?: unknown }): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  if (NETWORK_CODES.has(code)) return true;
  // SQLSTATE class 08 (connection exception), 57P01–57P03 (terminated by an administrator, a crash
  // shutdown, cannot connect now), 53300 (too many connections).
  if (/^08/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
  // A FATAL error ends the session: whatever it says, this connection is gone.
  if (error.severity === 'FATAL') return true;
  const message = typeof error.message === 'string' ? error.message : '';
  return DRIVER_MESSAGES.some((text) => message.includes(text));
}

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error as `cause`; look a few levels down.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (unavailableItself(current as Record<string, unknown>)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
