import { describe, expect, it } from 'vitest';
import { claimTimeProblem, confirmBy, isOverdue, overdueClaimFrom, overdueSince } from './deposit-claims.ts';

// The times of a claim, by the campus clock (Los Angeles; summer time ends on
// Sunday 1 November 2026).

const TZ = 'America/Los_Angeles';

describe('the return window', () => {
  const returnedAt = new Date('2026-11-10T18:00:00Z');
  it('closes 48 hours after the return; a report at the last minute is in time, at the close it is not', () => {
    expect(confirmBy(returnedAt).toISOString()).toBe('2026-11-12T18:00:00.000Z');
    const r = { status: 'returned', endDate: '2026-11-10', returnedAt };
    expect(claimTimeProblem(r, TZ, new Date('2026-11-12T17:59:59Z'))).toBeNull();
    expect(claimTimeProblem(r, TZ, new Date('2026-11-12T18:00:00Z'))).toContain('window');
  });
});

describe('overdue', () => {
  it('starts at the campus midnight after the end day, also across the clock change', () => {
    expect(overdueSince('2026-10-31', TZ).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(overdueSince('2026-11-01', TZ).toISOString()).toBe('2026-11-02T08:00:00.000Z');
    const r = { status: 'active', endDate: '2026-11-01' };
    expect(isOverdue(r, TZ, new Date('2026-11-02T07:59:00Z'))).toBe(false);
    expect(isOverdue(r, TZ, new Date('2026-11-02T08:00:00Z'))).toBe(true);
    expect(isOverdue({ ...r, status: 'returned' }, TZ, new Date('2026-11-05T00:00:00Z'))).toBe(false);
  });

  it('lets the lender claim 24 hours after it became overdue, not before', () => {
    expect(overdueClaimFrom('2026-11-01', TZ).toISOString()).toBe('2026-11-03T08:00:00.000Z');
    const r = { status: 'active', endDate: '2026-11-01', returnedAt: null };
    expect(claimTimeProblem(r, TZ, new Date('2026-11-03T07:59:59Z'))).toContain('24 hours');
    expect(claimTimeProblem(r, TZ, new Date('2026-11-03T08:00:00Z'))).toBeNull();
  });
});
