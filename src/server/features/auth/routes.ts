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
      await emailVerificationService.sendLink(verification, user, verificationToken);
      return reply.status(201).send({ user: auth.toSessionUser(user, config) });
    },
  );

  app.post(
    '/auth/login',
    { config: { rateLimit }, schema: { body: loginInput, response: { 200: authResponse } } },
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
  app.get('/auth/me', { schema: { response: { 200: sessionResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { user: request.user };
  });
};
