import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from './i18n.ts';
import { formatTime, relativeTime } from './time-labels.ts';

// The chat's, the notifications' and the moderators' times in both languages. Tests run in
// America/Los_Angeles (vitest.config.ts).
const at = '2026-03-05T23:04:00.000Z'; // 3:04 PM on Mar 5 in Los Angeles
const now = Date.parse(at);
const ago = (seconds: number) => new Date(now - seconds * 1000);

afterEach(async () => {
  await activateLocale('en');
});

describe('times in English', () => {
  it("keeps the spec's patterns", () => {
    expect(formatTime(at, 'dateTime')).toBe('Mar 5, 2026 • 3:04 PM');
    expect(formatTime(at, 'date')).toBe('Mar 5, 2026');
    expect(formatTime(at, 'day')).toBe('Mar 5');
    expect(formatTime(at, 'time')).toBe('3:04 PM');
    expect(formatTime(at, 'month')).toBe('March 2026');
  });

  it('says how long ago, in the largest whole unit', () => {
    expect(relativeTime(ago(10), now)).toBe('just now');
    expect(relativeTime(ago(50), now)).toBe('1 minute ago');
    expect(relativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3600), now)).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3600), now)).toBe('yesterday');
    expect(relativeTime(ago(4 * 86400), now)).toBe('4 days ago');
    expect(relativeTime(ago(65 * 86400), now)).toBe('2 months ago');
    expect(relativeTime(ago(800 * 86400), now)).toBe('2 years ago');
  });
});

describe('times in Spanish', () => {
  it('puts the day first and names the month in Spanish', async () => {
    await activateLocale('es');
    expect(formatTime(at, 'dateTime')).toBe('5 mar 2026 • 3:04 p.m.');
    expect(formatTime(at, 'day')).toBe('5 mar');
    expect(formatTime(at, 'month')).toBe('marzo de 2026');
  });

  it('says how long ago with Spanish plurals', async () => {
    await activateLocale('es');
    expect(relativeTime(ago(10), now)).toBe('hace un momento');
    expect(relativeTime(ago(60), now)).toBe('hace 1 minuto');
    expect(relativeTime(ago(5 * 60), now)).toBe('hace 5 minutos');
    expect(relativeTime(ago(26 * 3600), now)).toBe('ayer');
    expect(relativeTime(ago(4 * 86400), now)).toBe('hace 4 días');
  });
});
