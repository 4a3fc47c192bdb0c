import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authResponse,
  loginInput,
  registerInput,
  sessionResponse,
  successResponse,
} from '#shared/schemas/auth.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { RetryLaterError } from '../../errors.ts';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session.ts';
import { emailVerificationDeps, emailVerificationService } from '../email-verification/service.ts';
import * as auth from './service.ts';

export const authRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config; mailer: Mailer }> = async (
  app,
  { db, config, mailer },
) => {
  const verification = emailVerificationDeps(db, config, mailer, app.log);
  // Per IP, separately for sign-in and sign-up (spec: rate-limited login and register).
  const rateLimit = {
    max: config.authRateLimit.max,
    timeWindow: config.authRateLimit.windowMs,
    errorResponseBuilder: () => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait a minute and try again.',
    }),
  };

  app.post(
    '/auth/register',
    { config: { rateLimit }, schema: { body: registerInput, response: { 201: authResponse } } },
    async (request, reply) => {
      const { user, verificationToken } = await auth.register(db, request.body, verification.linkHours);
      const session = await auth.startSession(db, user.id, config.sessionDays);
      setSessionCookie(reply, config, session.token, session.expiresAt);
      // After the commit: a mail failure is logged and the account stands (the banner offers Resend).
      await emailVerificationService.sendLink({ ...verification, log: request.log }, user, verificationToken);
      return reply.status(201).send({ user: auth.toSessionUser(user, config) });
    },
  );

  // Per account as well, wherever the attempts come from: the per-IP limit is loose (a campus NAT shares
  // one address), and this is what protects a password. Counted after validation, so the e-mail is
  // normalised and a request that is no attempt at all is not counted. (A route's own `rateLimit`
  // config and `app.rateLimit()` cannot both run on one request: the plugin marks it done after the first.)
  const minutes = Math.ceil(config.loginAccountRateLimit.windowMs / 60_000);
  const accountAttempts = app.createRateLimit({
    max: config.loginAccountRateLimit.max,
    timeWindow: config.loginAccountRateLimit.windowMs,
    keyGenerator: (request) => `login-account:${(request.body as { email: string }).email}`,
  });
  const perAccount = async (request: FastifyRequest) => {
    const attempt = await accountAttempts(request);
    if (attempt.isAllowed || !attempt.isExceeded) return;
    throw new RetryLaterError(
      429,
      'RATE_LIMITED',
      `Too many sign-in attempts for this account. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      attempt.ttlInSeconds,
    );
  };

  app.post(
    '/auth/login',
    {
      config: { rateLimit },
      preHandler: perAccount,
      schema: { body: loginInput, response: { 200: authResponse } },
    },
    async (request, reply) => {
      const user = await auth.authenticate(db, request.body);
      const session = await auth.startSession(db, user.id, config.sessionDays);
      setSessionCookie(reply, config, session.token, session.expiresAt);
      return { user: auth.toSessionUser(user, config) };
    },
  );

  app.post(
    '/auth/logout',
    { schema: { body: z.object({}).optional(), response: { 200: successResponse } } },
    async (request, reply) => {
      if (request.sessionToken) await auth.endSession(db, request.sessionToken);
      clearSessionCookie(reply, config);
      return { success: true as const };
    },
  );

  // Signed out is an ordinary answer here ({user: null}), not an error: the app asks on every load.
  app.get('/auth/me', { schema: { response: { 200: sessionResponse } } }, async (request) => ({
    user: request.user,
  }));
};
