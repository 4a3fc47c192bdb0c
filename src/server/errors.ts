import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

// Typed errors that services throw; the error handler turns them into the API's error shape.
// The message is a Lingui descriptor (msg`…`), written in the caller's language by the error
// handler (plugins/errors.ts); `error.message` keeps the English for the logs.

/** What people read: a `msg` descriptor, or text already written for them. */
export type UserMessage = MessageDescriptor | string;

export interface Issue {
  path: string;
  message: UserMessage;
}

export class AppError extends Error {
  public readonly userMessage: UserMessage;

  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: UserMessage,
    public readonly issues?: Issue[],
  ) {
    super(typeof message === 'string' ? message : i18n._(message));
    this.userMessage = message;
    this.name = 'AppError';
  }
}

/** A refusal for now (a limit reached, a queue full): the answer carries `Retry-After`. */
export class RetryLaterError extends AppError {
  constructor(
    statusCode: 429 | 503,
    code: string,
    message: UserMessage,
    public readonly retryAfterSeconds: number,
  ) {
    super(statusCode, code, message);
    this.name = 'RetryLaterError';
  }
}

export const badRequest = (message: UserMessage, issues?: Issue[]) =>
  new AppError(400, 'BAD_REQUEST', message, issues);
export const unauthorized = (message: UserMessage = msg`Please sign in to continue.`) =>
  new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: UserMessage = msg`You are not allowed to do that.`) =>
  new AppError(403, 'FORBIDDEN', message);
export const notFound = (message: UserMessage = msg`Not found.`) => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: UserMessage, code = 'CONFLICT') => new AppError(409, code, message);
/** The card provider's call failed without an answer (a network error, its outage): try again, never a 500. */
export const providerUnavailable = () =>
  new AppError(
    503,
    'PROVIDER_UNAVAILABLE',
    msg`The card provider did not answer. Please try again in a few minutes.`,
  );
