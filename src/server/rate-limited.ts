import type { MessageDescriptor } from '@lingui/core';
import type { FastifyRequest } from 'fastify';
import { requestLocale, translate } from './i18n.ts';

/**
 * A rate limit's answer (@fastify/rate-limit's errorResponseBuilder), its message written in the
 * caller's language (issue 19).
 */
export function tooManyRequests(message: MessageDescriptor) {
  return (request: FastifyRequest) => ({
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: translate(requestLocale(request), message),
  });
}
