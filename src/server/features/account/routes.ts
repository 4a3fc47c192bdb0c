import multipart from '@fastify/multipart';
import { msg } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIMITS } from '#shared/constants.ts';
import {
  accountResponse,
  changeEmailInput,
  changePasswordInput,
  confirmEmailChangeInput,
  emailChangeConfirmResponse,
  emailChangeRequestResponse,
  emailChangeSent,
  emailPreference,
  endedResponse,
  languageInput,
  preferenceInput,
  profileInput,
  sessionIdParams,
  sessionsResponse,
  userResponse,
} from '#shared/schemas/account.ts';
import { noBody, successResponse } from '#shared/schemas/auth.ts';
import { dataExport, deleteAccountInput } from '#shared/schemas/leaving.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { publicRoutes, signedInRoutes } from '../../http/route-scopes.ts';
import { clearSessionCookie } from '../../http/session.ts';
import { requestLocale, translate } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { authAttemptsLimit, tooManyRequests } from '../../rate-limited.ts';
import * as auth from '../auth/service.ts';
import { discardRestOfBody, type ImageQueue, receiveFiles, UploadsBusyError } from '../uploads/service.ts';
import { leavingService } from './leaving.ts';
import { type AccountDeps, accountService } from './service.ts';

// Account settings (/settings): everything here is the signed-in person's own, but the link
// from an e-mail change, which may open in another browser.

export const accountRoutes: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  mailer: Mailer;
  storage: Storage;
  imageQueue: ImageQueue;
  jobs: JobQueue;
}> = async (app, { db, config, mailer, storage, imageQueue, jobs }) => {
  const deps: AccountDeps = { db, config, mailer, storage, imageQueue, log: app.log };
  const depsFor = (request: FastifyRequest): AccountDeps => ({ ...deps, log: request.log });
  // Scoped to this plugin: the profile photo is the one multipart body here (one file).
  await app.register(multipart, { limits: { files: 1, fileSize: LIMITS.photoBytes, fields: 5, parts: 5 } });

  /** The session cookie's token of a signed-in request (the signed-in group's hook ran first). */
  const tokenOf = (request: FastifyRequest) => request.sessionToken!;

  // The sensitive changes, limited per person as sign-in is per account: a stolen session cannot try
  // passwords at volume. Counted after the sign-in check (route hooks run after the session's).
  const sensitive = {
    max: config.loginAccountRateLimit.max,
    timeWindow: config.loginAccountRateLimit.windowMs,
    keyGenerator: (request: FastifyRequest) => `account:${request.user?.id ?? request.ip}`,
    errorResponseBuilder: tooManyRequests(msg`Too many attempts. Please wait a few minutes and try again.`),
  };
  // Everything else that writes, per person, loosely: nobody changes their name 30 times a minute.
  const ordinary = {
    max: 30,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `account-edit:${request.user?.id ?? request.ip}`,
    errorResponseBuilder: tooManyRequests(msg`Too many changes. Please wait a minute and try again.`),
  };

  await app.register(
    signedInRoutes(async (app) => {
      app.get('/account', { schema: { response: { 200: accountResponse } } }, async (request) =>
        accountService.overview(deps, request.signedInUser.id, requestLocale(request)),
      );

      app.put(
        '/account/profile',
        {
          config: { rateLimit: ordinary },
          schema: { body: profileInput, response: { 200: userResponse } },
        },
        async (request) => ({
          user: await accountService.updateProfile(deps, request.signedInUser.id, request.body),
        }),
      );

      app.post(
        '/account/photo',
        { config: { rateLimit: ordinary }, schema: { response: { 200: userResponse } } },
        async (request) => {
          // Busy already: say so before receiving the file.
          if (imageQueue.isFull()) {
            discardRestOfBody(request, 1);
            throw new UploadsBusyError();
          }
          const [image] = await receiveFiles(request, { field: 'photo', maxFiles: 1 });
          return { user: await accountService.setPhoto(depsFor(request), request.signedInUser.id, image!) };
        },
      );

      app.delete(
        '/account/photo',
        { config: { rateLimit: ordinary }, schema: { response: { 200: userResponse } } },
        async (request) => ({
          user: await accountService.removePhoto(depsFor(request), request.signedInUser.id),
        }),
      );

      app.put(
        '/account/password',
        {
          config: { rateLimit: sensitive },
          schema: { body: changePasswordInput, response: { 200: successResponse } },
        },
        async (request) => {
          await accountService.changePassword(
            depsFor(request),
            request.signedInUser,
            tokenOf(request),
            request.body,
            auth.summariseDevice(request.headers['user-agent']),
          );
          return { success: true as const };
        },
      );

      app.post(
        '/account/email',
        {
          config: { rateLimit: sensitive },
          schema: { body: changeEmailInput, response: { 200: emailChangeRequestResponse } },
        },
        async (request) => {
          const answer = await accountService.requestEmailChange(
            depsFor(request),
            request.signedInUser,
            request.body,
          );
          return {
            ...answer,
            message: translate(requestLocale(request), emailChangeSent(answer.pendingEmail)),
          };
        },
      );

      app.delete(
        '/account/email',
        { config: { rateLimit: ordinary }, schema: { response: { 200: successResponse } } },
        async (request) => {
          await accountService.cancelEmailChange(db, request.signedInUser.id);
          return { success: true as const };
        },
      );

      // The language switch of a signed-in person (the cookie it also sets is the browser's).
      app.put(
        '/account/language',
        {
          config: { rateLimit: ordinary },
          schema: { body: languageInput, response: { 200: userResponse } },
        },
        async (request) => ({
          user: await accountService.setLanguage(
            depsFor(request),
            request.signedInUser.id,
            request.body.locale,
          ),
        }),
      );

      app.put(
        '/account/notification-preferences',
        {
          config: { rateLimit: ordinary },
          schema: {
            body: preferenceInput,
            response: { 200: z.object({ preferences: z.array(emailPreference) }) },
          },
        },
        async (request) => ({
          preferences: await accountService.setPreference(
            db,
            request.signedInUser.id,
            request.body,
            requestLocale(request),
          ),
        }),
      );

      app.get('/account/sessions', { schema: { response: { 200: sessionsResponse } } }, async (request) => ({
        sessions: await auth.listSessions(db, request.signedInUser.id, tokenOf(request)),
      }));

      // Ends one session (its live sockets close on commit). Ending this browser's own signs it out.
      app.delete(
        '/account/sessions/:id',
        {
          config: { rateLimit: ordinary },
          schema: { params: sessionIdParams, response: { 200: successResponse } },
        },
        async (request, reply) => {
          const { current } = await auth.endSessionById(
            db,
            request.signedInUser.id,
            request.params.id,
            tokenOf(request),
          );
          if (current) clearSessionCookie(reply, config);
          return { success: true as const };
        },
      );

      app.post(
        '/account/sessions/sign-out-others',
        {
          config: { rateLimit: ordinary },
          schema: { body: noBody, response: { 200: endedResponse } },
        },
        async (request) => ({
          success: true as const,
          ended: await auth.endOtherSessions(db, request.signedInUser.id, tokenOf(request)),
        }),
      );

      // "Download my data": one JSON file of everything kept about the person.
      app.get(
        '/account/export',
        { config: { rateLimit: ordinary }, schema: { response: { 200: dataExport } } },
        async (request, reply) => {
          const data = await leavingService.exportData(db, request.signedInUser.id);
          reply.header('cache-control', 'no-store');
          reply.header(
            'content-disposition',
            `attachment; filename="campusloop-data-${data.exportedAt.slice(0, 10)}.json"`,
          );
          return data;
        },
      );

      // "Delete my account" (decision 023): the current password confirms it; 409 ACCOUNT_IN_USE says why not.
      app.post(
        '/account/delete',
        {
          config: { rateLimit: sensitive },
          schema: { body: deleteAccountInput, response: { 200: successResponse } },
        },
        async (request, reply) => {
          await leavingService.deleteAccount(
            { ...depsFor(request), jobs },
            request.signedInUser.id,
            request.body,
          );
          clearSessionCookie(reply, config);
          return { success: true as const };
        },
      );
    }),
  );
  await app.register(
    publicRoutes(async (app) => {
      // A POST from the /confirm-email page, never a GET on the link: mail scanners fetch links. No sign-in
      // needed: the link may open on the phone while the account is signed in on a laptop.
      app.post(
        '/account/email/confirm',
        {
          config: {
            rateLimit: authAttemptsLimit(config.authRateLimit),
          },
          schema: { body: confirmEmailChangeInput, response: { 200: emailChangeConfirmResponse } },
        },
        async (request) => accountService.confirmEmailChange(depsFor(request), request.body.token),
      );
    }),
  );
};
