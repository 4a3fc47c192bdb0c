import { msg, plural } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import {
  authResponse,
  checkInbox,
  loginInput,
  noBody,
  registerInput,
  registerResponse,
  sessionResponse,
  successResponse,
} from '#shared/schemas/auth.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { RetryLaterError } from '../../errors.ts';
import { publicRoutes } from '../../http/route-scopes.ts';
import { clearSessionCookie, setSessionCookie } from '../../http/session.ts';
import { requestLocale, translate } from '../../i18n.ts';
import { addressKey, authAttemptsLimit } from '../../rate-limited.ts';
import { emailVerificationDeps, emailVerificationService } from '../email-verification/service.ts';
import * as auth from './service.ts';

export const authRoutes = publicRoutes<{ db: Db; config: Config; mailer: Mailer }>(
  async (app, { db, config, mailer }) => {
    const verification = emailVerificationDeps(db, config, mailer, app.log);
    // Per IP, separately for sign-in and sign-up (spec: rate-limited login and register).
    const rateLimit = authAttemptsLimit(config.authRateLimit);

    // Decision 023: one answer (202, "check your inbox") whether the address is new, taken or waiting for its
    // owner, and no session: the link in the e-mail signs in. The e-mail is not awaited, so the answer takes
    // as long in every case (each did the same work: the password hashed, the address and username looked up).
    app.post(
      '/auth/register',
      { config: { rateLimit }, schema: { body: registerInput, response: { 202: registerResponse } } },
      async (request, reply) => {
        const registration = await auth.register(
          db,
          request.body,
          verification.linkHours,
          requestLocale(request),
        );
        const deps = { ...verification, log: request.log };
        const { returnTo } = request.body;
        // The sign-up page's language: the new account's, and its e-mail's.
        const locale = requestLocale(request);
        if (registration.kind === 'created') {
          void emailVerificationService.sendLink(
            deps,
            { ...registration.user, locale },
            registration.verificationToken,
            returnTo,
          );
        } else if (registration.kind === 'claimed' && registration.verificationToken) {
          // Addressed by the name the new registration gave: it is theirs once they open it.
          const to = { ...registration.user, fullName: request.body.fullName, locale };
          void emailVerificationService.sendLink(deps, to, registration.verificationToken, returnTo);
        } else if (registration.kind === 'taken' && registration.user) {
          void emailVerificationService.sendRegistrationAttempt(deps, registration.user);
        }
        const email = request.body.email.toLowerCase();
        const message = translate(locale, checkInbox(email));
        return reply.status(202).send({ success: true as const, email, message });
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
      keyGenerator: (request) => `login-account:${addressKey((request.body as { email: string }).email)}`,
    });
    const perAccount = async (request: FastifyRequest) => {
      const attempt = await accountAttempts(request);
      if (attempt.isAllowed || !attempt.isExceeded) return;
      throw new RetryLaterError(
        429,
        'RATE_LIMITED',
        msg`Too many sign-in attempts for this account. Please wait ${plural(minutes, { one: '# minute', other: '# minutes' })} and try again.`,
        attempt.ttlInSeconds,
      );
    };

    app.post(
      '/auth/login',
      {
        // A new session is in no cache yet; nothing cached changes with a sign-in.
        config: { rateLimit, changesCachedAnswers: false },
        preHandler: perAccount,
        schema: { body: loginInput, response: { 200: authResponse } },
      },
      async (request, reply) => {
        const user = await auth.authenticate(db, request.body);
        const session = await auth.startSession(db, user.id, config.sessionDays, {
          userAgent: request.headers['user-agent'],
        });
        setSessionCookie(reply, config, session.token, session.expiresAt);
        return { user: auth.toSessionUser(user, config) };
      },
    );

    app.post(
      '/auth/logout',
      { schema: { body: noBody, response: { 200: successResponse } } },
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
  },
);
