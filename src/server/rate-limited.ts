import { createHash } from 'node:crypto';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import { requestLocale, translate } from './i18n.ts';

/**
 * A rate limit's answer (@fastify/rate-limit's errorResponseBuilder), its message written in the
 * caller's language.
 */
export function tooManyRequests(message: MessageDescriptor) {
  return (request: FastifyRequest) => ({
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: translate(requestLocale(request), message),
  });
}

/**
 * A rate limit's key for an e-mail address (any case): its SHA-256, so the counters (the `rate_limits`
 * table, the login limit's memory) never hold an address in clear, and the deletion of an account can
 * still find its counters (decision 037).
 */
export function addressKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/**
 * Rate-limit counters keyed by a person (their id or their address's key): kept here, below the features
 * that count them, so that deleting an account can forget that person's counters (decision 037).
 */
export const PASSWORD_RESET_ACCOUNT_PREFIX = 'password-reset-account';
export const CHAT_SEND_PREFIX = 'chat-send';

/**
 * The per-IP limit of sign-in, sign-up and every link's confirmation (`AUTH_RATE_*`): tokens and
 * passwords cannot be guessed at volume, and a campus network sharing one address is not shut out.
 */
export function authAttemptsLimit(limit: { max: number; windowMs: number }) {
  return {
    max: limit.max,
    timeWindow: limit.windowMs,
    errorResponseBuilder: tooManyRequests(msg`Too many attempts. Please wait a minute and try again.`),
  };
}
