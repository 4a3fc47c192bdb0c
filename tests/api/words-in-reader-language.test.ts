import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { billingHistory } from '../../src/server/db/schema/payments.ts';
import { type Notice as ScenarioNotice, notices as scenarioNotices } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, reserve, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Notifications and billing rows are written in the language of the person reading them, at the moment
// they read them (decision 052): a student who switches language reads the earlier ones in the new one
// too. Rows stored before their wording was kept read as they were written. Runs on PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.

const t = setupTestApp(WITHOUT_SERVICE_FEE);
const db = () => t.database.db;

type Notice = ScenarioNotice & { id: string };
const notices = async (t: Parameters<typeof scenarioNotices>[0], cookie: string) =>
  (await scenarioNotices(t, cookie)) as Notice[];

/** A day label as notifications write it ('5 mar' in Spanish, 'Mar 5' in English). */
function dayLabel(date: string, locale: 'es-US' | 'en-US'): string {
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year!, month! - 1, dayOfMonth!),
  );
}

async function speaks(cookie: string, locale: 'en' | 'es') {
  const response = await t.put('/api/account/language', { locale }, cookie);
  expect(response.statusCode).toBe(200);
}

async function noticeOf(cookie: string, type: string): Promise<Notice> {
  const found = (await notices(t, cookie)).find((n) => n.type === type);
  expect(found, `a ${type} notification`).toBeDefined();
  return found!;
}

async function unreadOf(cookie: string, type: string): Promise<Notice> {
  const response = await t.get('/api/notifications/unread', cookie);
  expect(response.statusCode).toBe(200);
  const found = (response.json().notifications as Notice[]).find((n) => n.type === type);
  expect(found, `an unread ${type} notification`).toBeDefined();
  return found!;
}

const descriptions = async (cookie: string) =>
  ((await t.get('/api/billing-history', cookie)).json().transactions as { description: string }[]).map(
    (row) => row.description,
  );

describe('notifications in the reader’s language', () => {
  it('a notification sent in English reads in Spanish once the reader switches, on the page and in the bell', async () => {
    const s = await scenario(t);
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(3));
    expect(r.create?.statusCode).toBe(201);
    const who = s.borrower.user.fullName;
    const english = `${who} wants to borrow Cordless drill from ${dayLabel(day(1), 'en-US')} to ${dayLabel(day(3), 'en-US')}.`;

    // Sent (and first read, so the bell's answer is remembered) in English.
    const sent = await noticeOf(s.lender.cookie, 'reservation_request');
    expect(sent).toMatchObject({ title: 'New reservation request', message: english });
    expect((await unreadOf(s.lender.cookie, 'reservation_request')).title).toBe('New reservation request');

    await speaks(s.lender.cookie, 'es');
    const spanish = `${who} quiere pedir prestado Cordless drill del ${dayLabel(day(1), 'es-US')} al ${dayLabel(day(3), 'es-US')}.`;
    const read = await noticeOf(s.lender.cookie, 'reservation_request');
    expect(read.id).toBe(sent.id);
    expect(read).toMatchObject({ title: 'Nueva solicitud de reserva', message: spanish });
    expect(await unreadOf(s.lender.cookie, 'reservation_request')).toMatchObject({
      id: sent.id,
      title: 'Nueva solicitud de reserva',
      message: spanish,
    });

    // And back: the words follow the reader, not the row.
    await speaks(s.lender.cookie, 'en');
    expect(await noticeOf(s.lender.cookie, 'reservation_request')).toMatchObject({
      title: 'New reservation request',
      message: english,
    });
  });

  it('a notification and a billing row sent in Spanish read in English once the reader switches', async () => {
    const s = await scenario(t);
    await speaks(s.borrower.cookie, 'es');
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(3));
    expect(r.create?.statusCode).toBe(201);
    expect(
      (await t.post(`/api/reservations/${r.reservation.id}/approve`, {}, s.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    const [esStart, esEnd] = [dayLabel(day(1), 'es-US'), dayLabel(day(3), 'es-US')];
    const [enStart, enEnd] = [dayLabel(day(1), 'en-US'), dayLabel(day(3), 'en-US')];

    expect((await noticeOf(s.borrower.cookie, 'reservation_approved')).title).toBe('Reserva aprobada');
    expect(await descriptions(s.borrower.cookie)).toEqual([
      `Pago por Cordless drill (del ${esStart} al ${esEnd})`,
    ]);

    await speaks(s.borrower.cookie, 'en');
    const approved = await noticeOf(s.borrower.cookie, 'reservation_approved');
    expect(approved.title).toBe('Reservation approved');
    expect(approved.message).toBe(
      `${s.lender.user.fullName} approved your request for Cordless drill (${enStart} to ${enEnd}). ` +
        'Your card is charged $30.00 now: $10.00 rental and a $20.00 deposit that is refunded when you ' +
        'return the item. Your pickup code is in My Reservations.',
    );
    expect(await descriptions(s.borrower.cookie)).toEqual([
      `Payment for Cordless drill (${enStart} to ${enEnd})`,
    ]);

    // The language switch's cookie is the reader's choice too, before the saved one.
    const chosen = await t.request({
      method: 'GET',
      url: '/api/billing-history',
      cookie: `${s.borrower.cookie}; campusloop_lang=es`,
    });
    expect(chosen.json().transactions[0].description).toBe(
      `Pago por Cordless drill (del ${esStart} al ${esEnd})`,
    );

    // The words keep what they need, not the booking's row (its pickup code stays in the booking).
    const [stored] = await db().select().from(notifications).where(eq(notifications.id, approved.id));
    expect(stored!.wordingKind).toBe('reservations.approvedText');
    expect(JSON.stringify(stored!.wordingValues)).not.toMatch(/pickupCode|borrowerId|"id"/);
  });

  it('rows without a wording (stored before it was kept) read as they were written, in any language', async () => {
    const s = await scenario(t);
    const [old] = await db()
      .insert(notifications)
      .values({ userId: s.lender.user.id, type: 'system', title: 'Old title', message: 'Old message' })
      .returning();
    // A kind nobody writes any more reads as stored too.
    const [gone] = await db()
      .insert(notifications)
      .values({
        userId: s.lender.user.id,
        type: 'system',
        title: 'Gone title',
        message: 'Gone message',
        wordingKind: 'reservations.noSuchWording',
        wordingValues: ['x'],
      })
      .returning();
    await db().insert(billingHistory).values({
      userId: s.lender.user.id,
      amountCents: 1000,
      status: 'completed',
      description: 'Rental: Cordless drill',
    });

    for (const locale of ['es', 'en'] as const) {
      await speaks(s.lender.cookie, locale);
      const list = await notices(t, s.lender.cookie);
      expect(list.find((n) => n.id === old!.id)).toMatchObject({
        title: 'Old title',
        message: 'Old message',
      });
      expect(list.find((n) => n.id === gone!.id)).toMatchObject({
        title: 'Gone title',
        message: 'Gone message',
      });
      expect(await descriptions(s.lender.cookie)).toEqual(['Rental: Cordless drill']);
    }
  });
});
