import { describe, expect, it } from 'vitest';
import { campusToday } from '../../src/shared/calendar.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Acting on a notification (approving or declining the request it tells of,
// writing the review it asks for) marks it read on the server, in the action itself.

const t = setupTestApp();
const db = () => t.database.db;

function day(n: number): string {
  const d = new Date(`${campusToday('America/Los_Angeles').date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

interface Note {
  id: string;
  type: string;
  isRead: boolean;
  relatedReservationId: string | null;
}

async function notificationsOf(cookie: string): Promise<Note[]> {
  const response = await t.get('/api/notifications', cookie);
  expect(response.statusCode).toBe(200);
  return response.json().notifications;
}

async function unreadOf(cookie: string): Promise<Note[]> {
  const response = await t.get('/api/notifications/unread', cookie);
  expect(response.statusCode).toBe(200);
  return response.json().notifications;
}

/** The lender's notification of the borrower's request for `reservationId`. */
async function requestNote(cookie: string, reservationId: string) {
  const note = (await notificationsOf(cookie)).find(
    (n) => n.type === 'reservation_request' && n.relatedReservationId === reservationId,
  );
  expect(note).toBeDefined();
  return note!;
}

/** A lender with a free item, a borrower and a stranger. */
async function people() {
  const lender = await createSignedInUser(db());
  const borrower = await createSignedInUser(db());
  const stranger = await createSignedInUser(db());
  const item = await createItem(db(), { userId: lender.user.id, title: 'Camping tent for four' });
  return { lender, borrower, stranger, item };
}

async function request(s: Awaited<ReturnType<typeof people>>, offset: number) {
  const created = await t.post(
    '/api/reservations',
    { itemId: s.item.id, startDate: day(offset), endDate: day(offset) },
    s.borrower.cookie,
  );
  expect(created.statusCode).toBe(201);
  return created.json().reservation.id as string;
}

describe('acting on a notification marks it read', () => {
  it('approving a request reads its notification, and only that one', async () => {
    const s = await people();
    const first = await request(s, 1);
    const second = await request(s, 3);
    expect((await requestNote(s.lender.cookie, first)).isRead).toBe(false);

    // The unread poll was answered (and remembered) before the approval.
    const unreadBefore = await unreadOf(s.lender.cookie);
    expect(unreadBefore.some((n) => n.relatedReservationId === first)).toBe(true);

    const approved = await t.post(`/api/reservations/${first}/approve`, {}, s.lender.cookie);
    expect(approved.statusCode).toBe(200);

    expect((await requestNote(s.lender.cookie, first)).isRead).toBe(true);
    expect((await requestNote(s.lender.cookie, second)).isRead).toBe(false);
    const unreadAfter = await unreadOf(s.lender.cookie);
    expect(unreadAfter.some((n) => n.relatedReservationId === first)).toBe(false);
    expect(unreadAfter.some((n) => n.relatedReservationId === second)).toBe(true);
    // The borrower's own news of it is theirs to read.
    const approvedNote = (await notificationsOf(s.borrower.cookie)).find(
      (n) => n.type === 'reservation_approved' && n.relatedReservationId === first,
    );
    expect(approvedNote?.isRead).toBe(false);
  });

  it('declining a request reads its notification', async () => {
    const s = await people();
    const id = await request(s, 2);
    const declined = await t.post(
      `/api/reservations/${id}/decline`,
      { reason: 'Away that weekend' },
      s.lender.cookie,
    );
    expect(declined.statusCode).toBe(200);
    expect((await requestNote(s.lender.cookie, id)).isRead).toBe(true);
    expect((await unreadOf(s.lender.cookie)).some((n) => n.relatedReservationId === id)).toBe(false);
  });

  it('a refused action reads nothing: a stranger, or a request already answered', async () => {
    const s = await people();
    const id = await request(s, 4);
    expect((await t.post(`/api/reservations/${id}/approve`, {}, s.stranger.cookie)).statusCode).toBe(403);
    expect((await t.post(`/api/reservations/${id}/decline`, {}, s.borrower.cookie)).statusCode).toBe(403);
    expect((await requestNote(s.lender.cookie, id)).isRead).toBe(false);

    // Once answered, a second answer is refused and leaves the (already read) notification as it is.
    expect((await t.post(`/api/reservations/${id}/decline`, {}, s.lender.cookie)).statusCode).toBe(200);
    const again = await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie);
    expect(again.statusCode).toBe(409);
    expect((await requestNote(s.lender.cookie, id)).isRead).toBe(true);
  });

  it('writing the review reads the reviewer’s review request, not the other party’s', async () => {
    const s = await people();
    const id = await request(s, 5);
    expect((await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie)).statusCode).toBe(200);
    expect((await t.put(`/api/reservations/${id}`, { status: 'active' }, s.borrower.cookie)).statusCode).toBe(
      200,
    );
    expect(
      (await t.put(`/api/reservations/${id}`, { status: 'completed' }, s.lender.cookie)).statusCode,
    ).toBe(200);
    const reviewRequest = async (cookie: string) =>
      (await notificationsOf(cookie)).find(
        (n) => n.type === 'review_request' && n.relatedReservationId === id,
      );
    expect((await reviewRequest(s.borrower.cookie))?.isRead).toBe(false);

    // A review that is refused (too short a comment) reads nothing.
    const bad = await t.post(
      '/api/reviews',
      { reservationId: id, rating: 5, comment: '' },
      s.borrower.cookie,
    );
    expect(bad.statusCode).toBe(400);
    expect((await reviewRequest(s.borrower.cookie))?.isRead).toBe(false);

    const written = await t.post(
      '/api/reviews',
      { reservationId: id, rating: 5, comment: 'Tent was spotless, thanks a lot!' },
      s.borrower.cookie,
    );
    expect(written.statusCode).toBe(201);
    expect((await reviewRequest(s.borrower.cookie))?.isRead).toBe(true);
    expect((await reviewRequest(s.lender.cookie))?.isRead).toBe(false);
  });
});
