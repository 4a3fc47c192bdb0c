import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrationsFolder } from '../../src/server/db/client.ts';
import { bookingEquation, journal } from '../../src/server/features/ledger/journal.ts';

// Migration 0035 writes the journal of what happened before it: a database with bookings charged,
// refunded, given back and let go under the earlier migrations is migrated, and its journal must say
// what its billing rows and earning entries say.

const JOURNAL_MIGRATION = '0035_journal';
let client: PGlite;
let db: Db;
let before: string;

const LENDER = '00000000-0000-4000-8000-000000000001';
const BORROWER = '00000000-0000-4000-8000-000000000002';
const ITEM = '00000000-0000-4000-8000-000000000003';
const KEPT = '00000000-0000-4000-8000-000000000010';
const GIVEN_BACK = '00000000-0000-4000-8000-000000000011';
const LET_GO = '00000000-0000-4000-8000-000000000012';

/** The migrations folder as it was before the journal: its journal file stops at the one before. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-before-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const file = path.join(dir, 'meta', '_journal.json');
  const meta = JSON.parse(readFileSync(file, 'utf8')) as { entries: { tag: string }[] };
  const at = meta.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  meta.entries = meta.entries.slice(0, at);
  writeFileSync(file, JSON.stringify(meta));
  return dir;
}

async function booking(id: string, intent: string, status: string) {
  await db.execute(sql`insert into reservations (id, item_id, borrower_id, provider_id, start_date, end_date,
      status, rental_cents, deposit_cents, rental_period, stripe_payment_intent_id)
    values (${id}, ${ITEM}, ${BORROWER}, ${LENDER}, '2026-10-01', '2026-10-02', ${status}, 1000, 2000, 'day', ${intent})`);
  await db.execute(sql`insert into payment_intents (id, borrower_id, item_id, start_date, end_date, rental_cents,
      deposit_cents, amount_cents, reservation_id, status)
    values (${intent}, ${BORROWER}, ${ITEM}, '2026-10-01', '2026-10-02', 1000, 2000, 3000, ${id}, 'used')`);
}

async function row(
  reservation: string,
  intent: string,
  kind: string,
  user: string,
  cents: number,
  status: string,
) {
  const { rows } = await db.execute<{ id: string }>(sql`insert into billing_history
      (user_id, reservation_id, stripe_payment_intent_id, amount_cents, status, kind, description,
       refund_amount_cents, refunded_at, created_at)
    values (${user}, ${reservation}, ${intent}, ${cents}, ${status}, ${kind}, ${`${kind} before the journal`},
      ${status === 'refunded' ? cents : null}, ${status === 'refunded' ? new Date('2026-10-03') : null},
      ${new Date('2026-10-01')})
    returning id`);
  return rows[0]!.id;
}

async function entry(reservation: string, intent: string, cents: number, reason: string, billingId: string) {
  await db.execute(sql`insert into earning_entries (lender_id, reservation_id, payment_intent_id, billing_id,
      amount_cents, reason)
    values (${LENDER}, ${reservation}, ${intent}, ${billingId}, ${cents}, ${reason})`);
}

beforeAll(async () => {
  client = new PGlite({ extensions: { btree_gist, pg_trgm } });
  db = drizzle(client) as unknown as Db;
  before = migrationsBefore(JOURNAL_MIGRATION);
  await migrate(drizzle(client), { migrationsFolder: before });

  await db.execute(sql`insert into users (id, email, username, password_hash, full_name, campus) values
    (${LENDER}, 'lena@stanford.edu', 'lena', 'x', 'Lena Lender', 'Stanford'),
    (${BORROWER}, 'bo@stanford.edu', 'bo', 'x', 'Bo Borrower', 'Stanford')`);
  await db.execute(sql`insert into items (id, user_id, title, description, category, condition, pickup_method,
      available_from, campus, rental_price_cents, rental_period, deposit_cents)
    values (${ITEM}, ${LENDER}, 'Drill', 'A drill', 'tools', 'good', 'meetup', '2026-09-01', 'Stanford', 500, 'day', 2000)`);

  // Charged, the deposit given back: the lender keeps the rental.
  await booking(KEPT, 'pi_kept', 'completed');
  await row(KEPT, 'pi_kept', 'payment', BORROWER, 3000, 'completed');
  const kept = await row(KEPT, 'pi_kept', 'earning', LENDER, 1000, 'completed');
  await entry(KEPT, 'pi_kept', 1000, 'rental', kept);
  await row(KEPT, 'pi_kept', 'refund', BORROWER, 2000, 'refunded');

  // Charged, then given back whole by the lender's cancellation: no earning is left.
  await booking(GIVEN_BACK, 'pi_given_back', 'cancelled');
  await row(GIVEN_BACK, 'pi_given_back', 'payment', BORROWER, 3000, 'completed');
  const back = await row(GIVEN_BACK, 'pi_given_back', 'earning', LENDER, 1000, 'refunded');
  await entry(GIVEN_BACK, 'pi_given_back', 1000, 'rental', back);
  await entry(GIVEN_BACK, 'pi_given_back', -1000, 'cancelled', back);
  await row(GIVEN_BACK, 'pi_given_back', 'refund', BORROWER, 3000, 'refunded');

  // Declined: the authorisation let go, nothing charged.
  await booking(LET_GO, 'pi_let_go', 'declined');
  await row(LET_GO, 'pi_let_go', 'payment', BORROWER, 3000, 'refunded');
  await db.execute(sql`insert into payment_steps (payment_intent_id, reservation_id, kind, purpose, amount_cents,
      status, idempotency_key, completed_at)
    values ('pi_let_go', ${LET_GO}, 'release', 'decline', 3000, 'succeeded', 'release-let-go', now())`);

  await migrate(drizzle(client), { migrationsFolder });
}, 120_000);

afterAll(async () => {
  await client?.close();
  if (before) rmSync(before, { recursive: true, force: true });
});

async function kinds(reservationId: string) {
  const { rows } = await db.execute<{ kind: string }>(
    sql`select kind from journal_transactions where reservation_id = ${reservationId} order by seq`,
  );
  return rows.map((r) => r.kind);
}

describe('the journal written for rows made before it', () => {
  it('journals each charge, its earning and each refund made, and each authorisation let go', async () => {
    expect(await kinds(KEPT)).toEqual(['capture', 'earning', 'refund']);
    expect(await kinds(GIVEN_BACK)).toEqual(['capture', 'refund']);
    expect(await kinds(LET_GO)).toEqual(['release']);
  });

  it('says what the rows say, per booking and per lender, and every transaction balances', async () => {
    const books = await journal.booksOfBookings(db, [KEPT, GIVEN_BACK, LET_GO]);
    const of = (id: string) => books.find((b) => b.reservationId === id);
    expect(of(KEPT)).toMatchObject({
      capturedCents: 3000,
      refundedCents: 2000,
      payableCents: 1000,
      heldCents: 0,
    });
    expect(of(GIVEN_BACK)).toMatchObject({
      capturedCents: 3000,
      refundedCents: 3000,
      payableCents: 0,
      heldCents: 0,
    });
    expect(of(LET_GO)).toBeUndefined();
    for (const b of books) {
      const { cashCents, accountedCents } = bookingEquation(b);
      expect(cashCents, b.reservationId).toBe(accountedCents);
    }
    expect(await journal.unbalancedTransactions(db)).toEqual([]);
    expect(await journal.intentsDisagreeingWithRows(db)).toEqual([]);
    expect(await journal.lendersDisagreeingWithEntries(db)).toEqual([]);
    expect(await journal.payableOf(db, LENDER)).toBe(1000);
  });

  it('dates what it wrote when it happened', async () => {
    const { rows } = await db.execute<{ at: string }>(sql`select min(created_at)::text as at
      from journal_transactions where reservation_id = ${KEPT} and kind = 'refund'`);
    expect(rows[0]!.at).toMatch(/^2026-10-03/);
  });
});
