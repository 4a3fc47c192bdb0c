import { msg } from '@lingui/core/macro';
import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DIGEST_ONLY_TYPES, kindOfNotification } from '#shared/notification-kinds.ts';
import { EMAIL_KINDS, type EmailKind } from '#shared/schemas/account.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest } from '../../errors.ts';
import { preferenceService } from '../notification-preferences/service.ts';
import {
  listingsTold,
  notificationEmail,
  notificationPath,
  unreadMessagesEmail,
} from './notification-emails.ts';
import { PushGoneError, type PushSender, type PushTarget } from './push-sender.ts';
import * as queries from './queries.ts';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe-token.ts';

// Decision 032: notifications that reach people by e-mail and Web Push. A
// notification's deliveries are written in its own transaction (the outbox); the delivery round takes
// due ones under a lease, sends, and marks them sent, or due again later with backoff. A push service's
// 404/410 removes the subscription. Unread messages become one e-mail per conversation an hour, after
// 10 minutes unread.

/** A message still unread this long is e-mailed. */
export const MESSAGE_EMAIL_AFTER_MS = 10 * 60 * 1000;
/** At most one message e-mail per conversation in this span. */
export const MESSAGE_EMAIL_BATCH_MS = 60 * 60 * 1000;
/** Attempts before a delivery is given up (marked failed); waits 30 s, 1 min, 2 min, … between. */
export const DELIVERY_ATTEMPTS = 8;
/**
 * How long finished deliveries are kept. The batching rules read only the last day's rows (a message
 * e-mail's hour, a push's newest message), so a week is plenty; failed ones stay a month for operators.
 */
export const KEEP_DONE_DELIVERIES_MS = 7 * 24 * 60 * 60 * 1000;
export const KEEP_FAILED_DELIVERIES_MS = 30 * 24 * 60 * 60 * 1000;
const FORGET_BATCH = 5000;
const RETRY_BASE_MS = 30_000;
/** A round holds a delivery this long; a round that died lets another take it after. */
const LEASE_MS = 2 * 60 * 1000;
const BATCH = 50;

export interface DeliveryDeps {
  db: Db;
  mailer: Mailer;
  /** Null without VAPID keys: push is off. */
  push: PushSender | null;
  appUrl: string;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
  /** Counts failed attempts for /metrics (absent in tests that do not look). */
  metrics?: { deliveryFailed(channel: string, final: boolean): void } | null;
}

export const retryDelayMs = (attempts: number) => RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1);

async function deliver(deps: DeliveryDeps, delivery: queries.Delivery): Promise<'sent' | 'skipped'> {
  const { db } = deps;
  const recipient = await queries.findRecipient(db, delivery.userId);
  if (!recipient || recipient.deletedAt) return 'skipped';
  if (delivery.channel === 'email' && delivery.conversationId) {
    if (!(await preferenceService.wantsEmail(db, recipient.id, 'messages'))) return 'skipped';
    const unread = await queries.unreadMessagesTo(db, recipient.id, delivery.conversationId);
    // Read meanwhile: nothing to tell.
    if (unread.length === 0) return 'skipped';
    await deps.mailer.send(
      unreadMessagesEmail({
        to: recipient,
        messages: unread,
        appUrl: deps.appUrl,
        token: await unsubscribeToken(db, recipient.id, 'messages'),
      }),
    );
    return 'sent';
  }
  if (delivery.channel === 'push' && delivery.conversationId) {
    const subscription =
      delivery.pushSubscriptionId && (await queries.findSubscription(db, delivery.pushSubscriptionId));
    if (!subscription || !deps.push) return 'skipped';
    if (!(await preferenceService.wantsPush(db, recipient.id, 'messages'))) return 'skipped';
    // The newest unread message speaks for the conversation; read meanwhile, nothing to show.
    const newest = (await queries.unreadMessagesTo(db, recipient.id, delivery.conversationId)).at(-1);
    if (!newest) return 'skipped';
    return pushTo(deps, subscription, {
      title: `${newest.senderName} · ${newest.itemTitle}`,
      body: newest.content,
      url: '/chat',
      tag: `conversation-${delivery.conversationId}`,
    });
  }
  const notification =
    delivery.notificationId && (await queries.findNotification(db, delivery.notificationId));
  if (!notification) return 'skipped';
  const kind = kindOfNotification(notification.type);
  if (delivery.channel === 'email') {
    if (!(await preferenceService.wantsEmail(db, recipient.id, kind))) return 'skipped';
    await deps.mailer.send(
      notificationEmail({
        to: recipient,
        notification,
        kind,
        appUrl: deps.appUrl,
        token: await unsubscribeToken(db, recipient.id, kind),
        listings: listingsTold(notification),
      }),
    );
    return 'sent';
  }
  const subscription =
    delivery.pushSubscriptionId && (await queries.findSubscription(db, delivery.pushSubscriptionId));
  if (!subscription || !deps.push || !(await preferenceService.wantsPush(db, recipient.id, kind)))
    return 'skipped';
  return pushTo(deps, subscription, {
    title: notification.title,
    body: notification.message,
    url: notificationPath(notification),
    tag: notification.id,
  });
}

async function pushTo(
  deps: DeliveryDeps,
  subscription: PushTarget & { id: string },
  payload: { title: string; body: string; url: string; tag: string },
): Promise<'sent' | 'skipped'> {
  try {
    await deps.push!.send(subscription, payload);
  } catch (error) {
    if (error instanceof PushGoneError) {
      // The browser dropped it (uninstalled, permission taken back), or its host now resolves inside:
      // its deliveries go with it.
      await queries.deleteSubscription(deps.db, { id: subscription.id });
      deps.log.info(
        { subscriptionId: subscription.id, reason: error.message },
        'push subscription gone; removed',
      );
      return 'skipped';
    }
    throw error;
  }
  return 'sent';
}

export const deliveryService = {
  /** The signed one-click unsubscribe token of a person's e-mails of a kind (for e-mails sent elsewhere). */
  unsubscribeToken: (db: Db, userId: string, kind: EmailKind) => unsubscribeToken(db, userId, kind),

  /**
   * The deliveries of a notification, as part of notificationService.notify's one statement: they exist
   * exactly when the notification does. E-mail only when wanted, push to each device when wanted
   * (preferenceService.recipient says which).
   */
  forNotification(type: string): SQL {
    // A type the daily digest tells of is never e-mailed on its own (one e-mail a day about asks).
    return queries.deliveriesOfNotice({ emailed: !(DIGEST_ONLY_TYPES as readonly string[]).includes(type) });
  },

  /** The notification's e-mail, if not sent yet, goes at `dueAt` (a batch of matches waits for more). */
  postponeEmail: (db: Db, notificationId: string, dueAt: Date) =>
    queries.postponeEmail(db, notificationId, dueAt),

  /** One round: message e-mails that became due, then every due delivery. Answers what happened. */
  async runRound(deps: DeliveryDeps) {
    const now = deps.clock.now();
    // New messages: an e-mail per conversation once 10 minutes unread (hourly at most), a push at once.
    const batched =
      (await queries.enqueueMessageEmails(deps.db, now, MESSAGE_EMAIL_AFTER_MS, MESSAGE_EMAIL_BATCH_MS)) +
      (deps.push ? await queries.enqueueMessagePushes(deps.db, now) : 0);
    const counts = { batched, sent: 0, skipped: 0, retried: 0, failed: 0 };
    for (;;) {
      const claimed = await queries.claimDue(deps.db, deps.clock.now(), LEASE_MS, BATCH);
      if (claimed.length === 0) break;
      for (const delivery of claimed) {
        try {
          const outcome = await deliver(deps, delivery);
          // The subscription's removal took a gone push's row with it.
          await queries.finish(deps.db, delivery.id, outcome, deps.clock.now());
          counts[outcome] += 1;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          deps.metrics?.deliveryFailed(delivery.channel, delivery.attempts >= DELIVERY_ATTEMPTS);
          if (delivery.attempts >= DELIVERY_ATTEMPTS) {
            await queries.finish(deps.db, delivery.id, 'failed', deps.clock.now(), message);
            deps.log.error(
              { err: error, deliveryId: delivery.id, channel: delivery.channel },
              'delivery failed for good',
            );
            counts.failed += 1;
          } else {
            const dueAt = new Date(deps.clock.now().getTime() + retryDelayMs(delivery.attempts));
            await queries.retryLater(deps.db, delivery.id, dueAt, message);
            deps.log.warn(
              { err: error, deliveryId: delivery.id, channel: delivery.channel, attempts: delivery.attempts },
              'delivery will be retried',
            );
            counts.retried += 1;
          }
        }
      }
      if (claimed.length < BATCH) break;
    }
    return counts;
  },

  /** For /metrics: per channel, the deliveries waiting and how late the most overdue one is. */
  backlog(db: Db, now: Date) {
    return queries.backlog(db, now);
  },

  /** Deletes finished deliveries past their keeping time, a batch at a time; answers how many. */
  async forgetFinished(deps: Pick<DeliveryDeps, 'db' | 'clock'>) {
    const now = deps.clock.now().getTime();
    let forgotten = 0;
    for (;;) {
      const deleted = await queries.deleteFinished(
        deps.db,
        new Date(now - KEEP_DONE_DELIVERIES_MS),
        new Date(now - KEEP_FAILED_DELIVERIES_MS),
        FORGET_BATCH,
      );
      forgotten += deleted;
      if (deleted < FORGET_BATCH) return forgotten;
    }
  },

  /** The browser's subscription from PushManager.subscribe, stored for the signed-in person. */
  async subscribe(
    deps: Pick<DeliveryDeps, 'db' | 'push'>,
    userId: string,
    input: { endpoint: string; keys: { p256dh: string; auth: string } },
  ) {
    if (!deps.push) throw pushOff();
    const problem = await deps.push.endpointProblem(input.endpoint);
    if (problem) throw badRequest(problem, [{ path: 'endpoint', message: problem }]);
    await queries.upsertSubscription(deps.db, {
      userId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
    });
    return { subscribed: true as const };
  },

  /** Forgets this device (its endpoint); answers whether it was the person's. */
  async unsubscribe(db: Db, userId: string, endpoint: string) {
    return { removed: (await queries.deleteSubscription(db, { userId, endpoint })) > 0 };
  },

  async status(deps: Pick<DeliveryDeps, 'db' | 'push'>, userId: string, endpoint?: string) {
    return {
      available: deps.push !== null,
      publicKey: deps.push?.publicKey ?? null,
      devices: await queries.countSubscriptions(deps.db, userId),
      thisDevice: endpoint ? (await queries.countSubscriptions(deps.db, userId, endpoint)) > 0 : false,
    };
  },

  /** The one-click unsubscribe: the token names the person and the kind; no session needed. */
  async unsubscribeByToken(db: Db, token: string) {
    const named = await readUnsubscribeToken(db, token);
    if (!named) throw badRequest(msg`This unsubscribe link is not valid.`);
    const kind = EMAIL_KINDS.find((k) => k.kind === named.kind)!;
    if (kind.required) throw badRequest(msg`These e-mails cannot be turned off.`);
    const recipient = await queries.findRecipient(db, named.userId);
    if (!recipient) throw badRequest(msg`This unsubscribe link is not valid.`);
    if (!recipient.deletedAt)
      await preferenceService.set(db, named.userId, { kind: named.kind, email: false });
    return { kind: named.kind as EmailKind, label: kind.label, locale: recipient.locale };
  },

  /**
   * For the confirmation page: what the link would turn off, without turning it off, and the language
   * of the person it belongs to (their e-mail was written in it).
   */
  async describeToken(db: Db, token: string) {
    const named = await readUnsubscribeToken(db, token);
    if (!named) return null;
    const recipient = await queries.findRecipient(db, named.userId);
    return { ...EMAIL_KINDS.find((k) => k.kind === named.kind)!, locale: recipient?.locale ?? null };
  },
};

const pushOff = () =>
  new AppError(
    503,
    'PUSH_UNAVAILABLE',
    msg`Push notifications are off on this server (no VAPID keys are set).`,
  );
