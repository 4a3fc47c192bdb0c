import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isLocale, LOCALE_COOKIE, type Locale } from '#shared/i18n.ts';
import {
  pushEndpointInput,
  pushStatusQuery,
  pushStatusResponse,
  pushSubscriptionInput,
  unsubscribeQuery,
} from '#shared/schemas/push.ts';
import type { Db } from '../../db/client.ts';
import { publicRoutes, signedInRoutes } from '../../http/route-scopes.ts';
import { requestLocale, translate } from '../../i18n.ts';
import type { PushSender } from './push-sender.ts';
import { deliveryService } from './service.ts';

// A device's push subscription (signed in), and the one-click unsubscribe of the
// e-mails' links and List-Unsubscribe header (RFC 8058), which works without a session.

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small page in `locale`: its title, its body (already HTML) and the link to the settings. */
function page(locale: Locale, title: string, body: string) {
  const settings = escapeHtml(translate(locale, msg`Your e-mail settings`));
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · CampusLoop</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/settings">${settings}</a></p></main></body></html>`;
}

/**
 * The language of the unsubscribe pages: the visitor's own choice (the language switch's cookie), else
 * the language of the person whose e-mail the link came in, else the request's.
 */
function pageLocale(request: FastifyRequest, owner: Locale | null | undefined): Locale {
  const chosen = request.cookies?.[LOCALE_COOKIE];
  if (isLocale(chosen)) return chosen;
  return owner ?? requestLocale(request);
}

export const deliveryRoutes: FastifyPluginAsyncZod<{ db: Db; push: PushSender | null }> = async (
  app,
  { db, push },
) => {
  // Mail providers' one-click POST is a form body (List-Unsubscribe=One-Click); only it matters here.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  await app.register(
    signedInRoutes(async (app) => {
      app.get(
        '/push/status',
        { schema: { querystring: pushStatusQuery, response: { 200: pushStatusResponse } } },
        async (request) =>
          deliveryService.status({ db, push }, request.signedInUser.id, request.query.endpoint),
      );

      app.post(
        '/push/subscriptions',
        {
          schema: {
            body: pushSubscriptionInput,
            response: { 200: z.object({ subscribed: z.literal(true) }) },
          },
        },
        async (request) => deliveryService.subscribe({ db, push }, request.signedInUser.id, request.body),
      );

      app.delete(
        '/push/subscriptions',
        {
          schema: { body: pushEndpointInput, response: { 200: z.object({ removed: z.boolean() }) } },
        },
        async (request) => deliveryService.unsubscribe(db, request.signedInUser.id, request.body.endpoint),
      );
    }),
  );
  await app.register(
    publicRoutes(async (app) => {
      // The e-mail's link: a page asking to confirm, so a mail scanner following links turns nothing off.
      app.get('/unsubscribe', { schema: { querystring: unsubscribeQuery } }, async (request, reply) => {
        const kind = await deliveryService.describeToken(db, request.query.token);
        const locale = pageLocale(request, kind?.locale);
        const say = (message: MessageDescriptor) => translate(locale, message);
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        if (!kind) {
          const instead = escapeHtml(say(msg`Change your e-mails in your settings instead.`));
          return reply
            .code(400)
            .send(page(locale, say(msg`This unsubscribe link is not valid`), `<p>${instead}</p>`));
        }
        const label = say(kind.label);
        const action = `/api/unsubscribe?token=${encodeURIComponent(request.query.token)}`;
        return page(
          locale,
          say(msg`Stop "${label}" e-mails?`),
          `<p>${escapeHtml(say(kind.description))}</p><form method="post" action="${action}"><button type="submit">${escapeHtml(say(msg`Unsubscribe`))}</button></form>`,
        );
      });

      // RFC 8058's one-click POST (from the mail client, no Origin, no cookie) and the page's form.
      app.post(
        '/unsubscribe',
        {
          config: { sameOrigin: false, rateLimit: { max: 30, timeWindow: 60_000 } },
          schema: { querystring: unsubscribeQuery, body: z.record(z.string(), z.string()).nullish() },
        },
        async (request, reply) => {
          const done = await deliveryService.unsubscribeByToken(db, request.query.token);
          const locale = pageLocale(request, done.locale);
          const label = translate(locale, done.label);
          const message = translate(
            locale,
            msg`You will no longer get "${label}" e-mails. You can turn them on again in your settings.`,
          );
          if (request.headers.accept?.includes('text/html') && !request.body?.['List-Unsubscribe']) {
            return reply
              .type('text/html; charset=utf-8')
              .send(page(locale, translate(locale, msg`Unsubscribed`), `<p>${escapeHtml(message)}</p>`));
          }
          return { success: true, kind: done.kind, message };
        },
      );
    }),
  );
};
