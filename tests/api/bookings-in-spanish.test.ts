import { describe, expect, it } from 'vitest';
import { type Notice, notices } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, reserve, scenario, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// The booking features write for each person in their language. A borrower whose
// account speaks Spanish reads Spanish notifications (with Spanish day labels) and billing rows; the
// English-speaking lender of the same booking reads English; an error answer follows the caller's
// language (their account's, else Accept-Language). Runs on PGlite and, with TEST_DATABASE_URL, on
// PostgreSQL.

// Words in the reader's language; the fee's own amounts are in service-fee.test.ts.
const t = setupTestApp(WITHOUT_SERVICE_FEE);

/** A day label as notifications write it ('5 mar' in Spanish, 'Mar 5' in English). */
function dayLabel(date: string, locale: 'es-US' | 'en-US'): string {
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year!, month! - 1, dayOfMonth!),
  );
}

async function noticeOf(cookie: string, type: string): Promise<Notice> {
  const found = (await notices(t, cookie)).find((n) => n.type === type);
  expect(found, `a ${type} notification`).toBeDefined();
  return found!;
}

/** A lender (English) and a borrower whose account speaks Spanish. */
async function spanishBorrower() {
  const s = await scenario(t);
  const language = await t.put('/api/account/language', { locale: 'es' }, s.borrower.cookie);
  expect(language.statusCode).toBe(200);
  return s;
}

describe('the booking features in the reader’s language', () => {
  it('a request and its approval: Spanish for the Spanish borrower, English for the lender', async () => {
    const s = await spanishBorrower();
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(3));
    expect(r.create?.statusCode).toBe(201);

    const esStart = dayLabel(day(1), 'es-US');
    const esEnd = dayLabel(day(3), 'es-US');
    const enStart = dayLabel(day(1), 'en-US');
    const enEnd = dayLabel(day(3), 'en-US');
    expect(esStart).not.toBe(enStart);

    // The lender reads the request in English, with English days.
    const request = await noticeOf(s.lender.cookie, 'reservation_request');
    expect(request.title).toBe('New reservation request');
    expect(request.message).toBe(
      `${s.borrower.user.fullName} wants to borrow Cordless drill from ${enStart} to ${enEnd}.`,
    );

    const approve = await t.post(`/api/reservations/${r.reservation.id}/approve`, {}, s.lender.cookie);
    expect(approve.statusCode).toBe(200);
    await settlePayments(t);

    // The borrower reads the approval in Spanish, with Spanish days and the amounts.
    const approved = await noticeOf(s.borrower.cookie, 'reservation_approved');
    expect(approved.title).toBe('Reserva aprobada');
    expect(approved.message).toBe(
      `${s.lender.user.fullName} aprobó tu solicitud para Cordless drill (del ${esStart} al ${esEnd}). ` +
        'Ahora se cobran $30.00 a tu tarjeta: $10.00 de alquiler y un depósito de $20.00 que se reembolsa ' +
        'cuando devuelvas el artículo. Tu código de recogida está en Mis reservas.',
    );
    expect(approved.message).not.toMatch(/approved|Your card/);

    // Their billing row is written in Spanish too; the lender's earning in English.
    const descriptions = async (cookie: string) =>
      ((await t.get('/api/billing-history', cookie)).json().transactions as { description: string }[]).map(
        (row) => row.description,
      );
    expect(await descriptions(s.borrower.cookie)).toEqual([
      `Pago por Cordless drill (del ${esStart} al ${esEnd})`,
    ]);
    expect(await descriptions(s.lender.cookie)).toEqual([
      `Earning: Cordless drill lent to ${s.borrower.user.fullName}`,
    ]);
  });

  it('a request for more days: Spanish for the borrower, English for the lender; its refusal in Spanish', async () => {
    const s = await spanishBorrower();
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(3));
    expect(r.create?.statusCode).toBe(201);
    expect(
      (await t.post(`/api/reservations/${r.reservation.id}/approve`, {}, s.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);

    // Someone else books from day 6: more days past it are refused, in the borrower's language, with
    // the day written in Spanish when the answer is written.
    const other = await reserve(t, s.stranger.cookie, s.item.id, day(6), day(7));
    expect(other.create?.statusCode).toBe(201);
    const tooFar = await t.post(
      `/api/reservations/${r.reservation.id}/extension-payment-intent`,
      { endDate: day(8), rentalAmount: '25.00' },
      s.borrower.cookie,
    );
    expect(tooFar.statusCode).toBe(409);
    expect(tooFar.json()).toMatchObject({
      code: 'DATES_TAKEN',
      message: `Alguien más solicitó el artículo desde el ${dayLabel(day(6), 'es-US')}. Elige una fecha de fin anterior.`,
    });

    const quote = await t.post(
      `/api/reservations/${r.reservation.id}/extension-payment-intent`,
      { endDate: day(5), rentalAmount: '10.00' },
      s.borrower.cookie,
    );
    expect(quote.statusCode).toBe(200);
    const { paymentIntentId } = quote.json() as { paymentIntentId: string };
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, s.borrower.cookie);
    const ask = await t.post(
      `/api/reservations/${r.reservation.id}/extensions`,
      { endDate: day(5), paymentIntentId },
      s.borrower.cookie,
    );
    expect(ask.statusCode).toBe(201);

    const mine = await noticeOf(s.borrower.cookie, 'extension_requested');
    expect(mine.title).toBe('Más días solicitados');
    expect(mine.message).toBe(
      `Le pediste a ${s.lender.user.fullName} quedarte con Cordless drill hasta el ${dayLabel(day(5), 'es-US')}. ` +
        'Se retienen $10.00 en tu tarjeta y solo se cobran si lo aprueba.',
    );

    const theirs = await noticeOf(s.lender.cookie, 'extension_requested');
    expect(theirs.title).toBe('More days requested');
    expect(theirs.message).toBe(
      `${s.borrower.user.fullName} asks to keep Cordless drill until ${dayLabel(day(5), 'en-US')} instead of ` +
        `${dayLabel(day(3), 'en-US')} for $10.00 more. Please answer by the end of ${dayLabel(day(3), 'en-US')}.`,
    );
  });

  it('an error answer is in Spanish with Accept-Language: es, and in English without', async () => {
    // A visitor: the browser's Accept-Language decides.
    const missing = `/api/items/${crypto.randomUUID()}/availability`;
    const visitorEs = await t.request({
      method: 'GET',
      url: missing,
      headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
    });
    expect(visitorEs.statusCode).toBe(404);
    expect(visitorEs.json()).toEqual({ code: 'NOT_FOUND', message: 'Artículo no encontrado.' });
    const visitorEn = await t.get(missing);
    expect(visitorEn.json()).toEqual({ code: 'NOT_FOUND', message: 'Item not found.' });

    const s = await scenario(t);
    const first = await reserve(t, s.borrower.cookie, s.item.id, day(2), day(4));
    expect(first.create?.statusCode).toBe(201);
    expect(
      (await t.post(`/api/reservations/${first.reservation.id}/approve`, {}, s.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);

    // Dates that are taken: a 409. A signed-in person's saved language comes before Accept-Language
    // (server/i18n.ts requestLocale), and the language switch's cookie before both.
    const taken = {
      itemId: s.item.id,
      startDate: day(3),
      endDate: day(5),
      depositAmount: '20.00',
      rentalAmount: '10',
    };
    const english = await t.post('/api/create-payment-intent', taken, s.stranger.cookie);
    expect(english.statusCode).toBe(409);
    expect(english.json()).toEqual({
      code: 'DATES_TAKEN',
      message: 'Those dates overlap an existing reservation.',
    });
    const switched = await t.request({
      method: 'POST',
      url: '/api/create-payment-intent',
      payload: taken,
      cookie: `${s.stranger.cookie}; campusloop_lang=es`,
      headers: { 'accept-language': 'es' },
    });
    expect(switched.statusCode).toBe(409);
    expect(switched.json()).toEqual({
      code: 'DATES_TAKEN',
      message: 'Esas fechas se superponen con una reserva existente.',
    });
    // An account that speaks Spanish hears Spanish with no header at all.
    expect((await t.put('/api/account/language', { locale: 'es' }, s.stranger.cookie)).statusCode).toBe(200);
    const saved = await t.post('/api/create-payment-intent', taken, s.stranger.cookie);
    expect(saved.json()).toEqual({
      code: 'DATES_TAKEN',
      message: 'Esas fechas se superponen con una reserva existente.',
    });

    // The lender reserving their own item: a 403, in the language asked for.
    const own = await t.request({
      method: 'POST',
      url: '/api/create-payment-intent',
      payload: { ...taken, startDate: day(8), endDate: day(9), rentalAmount: '5' },
      cookie: `${s.lender.cookie}; campusloop_lang=es`,
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('No puedes reservar tu propio artículo.');

    // The shared rules' refusals (the item's window, a status change) are written in Spanish too.
    const past = await t.post(
      '/api/create-payment-intent',
      { ...taken, startDate: day(-3), endDate: day(-1), rentalAmount: '5' },
      s.stranger.cookie,
    );
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('La fecha de inicio no puede estar en el pasado.');
    expect(past.json().issues[0].message).toBe(past.json().message);
    const approveAgain = await t.request({
      method: 'POST',
      url: `/api/reservations/${first.reservation.id}/approve`,
      payload: {},
      cookie: `${s.lender.cookie}; campusloop_lang=es`,
    });
    expect(approveAgain.statusCode).toBe(409);
    expect(approveAgain.json().message).toBe('No se puede aprobar una reserva aprobada.');
  });
});
