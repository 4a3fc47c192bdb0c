import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { receipts } from '../../db/schema/ledger.ts';

// The receipts owed to borrowers (decision 058): one per charge or refund step, written with the step's
// success; read and marked sent by the receipts' sender.

export async function insertReceipt(db: Db, values: typeof receipts.$inferInsert): Promise<void> {
  await db.insert(receipts).values(values).onConflictDoNothing();
}

/** Receipts not yet sent, oldest first, each held by this transaction (another sender skips it). */
export async function lockUnsent(db: Db, limit: number) {
  const { rows } = await db.execute<{
    stepId: string;
    kind: 'capture' | 'refund';
    purpose: string;
    amountCents: number;
    paymentIntentId: string;
    email: string | null;
    fullName: string | null;
    locale: string | null;
    deletedAt: Date | string | null;
    itemTitle: string | null;
    rentalCents: number | null;
    depositCents: number | null;
    serviceFeeCents: number | null;
  }>(sql`
    select r.step_id as "stepId", r.kind, r.purpose, r.amount_cents as "amountCents",
           r.payment_intent_id as "paymentIntentId", u.email, u.full_name as "fullName", u.locale,
           u.deleted_at as "deletedAt", i.title as "itemTitle",
           p.rental_cents as "rentalCents", p.deposit_cents as "depositCents",
           p.service_fee_cents as "serviceFeeCents"
    from receipts r
    left join users u on u.id = r.borrower_id
    left join payment_intents p on p.id = r.payment_intent_id
    left join reservations v on v.id = r.reservation_id
    left join items i on i.id = v.item_id
    where r.sent_at is null
    order by r.created_at
    limit ${limit}
    for update of r skip locked`);
  return rows;
}

export async function markSent(db: Db, stepId: string, at: Date): Promise<void> {
  await db.execute(sql`update receipts set sent_at = ${at} where step_id = ${stepId}`);
}
