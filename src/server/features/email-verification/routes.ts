import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { verificationResponse, verifyEmailInput } from '#shared/schemas/email-verification.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import { emailVerificationDeps, emailVerificationService } from './service.ts';

export const emailVerificationRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  mailer: Mailer;
}> = async (app, { db, config, mailer }) => {
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
        rateLimit: {
          max: config.authRateLimit.max,
          timeWindow: config.authRateLimit.windowMs,
          errorResponseBuilder: () => ({
            statusCode: 429,
            code: 'RATE_LIMITED',
            message: 'Too many attempts. Please wait a minute and try again.',
          }),
        },
      },
      schema: { body: verifyEmailInput, response: { 200: verificationResponse } },
    },
    async (request) => ({
      success: true as const,
      ...(await emailVerificationService.verify(depsFor(request), request.body.token)),
    }),
  );

  app.post(
    '/auth/resend-verification',
    {
      onRequest: async (request) => void requireUser(request),
      schema: { body: z.object({}).optional(), response: { 200: verificationResponse } },
    },
    async (request) => ({
      success: true as const,
      ...(await emailVerificationService.resend(depsFor(request), requireUser(request))),
    }),
  );
};
