import { describe, expect, it } from 'vitest';
import { campusMidnight } from '../calendar.ts';
import {
  AUTHORISATION_ANSWER_DAYS,
  authorisationAnswerBy,
  authorisationLapsed,
  extensionLapsesAt,
  requestAnswerBy,
} from './booking-deadlines.ts';

const TZ = 'America/Los_Angeles';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = new Date('2026-03-02T18:00:00Z');

describe('the time a card authorisation is kept for an answer', () => {
  it('is six days, a day short of the card networks’ seven', () => {
    expect(AUTHORISATION_ANSWER_DAYS).toBe(6);
    expect(authorisationAnswerBy(at).getTime() - at.getTime()).toBe(6 * DAY);
  });

  it('has lapsed from that instant on, and never for a booking with nothing authorised', () => {
    expect(authorisationLapsed(at, new Date(at.getTime() + 6 * DAY - 1))).toBe(false);
    expect(authorisationLapsed(at, new Date(at.getTime() + 6 * DAY))).toBe(true);
    expect(authorisationLapsed(null, new Date(at.getTime() + 60 * DAY))).toBe(false);
  });
});

describe('when a pending request must be answered', () => {
  it('is its expiry hours when they come first', () => {
    const row = { createdAt: at, startDate: '2026-04-01', authorisedAt: at };
    expect(requestAnswerBy(row, 48, TZ)).toEqual(new Date(at.getTime() + 48 * HOUR));
  });

  it('is six days after the card was authorised, whatever the expiry hours or the start date allow', () => {
    const authorisedAt = new Date(at.getTime() - 10 * 60_000);
    const row = { createdAt: at, startDate: '2026-04-01', authorisedAt };
    expect(requestAnswerBy(row, 24 * 30, TZ)).toEqual(new Date(authorisedAt.getTime() + 6 * DAY));
  });

  it('is the end of its start day when that comes first, and ignores the card for a free request', () => {
    const row = { createdAt: at, startDate: '2026-03-03', authorisedAt: at };
    expect(requestAnswerBy(row, 24 * 30, TZ)).toEqual(campusMidnight('2026-03-04', TZ));
    const free = { createdAt: at, startDate: '2026-04-01', authorisedAt: null };
    expect(requestAnswerBy(free, 24 * 30, TZ)).toEqual(new Date(at.getTime() + 30 * DAY));
  });
});

describe('when a pending request for more days lapses', () => {
  it('is the end of the booking’s current last day when that comes first', () => {
    expect(extensionLapsesAt('2026-03-04', TZ, at)).toEqual(campusMidnight('2026-03-05', TZ));
    expect(extensionLapsesAt('2026-03-04', TZ, null)).toEqual(campusMidnight('2026-03-05', TZ));
  });

  it('is six days after its card was authorised when the booking lasts longer', () => {
    expect(extensionLapsesAt('2026-03-30', TZ, at)).toEqual(new Date(at.getTime() + 6 * DAY));
  });
});
