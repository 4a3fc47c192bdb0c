import type { FastifyRequest } from 'fastify';
import {
  resendVerificationInput,
  verificationResponse,
  verifyEmailInput,
} from '#shared/schemas/email-verification.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { unauthorized } from '../../errors.ts';
import { publicRoutes } from '../../http/route-scopes.ts';
import { setSessionCookie } from '../../http/session.ts';
import { authAttemptsLimit } from '../../rate-limited.ts';
import * as auth from '../auth/service.ts';
import { emailVerificationDeps, emailVerificationService } from './service.ts';

export const emailVerificationRoutes = publicRoutes<{
  db: Db;
  config: Config;
  mailer: Mailer;
}>(async (app, { db, config, mailer }) => {
  const deps = emailVerificationDeps(db, config, mailer, app.log);
  /** The request's own logger, so what the service logs carries the request's id. */
  const depsFor = (request: FastifyRequest) => ({ ...deps, log: request.log });

  // A POST from the /verify-email page, not a GET on the link itself: mail scanners that fetch
  // every link in a message must not use it up. No sign-in needed: the link may open in another browser.
  app.post(
    '/auth/verify-email',
    {
      // Tokens cannot be guessed; the limit keeps anyone from trying at volume all the same.
      config: {
        rateLimit: authAttemptsLimit(config.authRateLimit),
      },
      schema: { body: verifyEmailInput, response: { 200: verificationResponse } },
    },
    async (request, reply) => {
      const { email, userId } = await emailVerificationService.verify(depsFor(request), request.body.token);
      // The link proves the mailbox: it signs in (decision 023), the password alone does not until then.
      const session = await auth.startSession(db, userId, config.sessionDays, {
        userAgent: request.headers['user-agent'],
      });
      setSessionCookie(reply, config, session.token, session.expiresAt);
      const resumed = await auth.resumeSession(db, session.token, config);
      return { success: true as const, email, ...(resumed ? { user: resumed.user } : {}) };
    },
  );

  // Signed in: a new link for the person's own address. Signed out (the "Check your inbox" screen after
  // registering): a new link for the address named, answered the same whoever has it (decision 023).
  app.post(
    '/auth/resend-verification',
    {
      config: {
        rateLimit: authAttemptsLimit(config.authRateLimit),
      },
      schema: { body: resendVerificationInput, response: { 200: verificationResponse } },
    },
    async (request) => {
      const email = request.body?.email;
      if (!request.user && email) {
        return {
          success: true as const,
          ...(await emailVerificationService.resendTo(
            depsFor(request),
            email,
            new Date(),
            request.body?.returnTo,
          )),
        };
      }
      if (!request.user) throw unauthorized();
      return {
        success: true as const,
        ...(await emailVerificationService.resend(
          depsFor(request),
          request.user,
          new Date(),
          request.body?.returnTo,
        )),
      };
    },
  );
});
