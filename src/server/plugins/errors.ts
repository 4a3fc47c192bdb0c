import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { sqlState } from '../db/transaction.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError, RetryLaterError } from '../errors.ts';

// One error handler for the whole API: clear 4xx messages in the shape of ARCHITECTURE §4, and 5xx
// answers that reveal nothing of the internals (the log keeps the detail).

const defaultMessages: Record<number, string> = {
  400: 'The request is not valid.',
  401: 'Please sign in to continue.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  405: 'This method is not allowed here.',
  406: 'Not acceptable.',
  409: 'That conflicts with the current state.',
  413: 'The request is too large.',
  415: 'This type of content is not supported.',
  429: 'Too many requests. Please wait a moment and try again.',
};

/**
 * Database refusals that mean "someone else got there first": two requests met (a deadlock or a
 * serialization failure that survived its retries), a unique or exclusion rule that a concurrent
 * request claimed. Never the caller's fault, never a 500: a 409 they can act on.
 */
const RACES: Record<string, { code: string; message: string }> = {
  '40P01': { code: 'BUSY', message: 'Someone else changed this at the same moment. Please try again.' },
  '40001': { code: 'BUSY', message: 'Someone else changed this at the same moment. Please try again.' },
  '55P03': { code: 'BUSY', message: 'Someone else changed this at the same moment. Please try again.' },
  '23505': { code: 'CONFLICT', message: 'That was just done by another request.' },
  '23P01': { code: 'DATES_TAKEN', message: 'Those dates overlap an existing reservation.' },
};

const codes: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues = error.validation.map((v) => ({
          path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
          message: v.message ?? 'Invalid value',
        }));
        return reply
          .status(400)
          .send({ message: issues[0]?.message ?? 'Invalid request', code: 'VALIDATION', issues });
      }
      if (error instanceof AppError) {
        if (error instanceof RetryLaterError) reply.header('retry-after', String(error.retryAfterSeconds));
        return reply.status(error.statusCode).send({
          message: error.message,
          code: error.code,
          ...(error.issues ? { issues: error.issues } : {}),
        });
      }
      const race = RACES[sqlState(error) ?? ''];
      if (race) {
        request.log.warn(
          { code: sqlState(error), route: request.routeOptions.url },
          'concurrent change refused',
        );
        return reply.status(409).send(race);
      }
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500 && isDatabaseUnavailable(error)) {
        // The database is away for a moment (issue 12): say so, and when to try again.
        request.log.warn({ err: error }, 'database unavailable');
        return reply.status(503).header('retry-after', '1').send({
          message: 'CampusLoop is briefly unavailable. Please try again in a moment.',
          code: 'UNAVAILABLE',
        });
      }
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply
          .status(500)
          .send({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
      }
      // Fastify's own 4xx (bad JSON, body too large, wrong content type, rate limit): keep it plain.
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The request body is not valid JSON.'
          : status === 429
            ? error.message || defaultMessages[429]!
            : (defaultMessages[status] ?? error.message);
      return reply.status(status).send({ message, code: codes[status] ?? 'ERROR' });
    });
  },
  { name: 'errors' },
);
