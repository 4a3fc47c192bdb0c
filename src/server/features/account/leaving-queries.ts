import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { BOOKED_STATUSES } from '#shared/booking/availability.ts';
import { FORMER_STUDENT } from '#shared/schemas/leaving.ts';
import type { Db } from '../../db/client.ts';
import { conversations, messages } from '../../db/schema/chat.ts';
import { reviews, userBadges } from '../../db/schema/community.ts';
import { notificationDeliveries, pushSubscriptions } from '../../db/schema/deliveries.ts';
import { reservationHandovers } from '../../db/schema/handovers.ts';
import { items } from '../../db/schema/items.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { billingHistory, paymentIntents, savedPaymentMethods } from '../../db/schema/payments.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { reservations } from '../../db/schema/reservations.ts';
import {
  emailChanges,
  emailVerifications,
  notificationPreferences,
  passwordResets,
  sessions,
  users,
} from '../../db/schema/users.ts';
import { waitlistEntries } from '../../db/schema/waitlist.ts';
import { ledgerService } from '../ledger/service.ts';

// The only place that reads a person's data for their export and erases it when they leave
// (decision 023). It reaches across tables on purpose: leaving touches everything a person has.

const other = alias(users, 'other_party');

export async function findProfile(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      fullName: users.fullName,
      campus: users.campus,
      profileImage: users.profileImage,
      isVerified: users.isVerified,
      createdAt: users.createdAt,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export function listItems(db: Db, userId: string) {
  return db
    .select({
      id: items.id,
      title: items.title,
      description: items.description,
      category: items.category,
      condition: items.condition,
      images: items.images,
      depositCents: items.depositCents,
      rentalPriceCents: items.rentalPriceCents,
      rentalPeriod: items.rentalPeriod,
      pickupMethod: items.pickupMethod,
      pickupLocation: items.pickupLocation,
      availableFrom: items.availableFrom,
      availableUntil: items.availableUntil,
      createdAt: items.createdAt,
      deletedAt: items.deletedAt,
    })
    .from(items)
    .where(eq(items.userId, userId))
    .orderBy(asc(items.createdAt));
}

/** Both sides: what they borrowed and what they lent, with the other party's name only. */
export function listReservations(db: Db, userId: string) {
  return db
    .select({
      id: reservations.id,
      role: sql<
        'borrower' | 'lender'
      >`case when ${reservations.borrowerId} = ${userId} then 'borrower' else 'lender' end`,
      itemTitle: items.title,
      otherParty: other.fullName,
      startDate: reservations.startDate,
      endDate: reservations.endDate,
      status: reservations.status,
      depositCents: reservations.depositCents,
      rentalCents: reservations.rentalCents,
      createdAt: reservations.createdAt,
      completedAt: reservations.completedAt,
    })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(
      other,
      eq(
        other.id,
        sql`case when ${reservations.borrowerId} = ${userId} then ${reservations.providerId} else ${reservations.borrowerId} end`,
      ),
    )
    .where(or(eq(reservations.borrowerId, userId), eq(reservations.providerId, userId)))
    .orderBy(asc(reservations.createdAt));
}

/** The messages of their conversations, theirs marked: a chat is theirs to keep as they saw it. */
export function listMessages(db: Db, userId: string) {
  return db
    .select({
      conversationId: messages.conversationId,
      itemTitle: items.title,
      sentByMe: sql<boolean>`${messages.senderId} = ${userId}`,
      content: messages.content,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(items, eq(items.id, conversations.itemId))
    .where(or(eq(conversations.buyerId, userId), eq(conversations.sellerId, userId)))
    .orderBy(asc(messages.conversationId), asc(messages.seq));
}

export function listReviewsWritten(db: Db, userId: string) {
  return db
    .select({
      id: reviews.id,
      reservationId: reviews.reservationId,
      about: other.fullName,
      rating: reviews.rating,
      itemRating: reviews.itemRating,
      comment: reviews.comment,
      reviewType: reviews.reviewType,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .innerJoin(other, eq(other.id, reviews.revieweeId))
    .where(eq(reviews.reviewerId, userId))
    .orderBy(asc(reviews.createdAt));
}

export function listBilling(db: Db, userId: string) {
  return db
    .select({
      id: billingHistory.id,
      reservationId: billingHistory.reservationId,
      kind: billingHistory.kind,
      status: billingHistory.status,
      amountCents: billingHistory.amountCents,
      currency: billingHistory.currency,
      description: billingHistory.description,
      paymentMethodType: billingHistory.paymentMethodType,
      paymentMethodLast4: billingHistory.paymentMethodLast4,
      refundAmountCents: billingHistory.refundAmountCents,
      refundedAt: billingHistory.refundedAt,
      createdAt: billingHistory.createdAt,
    })
    .from(billingHistory)
    .where(eq(billingHistory.userId, userId))
    .orderBy(asc(billingHistory.createdAt));
}

/** The photos and notes they added at handovers, with the item they were about. */
export function listHandovers(db: Db, userId: string) {
  return db
    .select({
      reservationId: reservationHandovers.reservationId,
      itemTitle: items.title,
      stage: reservationHandovers.stage,
      photos: reservationHandovers.photos,
      note: reservationHandovers.note,
      createdAt: reservationHandovers.createdAt,
    })
    .from(reservationHandovers)
    .innerJoin(reservations, eq(reservations.id, reservationHandovers.reservationId))
    .innerJoin(items, eq(items.id, reservations.itemId))
    .where(eq(reservationHandovers.authorId, userId))
    .orderBy(asc(reservationHandovers.createdAt));
}

/** The person's row, locked for the deletion (no reservation starts or changes them meanwhile). */
export async function lockUser(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      deletedAt: users.deletedAt,
      locale: users.locale,
      customerId: users.stripeCustomerId,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

const theirs = (userId: string) =>
  or(eq(reservations.borrowerId, userId), eq(reservations.providerId, userId));

/**
 * Whether a reservation of theirs (either side) is approved or in progress: booked, which includes a
 * return the lender has not answered and a deposit claim not settled.
 */
export async function hasActiveReservation(db: Db, userId: string) {
  const [row] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(theirs(userId), inArray(reservations.status, [...BOOKED_STATUSES])))
    .limit(1);
  return Boolean(row);
}

/**
 * Whether money is held for them or their items: a request waiting for its lender with a card
 * authorisation behind it, or an authorisation of theirs no request has used yet.
 */
export async function hasMoneyHeld(db: Db, userId: string) {
  const [pending] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        theirs(userId),
        eq(reservations.status, 'pending'),
        sql`${reservations.stripePaymentIntentId} is not null`,
      ),
    )
    .limit(1);
  if (pending) return true;
  const [open] = await db
    .select({ id: paymentIntents.id })
    .from(paymentIntents)
    .where(and(eq(paymentIntents.borrowerId, userId), eq(paymentIntents.status, 'open')))
    .limit(1);
  return Boolean(open);
}

/** Their requests no money stands behind, either side: cancelled; answers them for the other party's notice. */
export async function cancelPendingReservations(db: Db, userId: string) {
  return db
    .update(reservations)
    .set({ status: 'cancelled', updatedAt: new Date() })
    .where(and(theirs(userId), eq(reservations.status, 'pending')))
    .returning({
      id: reservations.id,
      itemId: reservations.itemId,
      borrowerId: reservations.borrowerId,
      providerId: reservations.providerId,
    });
}

/** Their listings leave every list; past reservations keep them (decision 005). */
export async function removeItems(db: Db, userId: string, now: Date) {
  await db
    .update(items)
    .set({ deletedAt: now, isAvailable: false })
    .where(and(eq(items.userId, userId), isNull(items.deletedAt)));
}

/**
 * Their name leaves the rows other people keep: the lender's earning rows ("… lent to Name") and the
 * notices that named them. The billing rows themselves stay (the law asks for them).
 */
export async function forgetName(db: Db, userId: string, fullName: string) {
  const theirReservations = db.select({ id: reservations.id }).from(reservations).where(theirs(userId));
  await ledgerService.forgetName(db, userId, fullName, FORMER_STUDENT);
  await db
    .update(notifications)
    .set({
      title: sql`replace(${notifications.title}, ${fullName}, ${FORMER_STUDENT})`,
      message: sql`replace(${notifications.message}, ${fullName}, ${FORMER_STUDENT})`,
      // The wording's values hold the name too: the notice is read as stored from now on.
      wordingKind: null,
      wordingValues: null,
    })
    .where(
      or(
        inArray(notifications.relatedReservationId, theirReservations),
        inArray(
          notifications.relatedItemId,
          db.select({ id: items.id }).from(items).where(eq(items.userId, userId)),
        ),
      ),
    );
}

/** Everything that is only theirs and means nothing without them. Ending sessions closes their sockets. */
export async function deletePrivateRows(db: Db, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await db.delete(emailVerifications).where(eq(emailVerifications.userId, userId));
  await db.delete(passwordResets).where(eq(passwordResets.userId, userId));
  await db.delete(emailChanges).where(eq(emailChanges.userId, userId));
  await db.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  await db.delete(notifications).where(eq(notifications.userId, userId));
  await db.delete(savedPaymentMethods).where(eq(savedPaymentMethods.userId, userId));
  await db.delete(userBadges).where(eq(userBadges.userId, userId));
  // Their devices' push addresses, what was still to be sent to them (a message e-mail has no
  // notification row to go with), and the dates they waited for.
  await db.delete(notificationDeliveries).where(eq(notificationDeliveries.userId, userId));
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  await db.delete(waitlistEntries).where(eq(waitlistEntries.userId, userId));
}

/** Their rate-limit counters (decision 037): nothing keyed by them outlives them. */
export async function forgetRateLimits(db: Db, keys: string[]) {
  await db.delete(rateLimits).where(inArray(rateLimits.key, keys));
}

/**
 * Decision 033: their records of the items' condition at handovers (photos and notes). Leaving is
 * refused while a reservation is open, so no claim or dispute still needs them. Answers the photos that
 * no listing, claim, dispute or other record shows, for their files to be deleted after the commit.
 */
export async function deleteHandovers(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .delete(reservationHandovers)
    .where(eq(reservationHandovers.authorId, userId))
    .returning({ photos: reservationHandovers.photos });
  const urls = [...new Set(rows.flatMap((row) => row.photos.map((photo) => photo.url)))];
  const unused: string[] = [];
  // A URL our storage gave out may have been sent more than once (a listing's photo, say): its file
  // stays while anything still shows it.
  for (const url of urls) {
    const { rows } = await db.execute<{ shown: boolean }>(sql`select
      exists (select 1 from ${items} where ${url} = any(${items.images}))
      or exists (select 1 from ${reservations} where ${url} = any(${reservations.claimPhotos}) or ${url} = any(${reservations.disputePhotos}))
      or exists (select 1 from ${reservationHandovers} where ${reservationHandovers.photos} @> ${JSON.stringify([{ url }])}::jsonb)
      as shown`);
    if (!rows[0]?.shown) unused.push(url);
  }
  return unused;
}

/**
 * The row stays (messages, reviews, reservations and billing keep a party) with nothing personal left:
 * an address and a username nobody can type or reach, no password that any input matches, no photo.
 */
export async function eraseUser(db: Db, userId: string, now: Date) {
  const tag = userId.replace(/-/g, '');
  await db
    .update(users)
    .set({
      email: `deleted-${tag}@deleted.invalid`,
      username: `former-${tag}`,
      fullName: FORMER_STUDENT,
      // Not an argon2 hash: verifying any password against it fails.
      passwordHash: 'deleted',
      profileImage: null,
      stripeCustomerId: null,
      deletedAt: now,
    })
    .where(eq(users.id, userId));
}
