import type { FastifyRequest } from 'fastify';
import {
  passwordResetConfirmInput,
  passwordResetConfirmResponse,
  passwordResetRequestInput,
  passwordResetRequestResponse,
} from '#shared/schemas/password-reset.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { publicRoutes } from '../../http/route-scopes.ts';
import { clearSessionCookie, setSessionCookie } from '../../http/session.ts';
import { requestLocale } from '../../i18n.ts';
import { authAttemptsLimit } from '../../rate-limited.ts';
import { endSession, resumeSession, startSession } from '../auth/service.ts';
import { createPasswordResetLimits } from './reset-limits.ts';
import { passwordResetDeps, passwordResetService } from './service.ts';

export const passwordResetRoutes = publicRoutes<{ db: Db; config: Config; mailer: Mailer }>(
  async (app, { db, config, mailer }) => {
    const deps = passwordResetDeps(
      db,
      config,
      mailer,
      createPasswordResetLimits(db, config.passwordResetRateLimit),
      app.log,
    );
    // Mails still on their way when the app closes are waited for, so none is cut off mid-write.
    const deliveries = new Set<Promise<void>>();
    app.addHook('onClose', async () => {
      await Promise.all(deliveries);
    });

    // What follows each answer: the lookup, the link and the mail (service.ts), run once it has been sent.
    const followUps = new WeakMap<FastifyRequest, () => Promise<void>>();

    // No sign-in needed (that is the point). Limited per address and per IP inside the service, after
    // validation, so the address counted is the normalised one.
    app.post(
      '/auth/password-reset',
      {
        schema: { body: passwordResetRequestInput, response: { 200: passwordResetRequestResponse } },
        // After the answer has left: whether an account uses the address, and how long a mail server
        // takes, must not show in the time the answer takes.
        onResponse: async (request) => {
          const followUp = followUps.get(request);
          if (!followUp) return;
          followUps.delete(request);
          const delivery = followUp();
          deliveries.add(delivery);
          void delivery.finally(() => deliveries.delete(delivery));
        },
      },
      async (request) => {
        const { answer, followUp } = await passwordResetService.request(
          { ...deps, log: request.log },
          request.body.email,
          request.ip,
          requestLocale(request),
        );
        followUps.set(request, followUp);
        return answer;
      },
    );

    // A POST from the /reset-password page, never a GET on the link: mail scanners fetch links.
    app.post(
      '/auth/password-reset/confirm',
      {
        // Tokens cannot be guessed; the limit keeps anyone from trying at volume all the same.
        config: {
          rateLimit: authAttemptsLimit(config.authRateLimit),
        },
        schema: { body: passwordResetConfirmInput, response: { 200: passwordResetConfirmResponse } },
      },
      async (request, reply) => {
        const { userId, email, suspended } = await passwordResetService.confirm(deps, request.body);
        // Whatever session this browser held (another account's, say) ends too: its cookie is replaced.
        if (request.sessionToken) await endSession(db, request.sessionToken);
        // Decision 021: the device that reset the password is signed in; a suspended account is not.
        if (suspended) {
          clearSessionCookie(reply, config);
          return { success: true as const, email, user: null, suspended };
        }
        const session = await startSession(db, userId, config.sessionDays, {
          userAgent: request.headers['user-agent'],
        });
        setSessionCookie(reply, config, session.token, session.expiresAt);
        const signedIn = await resumeSession(db, session.token, config);
        return { success: true as const, email, user: signedIn?.user ?? null, suspended };
      },
    );
  },
);
