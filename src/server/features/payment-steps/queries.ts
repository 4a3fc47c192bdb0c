import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { items } from '../../db/schema/items.ts';
import { paymentIntents, paymentMismatches, paymentSteps } from '../../db/schema/payments.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about recorded payment intents, the payment outbox (steps) and
// reconciliation findings, and the runner's own state of a step. Steps are created, and the billing rows
// they settle written, by the ledger (features/ledger).

export type IntentRow = typeof paymentIntents.$inferSelect;
export type StepRow = typeof paymentSteps.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Recorded intents

export async function insertIntent(db: Db, values: typeof paymentIntents.$inferInsert): Promise<void> {
  await db.insert(paymentIntents).values(values);
}

/** The intent's row, locked until the transaction ends: a request and the sweeper never both take it. */
export async function lockIntent(db: Db, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(paymentIntents).where(eq(paymentIntents.id, id)).for('update');
  return row;
}

export async function findIntent(db: Db, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(paymentIntents).where(eq(paymentIntents.id, id));
  return row;
}

export async function markIntentUsedByExtension(db: Db, id: string): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ status: 'used', updatedAt: new Date() })
    .where(eq(paymentIntents.id, id));
}

export async function markIntentAbandoned(db: Db, id: string): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ status: 'abandoned', updatedAt: new Date() })
    .where(eq(paymentIntents.id, id));
}

/** What a webhook or a step last heard from the provider about the intent. */
export async function setProviderStatus(
  db: Db,
  id: string,
  values: { providerStatus?: string; lastError?: string | null },
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(paymentIntents.id, id))
    .returning({ id: paymentIntents.id });
  return rows.length > 0;
}

/** Intents no request used, older than `before`, oldest first; locked rows (a request in flight) are skipped. */
export async function lockOpenIntentsBefore(db: Db, before: Date, limit: number): Promise<IntentRow[]> {
  return db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.status, 'open'), lt(paymentIntents.createdAt, before)))
    .orderBy(asc(paymentIntents.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Used intents least recently compared with the provider. */
export async function intentsToReconcile(db: Db, limit: number): Promise<IntentRow[]> {
  return db
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.status, 'used'))
    .orderBy(sql`${paymentIntents.reconciledAt} asc nulls first`)
    .limit(limit);
}

export async function setReconciled(db: Db, id: string, at: Date): Promise<void> {
  await db.update(paymentIntents).set({ reconciledAt: at }).where(eq(paymentIntents.id, id));
}

// ---------------------------------------------------------------------------------------------
// Steps

export async function findStep(db: Db, id: string): Promise<StepRow | undefined> {
  const [row] = await db.select().from(paymentSteps).where(eq(paymentSteps.id, id));
  return row;
}

export async function stepsOfIntent(db: Db, intentId: string): Promise<StepRow[]> {
  return db
    .select()
    .from(paymentSteps)
    .where(eq(paymentSteps.paymentIntentId, intentId))
    .orderBy(asc(paymentSteps.seq));
}

/** The first step of the intent that is not done: the one that must run (or be mended) next. */
export async function firstUnfinishedStep(db: Db, intentId: string): Promise<StepRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentSteps)
    .where(
      and(
        eq(paymentSteps.paymentIntentId, intentId),
        inArray(paymentSteps.status, ['pending', 'running', 'failed', 'waiting']),
      ),
    )
    .orderBy(asc(paymentSteps.seq))
    .limit(1);
  return row;
}

/**
 * Takes a step to run: pending, or running under a lease that ran out (its runner crashed). Answers
 * the step with its attempt counted, or nothing when another runner holds it.
 */
export async function claimStep(db: Db, id: string, leaseMs: number): Promise<StepRow | undefined> {
  const now = new Date();
  const [row] = await db
    .update(paymentSteps)
    .set({
      status: 'running',
      attempts: sql`${paymentSteps.attempts} + 1`,
      lockedUntil: new Date(now.getTime() + leaseMs),
      updatedAt: now,
    })
    .where(
      and(
        eq(paymentSteps.id, id),
        or(
          eq(paymentSteps.status, 'pending'),
          and(eq(paymentSteps.status, 'running'), lt(paymentSteps.lockedUntil, now)),
        ),
      ),
    )
    .returning();
  return row;
}

/**
 * Gives back a claim whose runner could not write what happened (its connection was cut): the step is
 * pending again at once instead of `running` until the lease runs out. Only the claim it made: a later
 * runner's (another attempt count) is left alone.
 */
export async function releaseClaim(db: Db, id: string, attempts: number): Promise<boolean> {
  const rows = await db
    .update(paymentSteps)
    .set({ status: 'pending', lockedUntil: null, updatedAt: new Date() })
    .where(
      and(eq(paymentSteps.id, id), eq(paymentSteps.status, 'running'), eq(paymentSteps.attempts, attempts)),
    )
    .returning({ id: paymentSteps.id });
  return rows.length > 0;
}

/** Marks a step done, once: answers it only to the caller that made the change. */
export async function finishStep(
  db: Db,
  id: string,
  providerRef: string | null,
): Promise<StepRow | undefined> {
  const now = new Date();
  const [row] = await db
    .update(paymentSteps)
    .set({
      status: 'succeeded',
      providerRef,
      completedAt: now,
      updatedAt: now,
      lockedUntil: null,
      lastError: null,
    })
    .where(and(eq(paymentSteps.id, id), inArray(paymentSteps.status, ['pending', 'running', 'failed'])))
    .returning();
  return row;
}

/** A failed attempt: back to pending for the next retry, or failed for good (moderators see it). */
export async function recordFailure(
  db: Db,
  id: string,
  error: string,
  final: boolean,
): Promise<StepRow | undefined> {
  const [row] = await db
    .update(paymentSteps)
    .set({ status: final ? 'failed' : 'pending', lastError: error, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(paymentSteps.id, id), eq(paymentSteps.status, 'running')))
    .returning();
  return row;
}

/** A moderator's retry: a failed step goes back to pending, with a fresh set of retries. */
export async function reopenFailed(db: Db, id: string): Promise<StepRow | undefined> {
  const [row] = await db
    .update(paymentSteps)
    .set({ status: 'pending', attempts: 0, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(paymentSteps.id, id), eq(paymentSteps.status, 'failed')))
    .returning();
  return row;
}

/** Intents with a step waiting to run now: pending, or running under a lease that ran out. */
export async function intentsWithRunnableSteps(db: Db, limit: number, pendingBefore?: Date) {
  const now = new Date();
  const rows = await db
    .selectDistinct({ id: paymentSteps.paymentIntentId })
    .from(paymentSteps)
    .where(
      or(
        and(
          pendingBefore
            ? and(eq(paymentSteps.status, 'pending'), lt(paymentSteps.updatedAt, pendingBefore))
            : eq(paymentSteps.status, 'pending'),
          // A step due later (an off-session authorisation close to a start) is not runnable yet.
          or(isNull(paymentSteps.notBefore), lte(paymentSteps.notBefore, now)),
        ),
        and(eq(paymentSteps.status, 'running'), lt(paymentSteps.lockedUntil, now)),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * The intent's refund steps in these statuses, summed: succeeded is what we know we gave back;
 * pending, running and failed are refunds asked for and not made yet.
 */
export async function refundCents(
  db: Db,
  intentId: string,
  statuses: ('pending' | 'running' | 'succeeded' | 'failed')[],
): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${paymentSteps.amountCents}), 0)::int` })
    .from(paymentSteps)
    .where(
      and(
        eq(paymentSteps.paymentIntentId, intentId),
        eq(paymentSteps.kind, 'refund'),
        inArray(paymentSteps.status, statuses),
      ),
    );
  return row?.total ?? 0;
}

/** Steps moderators must look at (failed) or that are waiting for a retry (pending after a failure). */
export async function stepsNeedingAttention(db: Db, limit: number) {
  return db
    .select({
      step: paymentSteps,
      itemTitle: items.title,
      borrowerName: sql<string | null>`borrower.full_name`,
      lenderName: sql<string | null>`lender.full_name`,
      borrowerId: reservations.borrowerId,
      lenderId: reservations.providerId,
    })
    .from(paymentSteps)
    .leftJoin(reservations, eq(reservations.id, paymentSteps.reservationId))
    .leftJoin(items, eq(items.id, reservations.itemId))
    .leftJoin(sql`${users} as borrower`, sql`borrower.id = ${reservations.borrowerId}`)
    .leftJoin(sql`${users} as lender`, sql`lender.id = ${reservations.providerId}`)
    .where(
      or(
        eq(paymentSteps.status, 'failed'),
        and(inArray(paymentSteps.status, ['pending', 'running']), sql`${paymentSteps.lastError} is not null`),
      ),
    )
    .orderBy(desc(paymentSteps.updatedAt))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------------
// Reconciliation findings

export async function recordMismatch(
  db: Db,
  values: {
    paymentIntentId: string;
    reservationId: string | null;
    billingNetCents: number;
    providerNetCents: number;
  },
): Promise<void> {
  await db
    .insert(paymentMismatches)
    .values(values)
    .onConflictDoUpdate({
      target: paymentMismatches.paymentIntentId,
      targetWhere: isNull(paymentMismatches.resolvedAt),
      set: {
        billingNetCents: values.billingNetCents,
        providerNetCents: values.providerNetCents,
        detectedAt: new Date(),
      },
    });
}

export async function openMismatches(db: Db, limit: number) {
  return db
    .select({
      mismatch: paymentMismatches,
      itemTitle: items.title,
      borrowerId: reservations.borrowerId,
      lenderId: reservations.providerId,
    })
    .from(paymentMismatches)
    .leftJoin(reservations, eq(reservations.id, paymentMismatches.reservationId))
    .leftJoin(items, eq(items.id, reservations.itemId))
    .where(isNull(paymentMismatches.resolvedAt))
    .orderBy(desc(paymentMismatches.detectedAt))
    .limit(limit);
}

/**
 * Unfinished steps by status (pending, running, failed: GET /metrics). Finished ones are not counted:
 * they only grow, and reading them all at every scrape would scan the table; the partial index
 * `payment_steps_open_idx` holds exactly these.
 */
export async function countUnfinishedSteps(db: Db): Promise<{ status: string; count: number }[]> {
  return db
    .select({ status: paymentSteps.status, count: sql<number>`count(*)::int` })
    .from(paymentSteps)
    .where(inArray(paymentSteps.status, ['pending', 'running', 'failed']))
    .groupBy(paymentSteps.status);
}

/** Reconciliation findings no moderator has closed yet (GET /metrics). */
export async function countOpenMismatches(db: Db): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(paymentMismatches)
    .where(isNull(paymentMismatches.resolvedAt));
  return row?.count ?? 0;
}

/** The reservation's two people of a finding, when it is about a reservation. */
export async function mismatchParties(db: Db, id: string) {
  const [row] = await db
    .select({ borrowerId: reservations.borrowerId, lenderId: reservations.providerId })
    .from(paymentMismatches)
    .leftJoin(reservations, eq(reservations.id, paymentMismatches.reservationId))
    .where(eq(paymentMismatches.id, id));
  return row;
}

export async function resolveMismatch(db: Db, id: string, by: string | null, note: string): Promise<boolean> {
  const rows = await db
    .update(paymentMismatches)
    .set({ resolvedAt: new Date(), resolvedBy: by, note })
    .where(and(eq(paymentMismatches.id, id), isNull(paymentMismatches.resolvedAt)))
    .returning({ id: paymentMismatches.id });
  return rows.length > 0;
}

export async function resolveMismatchesOfIntent(db: Db, intentId: string, note: string): Promise<void> {
  await db
    .update(paymentMismatches)
    .set({ resolvedAt: new Date(), note })
    .where(and(eq(paymentMismatches.paymentIntentId, intentId), isNull(paymentMismatches.resolvedAt)));
}

/** The parties and title of the reservation a step is for: the words of its notifications. */
export async function reservationParties(db: Db, reservationId: string) {
  const [row] = await db
    .select({
      itemId: reservations.itemId,
      title: items.title,
      borrowerId: reservations.borrowerId,
      providerId: reservations.providerId,
      status: reservations.status,
    })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .where(eq(reservations.id, reservationId));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Off-session authorisations of bookings far ahead (decision 062)

/** The booking an off-session authorisation is for: its saved card and the borrower's customer. */
export async function offSessionCardOf(db: Db, reservationId: string) {
  const [row] = await db
    .select({
      paymentMethod: reservations.offSessionPaymentMethod,
      customerId: users.stripeCustomerId,
      startDate: reservations.startDate,
      status: reservations.status,
    })
    .from(reservations)
    .innerJoin(users, eq(users.id, reservations.borrowerId))
    .where(eq(reservations.id, reservationId));
  return row;
}

/** The bank refused the off-session authorisation: the step waits for the borrower to fix the card. */
export async function waitForBorrower(db: Db, id: string, error: string): Promise<StepRow | undefined> {
  const [row] = await db
    .update(paymentSteps)
    .set({ status: 'waiting', lastError: error, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(paymentSteps.id, id), eq(paymentSteps.status, 'running')))
    .returning();
  return row;
}

/** The borrower fixed the card: the waiting authorisation runs again now (it finds the intent authorised). */
export async function reopenWaiting(db: Db, intentId: string): Promise<boolean> {
  const rows = await db
    .update(paymentSteps)
    .set({ status: 'pending', notBefore: null, lockedUntil: null, updatedAt: new Date() })
    .where(
      and(
        eq(paymentSteps.paymentIntentId, intentId),
        eq(paymentSteps.kind, 'authorise'),
        eq(paymentSteps.status, 'waiting'),
      ),
    )
    .returning({ id: paymentSteps.id });
  return rows.length > 0;
}

/** Intents whose off-session authorisation has come due (pending, its time reached). */
export async function dueAuthorisations(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: paymentSteps.paymentIntentId })
    .from(paymentSteps)
    .where(
      and(
        eq(paymentSteps.kind, 'authorise'),
        eq(paymentSteps.status, 'pending'),
        isNotNull(paymentSteps.notBefore),
        lte(paymentSteps.notBefore, now),
      ),
    )
    .orderBy(asc(paymentSteps.notBefore))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The booking's card is held now: its six days run from here, and any problem is over. */
export async function markAuthorised(db: Db, reservationId: string, at: Date): Promise<void> {
  await db
    .update(reservations)
    .set({ authorisedAt: at, cardProblem: null, cardFixBy: null, updatedAt: at })
    .where(eq(reservations.id, reservationId));
}

/** The off-session authorisation failed: why, and by when the borrower must fix it. */
export async function markCardProblem(
  db: Db,
  reservationId: string,
  problem: 'declined' | 'authentication_required',
  fixBy: Date,
): Promise<void> {
  await db
    .update(reservations)
    .set({ cardProblem: problem, cardFixBy: fixBy, updatedAt: new Date() })
    .where(eq(reservations.id, reservationId));
}
