import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import type { Locale } from '../../shared/i18n.ts';
import { accountRefusal } from '../db/account-gone.ts';
import { sqlState } from '../db/transaction.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError, RetryLaterError } from '../errors.ts';
import { inLocale, requestLocale, translate } from '../i18n.ts';

// One error handler for the whole API: clear 4xx messages in one shape ({ message, code }, and the
// fields' issues when a request is refused), and 5xx answers that reveal nothing of the internals (the
// log keeps the detail). Every message is written in the caller's language (decision 035).

const defaultMessages: Record<number, MessageDescriptor> = {
  400: msg`The request is not valid.`,
  401: msg`Please sign in to continue.`,
  403: msg`You are not allowed to do that.`,
  404: msg`Not found.`,
  405: msg`This method is not allowed here.`,
  406: msg`Not acceptable.`,
  409: msg`That conflicts with the current state.`,
  413: msg`The request is too large.`,
  415: msg`This type of content is not supported.`,
  429: msg`Too many requests. Please wait a moment and try again.`,
};

const INPUT: Record<string, (request: FastifyRequest) => unknown> = {
  body: (request) => request.body,
  querystring: (request) => request.query,
  params: (request) => request.params,
  headers: (request) => request.headers,
};

/**
 * The zod schema's issues written in `locale`: zod wrote them in English when it refused the input
 * (its validator does not know the request), so the refusal is asked again in the caller's language,
 * synchronously, from the same schema and input.
 */
function issuesIn(
  locale: Locale,
  request: FastifyRequest,
  part: string | undefined,
): { path: string; message: string }[] | undefined {
  const schema = part
    ? (request.routeOptions.schema as Record<string, unknown> | undefined)?.[part]
    : undefined;
  const input = part ? INPUT[part] : undefined;
  if (!schema || !input || typeof (schema as ZodType).safeParse !== 'function') return undefined;
  // zod (4.6) writes the issues' messages when `error` is first read, not during the parse: read inside.
  return inLocale(locale, () => {
    const result = (schema as ZodType).safeParse(input(request));
    if (result.success) return undefined;
    return result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  });
}

/**
 * Database refusals that mean "someone else got there first": two requests met (a deadlock or a
 * serialization failure that survived its retries), a unique or exclusion rule that a concurrent
 * request claimed. Never the caller's fault, never a 500: a 409 they can act on.
 */
const BUSY = msg`Someone else changed this at the same moment. Please try again.`;
const RACES: Record<string, { code: string; message: MessageDescriptor }> = {
  '40P01': { code: 'BUSY', message: BUSY },
  '40001': { code: 'BUSY', message: BUSY },
  '55P03': { code: 'BUSY', message: BUSY },
  '23505': { code: 'CONFLICT', message: msg`That was just done by another request.` },
  '23P01': { code: 'DATES_TAKEN', message: msg`Those dates overlap an existing reservation.` },
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
    app.setErrorHandler((thrown: FastifyError, request, reply) => {
      // A write refused because its person left or was suspended meanwhile (migration 0027).
      const error = (accountRefusal(thrown) as FastifyError | undefined) ?? thrown;
      const locale = requestLocale(request);
      const say = (message: MessageDescriptor | string) => translate(locale, message);
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues =
          issuesIn(locale, request, error.validationContext) ??
          error.validation.map((v) => ({
            path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
            message: v.message ?? say(msg`Invalid value`),
          }));
        return reply
          .status(400)
          .send({ message: issues[0]?.message ?? say(msg`Invalid request`), code: 'VALIDATION', issues });
      }
      if (error instanceof AppError) {
        if (error instanceof RetryLaterError) reply.header('retry-after', String(error.retryAfterSeconds));
        return reply.status(error.statusCode).send({
          message: say(error.userMessage),
          code: error.code,
          ...(error.issues
            ? { issues: error.issues.map((issue) => ({ path: issue.path, message: say(issue.message) })) }
            : {}),
        });
      }
      const race = RACES[sqlState(error) ?? ''];
      if (race) {
        request.log.warn(
          { code: sqlState(error), route: request.routeOptions.url },
          'concurrent change refused',
        );
        return reply.status(409).send({ code: race.code, message: say(race.message) });
      }
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500 && isDatabaseUnavailable(error)) {
        // The database is away for a moment: say so, and when to try again.
        request.log.warn({ err: error }, 'database unavailable');
        return reply
          .status(503)
          .header('retry-after', '1')
          .send({
            message: say(msg`CampusLoop is briefly unavailable. Please try again in a moment.`),
            code: 'UNAVAILABLE',
          });
      }
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply
          .status(500)
          .send({ message: say(msg`Something went wrong on our side. Please try again.`), code: 'INTERNAL' });
      }
      // Fastify's own 4xx (bad JSON, body too large, wrong content type, rate limit): keep it plain.
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? say(msg`The request body is not valid JSON.`)
          : status === 429
            ? error.message || say(defaultMessages[429]!)
            : defaultMessages[status]
              ? say(defaultMessages[status])
              : error.message;
      return reply.status(status).send({ message, code: codes[status] ?? 'ERROR' });
    });
  },
  { name: 'errors' },
);
