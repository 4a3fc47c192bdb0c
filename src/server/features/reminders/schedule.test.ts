import { describe, expect, it } from 'vitest';
import { dueReminders, reminderSlots } from './schedule.ts';

// Each reminder at its campus hour, also on the days the clocks change (Los Angeles: summer
// time ends on Sunday 1 November 2026 and starts on Sunday 8 March 2026).

const TZ = 'America/Los_Angeles';
const created = new Date('2026-10-01T12:00:00Z');
const booking = (status: string, startDate: string, endDate = startDate) => ({
  status,
  startDate,
  endDate,
  createdAt: created,
  respondBy: null,
});
const slot = (r: Parameters<typeof reminderSlots>[0], kind: string) =>
  reminderSlots(r, TZ).find((s) => s.kind === kind)!;

describe('reminder hours by the campus clock', () => {
  it('a pickup on the day summer time ends: 6 pm the evening before (PDT), 8 am on the day (PST)', () => {
    const r = booking('approved', '2026-11-01', '2026-11-03');
    expect(slot(r, 'pickup_eve').dueAt.toISOString()).toBe('2026-11-01T01:00:00.000Z');
    expect(slot(r, 'pickup_eve').until.toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(slot(r, 'pickup_morning').dueAt.toISOString()).toBe('2026-11-01T16:00:00.000Z');
    expect(slot(r, 'pickup_morning').until.toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(slot(r, 'pickup_eve').to).toEqual(['borrower', 'lender']);
  });

  it('a return the day after summer time starts: 6 pm on the changeover day (PDT)', () => {
    const r = booking('active', '2026-03-05', '2026-03-09');
    expect(slot(r, 'return_eve').dueAt.toISOString()).toBe('2026-03-09T01:00:00.000Z');
    expect(slot(r, 'return_morning').dueAt.toISOString()).toBe('2026-03-09T15:00:00.000Z');
    expect(slot(r, 'return_morning').to).toEqual(['borrower']);
  });

  it('what is due at an instant: nothing a minute early, nothing once it no longer makes sense', () => {
    const r = booking('approved', '2026-11-01');
    expect(dueReminders(r, TZ, new Date('2026-11-01T00:59:00Z'))).toEqual([]);
    expect(dueReminders(r, TZ, new Date('2026-11-01T01:00:00Z')).map((s) => s.kind)).toEqual(['pickup_eve']);
    // 7:59 am PST (8:59 am had summer time not ended): not yet.
    expect(dueReminders(r, TZ, new Date('2026-11-01T15:59:00Z'))).toEqual([]);
    expect(dueReminders(r, TZ, new Date('2026-11-01T16:00:00Z')).map((s) => s.kind)).toEqual([
      'pickup_morning',
    ]);
    // The evening's reminder is not sent the next morning (a server down all night).
    expect(dueReminders(r, TZ, new Date('2026-11-01T17:00:00Z')).map((s) => s.kind)).toEqual([
      'pickup_morning',
    ]);
    expect(dueReminders(r, TZ, new Date('2026-11-02T08:00:00Z'))).toEqual([]);
  });

  it('cancelled, declined, expired and completed borrows have no reminders', () => {
    for (const status of ['cancelled', 'declined', 'expired', 'completed']) {
      expect(reminderSlots(booking(status, '2026-11-01'), TZ)).toEqual([]);
    }
  });

  it("a request's lender hears 12 hours before it expires, unless it was made with less time left", () => {
    const respondBy = new Date('2026-10-03T12:00:00Z');
    const [lastCall] = reminderSlots({ ...booking('pending', '2026-10-20'), respondBy }, TZ);
    expect(lastCall).toMatchObject({ kind: 'request_expiring', to: ['lender'] });
    expect(lastCall!.dueAt.toISOString()).toBe('2026-10-03T00:00:00.000Z');
    expect(lastCall!.until).toEqual(respondBy);
    const late = { ...booking('pending', '2026-10-02'), respondBy: new Date('2026-10-01T20:00:00Z') };
    expect(reminderSlots(late, TZ)).toEqual([]);
  });

  it('an active borrow past its end day: overdue, to both, from the campus midnight after it', () => {
    const r = booking('active', '2026-10-28', '2026-10-31');
    expect(slot(r, 'overdue').dueAt.toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(slot(r, 'overdue').to).toEqual(['borrower', 'lender']);
    expect(dueReminders(r, TZ, new Date('2026-11-01T06:59:00Z')).map((s) => s.kind)).toEqual([
      'return_morning',
    ]);
    expect(dueReminders(r, TZ, new Date('2026-11-20T12:00:00Z')).map((s) => s.kind)).toEqual(['overdue']);
    expect(reminderSlots(booking('returned', '2026-10-28', '2026-10-31'), TZ)).toEqual([]);
  });
});
