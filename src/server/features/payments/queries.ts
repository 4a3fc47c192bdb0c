import { and, count, desc, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { billingHistory, paymentIntents, savedPaymentMethods } from '../../db/schema/payments.ts';
import { paymentEvents } from '../../db/schema/test-payments.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about saved cards, billing history, provider customers and
// webhook events.

export type SavedMethodRow = typeof savedPaymentMethods.$inferSelect;
export type BillingRow = typeof billingHistory.$inferSelect;

/** A person has a handful of cards and a few hundred transactions at most; the lists are capped all the same. */
const LIST_LIMIT = 200;

export function listMethods(db: Db, userId: string): Promise<SavedMethodRow[]> {
  return db
    .select()
    .from(savedPaymentMethods)
    .where(eq(savedPaymentMethods.userId, userId))
    .orderBy(desc(savedPaymentMethods.createdAt), desc(savedPaymentMethods.id))
    .limit(LIST_LIMIT);
}

export async function findMethod(db: Db, userId: string, id: string): Promise<SavedMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(savedPaymentMethods)
    .where(and(eq(savedPaymentMethods.id, id), eq(savedPaymentMethods.userId, userId)));
  return row;
}

/**
 * Takes the user's row lock: changes to one person's cards run one at a time, so two requests can
 * never both make a card the default (the partial unique index would refuse the second).
 */
export async function lockUser(db: Db, userId: string): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function countMethods(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(savedPaymentMethods)
    .where(eq(savedPaymentMethods.userId, userId));
  return row?.n ?? 0;
}

export async function insertMethod(
  db: Db,
  values: Omit<typeof savedPaymentMethods.$inferInsert, 'id' | 'createdAt'>,
): Promise<SavedMethodRow> {
  const [row] = await db.insert(savedPaymentMethods).values(values).returning();
  return row!;
}

export async function findMethodByProviderId(
  db: Db,
  providerId: string,
): Promise<SavedMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(savedPaymentMethods)
    .where(eq(savedPaymentMethods.stripePaymentMethodId, providerId));
  return row;
}

/** Makes `id` the user's one default card; the caller holds the user lock. */
export async function setDefault(db: Db, userId: string, id: string): Promise<void> {
  await db
    .update(savedPaymentMethods)
    .set({ isDefault: false })
    .where(
      and(
        eq(savedPaymentMethods.userId, userId),
        eq(savedPaymentMethods.isDefault, true),
        ne(savedPaymentMethods.id, id),
      ),
    );
  await db
    .update(savedPaymentMethods)
    .set({ isDefault: true })
    .where(and(eq(savedPaymentMethods.id, id), eq(savedPaymentMethods.userId, userId)));
}

export async function deleteMethod(db: Db, userId: string, id: string): Promise<SavedMethodRow | undefined> {
  const [row] = await db
    .delete(savedPaymentMethods)
    .where(and(eq(savedPaymentMethods.id, id), eq(savedPaymentMethods.userId, userId)))
    .returning();
  return row;
}

export async function customerIdOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ customerId: users.stripeCustomerId })
    .from(users)
    .where(eq(users.id, userId));
  return row?.customerId ?? null;
}

/** Stores the provider's customer id once; answers the id that is stored afterwards (first writer wins). */
export async function storeCustomerId(db: Db, userId: string, customerId: string): Promise<string> {
  await db
    .update(users)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(users.id, userId), isNull(users.stripeCustomerId)));
  return (await customerIdOf(db, userId)) ?? customerId;
}

export async function findUserIdByCustomerId(db: Db, customerId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.stripeCustomerId, customerId));
  return row?.id;
}

export async function eventSeen(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, id));
  return Boolean(row);
}

export async function recordEvent(db: Db, id: string, type: string): Promise<void> {
  await db.insert(paymentEvents).values({ id, type }).onConflictDoNothing();
}

/** A person's billing rows, each payment with the service fee its authorisation includes (decision 055). */
export async function listBilling(
  db: Db,
  userId: string,
): Promise<(BillingRow & { serviceFeeCents: number | null })[]> {
  const rows = await db
    .select({ row: billingHistory, serviceFeeCents: paymentIntents.serviceFeeCents })
    .from(billingHistory)
    .leftJoin(
      paymentIntents,
      and(eq(paymentIntents.id, billingHistory.stripePaymentIntentId), eq(billingHistory.kind, 'payment')),
    )
    .where(eq(billingHistory.userId, userId))
    .orderBy(desc(billingHistory.createdAt), desc(billingHistory.id))
    .limit(LIST_LIMIT);
  return rows.map(({ row, serviceFeeCents }) => ({ ...row, serviceFeeCents }));
}
