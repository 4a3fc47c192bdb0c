// How an error is written to the log, on every path that logs `{ err }` (the error handler, jobs, the
// socket, storage and mail failures): with what a developer needs, never the values of a query.
// Drizzle's query error carries every bound parameter (argon2 hashes, e-mails, message
// text) in its `params` and in its very message; PGlite adds `params` to its own errors; PostgreSQL's
// `detail` repeats values ("Key (email)=(ada@stanford.edu) already exists"), `where` may quote a
// parameter, and a data error's message ends with the value it could not read. Kept: the SQL text,
// the SQLSTATE code, the constraint, table, column and routine, and the stack.

/** Fields that hold the values of a query, dropped wherever they appear in the chain of causes. */
const VALUE_FIELDS = new Set(['params', 'parameters', 'queryOptions', 'detail', 'where', 'internalQuery']);

/** Drizzle's "Failed query: <sql>\nparams: <values>": the SQL stays, the values go. */
const DRIZZLE_PARAMS = /\nparams: [\s\S]*$/;
/** PostgreSQL's data errors end with the value quoted: `invalid input syntax for type uuid: "…"`. */
const QUOTED_VALUE = /: ".*"$/s;

export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

function safeMessage(error: Error & { query?: unknown }): string {
  let message = String(error.message ?? '');
  if (typeof error.query === 'string' || DRIZZLE_PARAMS.test(message)) {
    message = message.replace(DRIZZLE_PARAMS, '');
  }
  // SQLSTATE class 22 (data exception) and 23 (integrity) messages are the ones that quote values.
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^2[23]/.test(code)) message = message.replace(QUOTED_VALUE, ': "…"');
  return message;
}

function isErrorLike(value: unknown): value is Error {
  return (
    value instanceof Error ||
    (typeof value === 'object' && value !== null && 'message' in value && 'stack' in value)
  );
}

function isLogged(value: unknown): value is LoggedError {
  return typeof value === 'object' && value !== null && 'type' in value && 'message' in value;
}

/** The error as the log should see it: its own safe fields, and its causes the same way. */
export function serializeError(value: unknown, depth = 0): unknown {
  if (!isErrorLike(value)) return value;
  const error = value as Error & Record<string, unknown>;
  const message = safeMessage(error);
  const type = error.constructor?.name || error.name || 'Error';
  const logged: LoggedError = { type, message, stack: '' };
  if (typeof error.stack === 'string') {
    // The stack's first line repeats the message, values included.
    const head = `${error.name}: ${String(error.message ?? '')}`;
    logged.stack = error.stack.startsWith(head)
      ? `${error.name}: ${message}${error.stack.slice(head.length)}`
      : error.stack.replace(String(error.message ?? ''), message);
  }
  for (const [key, field] of Object.entries(error)) {
    if (VALUE_FIELDS.has(key) || key === 'cause' || key in logged) continue;
    if (typeof field === 'function') continue;
    logged[key] = isErrorLike(field) ? serializeError(field, depth + 1) : field;
  }
  // A cause may be an own property (Drizzle) or not enumerable (`new Error(m, { cause })`).
  if (error.cause !== undefined && depth < 5) {
    const cause = serializeError(error.cause, depth + 1);
    // PGlite repeats Drizzle's statement on its own error: once is enough.
    if (isLogged(cause) && cause.query === logged.query) delete cause.query;
    logged.cause = cause;
  }
  return logged;
}

/** pino's `err` serializer: anything logged as `{ err }` (or `{ error }`) goes through it. */
export function logError(error: Error): LoggedError {
  return serializeError(error) as LoggedError;
}
