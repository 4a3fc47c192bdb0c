import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  pushEndpointInput,
  pushStatusQuery,
  pushStatusResponse,
  pushSubscriptionInput,
  unsubscribeQuery,
} from '#shared/schemas/push.ts';
import type { Db } from '../../db/client.ts';
import { requireUser } from '../../plugins/session.ts';
import type { PushSender } from './push-sender.ts';
import { deliveryService } from './service.ts';

// Issue 18 item 2: a device's push subscription (signed in), and the one-click unsubscribe of the
// e-mails' links and List-Unsubscribe header (RFC 8058), which works without a session.

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · CampusLoop</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/settings">Your e-mail settings</a></p></main></body></html>`;
}

export const deliveryRoutes: FastifyPluginAsyncZod<{ db: Db; push: PushSender | null }> = async (
  app,
  { db, push },
) => {
  const signedIn = async (request: FastifyRequest) => void requireUser(request);
  // Mail providers' one-click POST is a form body (List-Unsubscribe=One-Click); only it matters here.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get(
    '/push/status',
    { onRequest: signedIn, schema: { querystring: pushStatusQuery, response: { 200: pushStatusResponse } } },
    async (request) => deliveryService.status({ db, push }, requireUser(request).id, request.query.endpoint),
  );

  app.post(
    '/push/subscriptions',
    {
      onRequest: signedIn,
      schema: { body: pushSubscriptionInput, response: { 200: z.object({ subscribed: z.literal(true) }) } },
    },
    async (request) => deliveryService.subscribe({ db, push }, requireUser(request).id, request.body),
  );

  app.delete(
    '/push/subscriptions',
    {
      onRequest: signedIn,
      schema: { body: pushEndpointInput, response: { 200: z.object({ removed: z.boolean() }) } },
    },
    async (request) => deliveryService.unsubscribe(db, requireUser(request).id, request.body.endpoint),
  );

  // The e-mail's link: a page asking to confirm, so a mail scanner following links turns nothing off.
  app.get('/unsubscribe', { schema: { querystring: unsubscribeQuery } }, async (request, reply) => {
    const kind = await deliveryService.describeToken(db, request.query.token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!kind)
      return reply
        .code(400)
        .send(
          page('This unsubscribe link is not valid', '<p>Change your e-mails in your settings instead.</p>'),
        );
    return page(
      `Stop "${kind.label}" e-mails?`,
      `<p>${escapeHtml(kind.description)}</p><form method="post" action="/api/unsubscribe?token=${encodeURIComponent(request.query.token)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  // RFC 8058's one-click POST (from the mail client, no Origin, no cookie) and the page's form.
  app.post(
    '/unsubscribe',
    {
      config: { sameOrigin: false, rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: { querystring: unsubscribeQuery, body: z.record(z.string(), z.string()).optional() },
    },
    async (request, reply) => {
      const done = await deliveryService.unsubscribeByToken(db, request.query.token);
      const message = `You will no longer get "${done.label}" e-mails. You can turn them on again in your settings.`;
      if (request.headers.accept?.includes('text/html') && !request.body?.['List-Unsubscribe']) {
        return reply
          .type('text/html; charset=utf-8')
          .send(page('Unsubscribed', `<p>${escapeHtml(message)}</p>`));
      }
      return { success: true, kind: done.kind, message };
    },
  );
};
