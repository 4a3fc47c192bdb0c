// Typed errors that services throw; the error handler turns them into the API's error shape.

export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A refusal for now (a limit reached, a queue full): the answer carries `Retry-After`. */
export class RetryLaterError extends AppError {
  constructor(
    statusCode: 429 | 503,
    code: string,
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(statusCode, code, message);
    this.name = 'RetryLaterError';
  }
}

export const badRequest = (message: string, issues?: { path: string; message: string }[]) =>
  new AppError(400, 'BAD_REQUEST', message, issues);
export const unauthorized = (message = 'Please sign in to continue.') =>
  new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do that.') =>
  new AppError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found.') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);
