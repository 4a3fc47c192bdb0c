import { describe, expect, it } from 'vitest';
import { registerInput } from './auth.ts';
import { messageInput, messagesPageQuery } from './chat.ts';
import {
  BROKEN_CHARACTER_MESSAGE,
  CONTROL_CHARACTER_MESSAGE,
  calendarDay,
  instant,
  isCalendarDay,
  plainText,
  textProblem,
} from './fields.ts';
import { itemInput, itemSearchQuery } from './items.ts';
import { moderationNoteInput } from './moderation.ts';
import { reportForm } from './reports.ts';
import { declineInput, reservationDates } from './reservations.ts';
import { reviewInput } from './reviews.ts';
import { universitySearchQuery } from './universities.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('textProblem', () => {
  it.each([
    ['a\u0000b', CONTROL_CHARACTER_MESSAGE],
    ['bell\u0007', CONTROL_CHARACTER_MESSAGE],
    ['escape\u001b[31m', CONTROL_CHARACTER_MESSAGE],
    ['del\u007f', CONTROL_CHARACTER_MESSAGE],
    ['c1\u0085', CONTROL_CHARACTER_MESSAGE],
    ['half \uD83D pair', BROKEN_CHARACTER_MESSAGE],
    ['\uDE00 low half first', BROKEN_CHARACTER_MESSAGE],
  ])('refuses %j', (text, message) => {
    expect(textProblem(text)).toBe(message);
  });

  it.each([
    'Cordless drill',
    'Line one\nline two\r\n\tindented',
    'Emoji 😀 and accents: café, Ünïcödé, 東京',
    '',
  ])('accepts %j', (text) => {
    expect(textProblem(text)).toBeUndefined();
  });
});

describe('plainText', () => {
  it("puts its own message first, before the field's other rules", () => {
    const title = plainText('Title is required').trim().min(1, 'Title is required').max(5, 'Too long');
    expect(firstMessage(title.safeParse('\u0000 and far too long'))).toBe(CONTROL_CHARACTER_MESSAGE);
    expect(firstMessage(title.safeParse(42))).toBe('Title is required');
    expect(title.parse('  ok ')).toBe('ok');
  });
});

describe('every free-text field of the shared schemas refuses control characters', () => {
  const nul = 'Looks fine\u0000';
  const validItem = {
    title: 'Drill',
    description: 'A cordless drill, two batteries.',
    category: 'tools',
    condition: 'good',
    pickupMethod: 'meetup',
    availableFrom: '2026-05-01',
    availableDays: [1],
  };
  it.each([
    [
      'register fullName',
      registerInput,
      {
        fullName: nul,
        username: 'ada',
        email: 'ada@stanford.edu',
        campus: 'stanford.edu',
        password: 'secret1',
      },
    ],
    [
      'register campus',
      registerInput,
      {
        fullName: 'Ada',
        username: 'ada',
        email: 'ada@stanford.edu',
        campus: `stanford.edu${nul}`,
        password: 'secret1',
      },
    ],
    [
      'register password',
      registerInput,
      {
        fullName: 'Ada',
        username: 'ada',
        email: 'ada@stanford.edu',
        campus: 'stanford.edu',
        password: `secret1${nul}`,
      },
    ],
    ['chat message', messageInput, { content: nul }],
    ['item title', itemInput, { ...validItem, title: nul }],
    ['item description', itemInput, { ...validItem, description: `${nul} long enough` }],
    ['item pickup location', itemInput, { ...validItem, pickupLocation: nul }],
    ['item photo', itemInput, { ...validItem, images: [`/uploads/items/2026/05/a.jpg${nul}`] }],
    ['search text', itemSearchQuery, { searchQuery: nul }],
    ['search campus', itemSearchQuery, { campus: nul }],
    ['moderation note', moderationNoteInput, { note: nul }],
    ['report description', reportForm, { reason: 'scam', description: `${nul} long enough` }],
    ['decline reason', declineInput, { reason: nul }],
    [
      'review comment',
      reviewInput,
      { reservationId: '7d0f2f63-6c6f-4bb5-9d43-1c2a4ae0a8e1', rating: 5, comment: nul },
    ],
    ['university search', universitySearchQuery, { q: nul }],
  ] as const)('%s', (_name, schema, value) => {
    expect(firstMessage(schema.safeParse(value))).toBe(CONTROL_CHARACTER_MESSAGE);
  });
});

describe('isCalendarDay', () => {
  it.each(['2026-02-28', '2028-02-29', '2000-01-01', '2100-12-31'])('accepts %s', (day) => {
    expect(isCalendarDay(day)).toBe(true);
  });

  it.each([
    '2026-02-29', // not a leap year
    '2026-02-30',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '1999-12-31',
    '2101-01-01',
    '9999-12-31',
    '2026-1-1',
    '2026-01-01T00:00:00Z',
    '',
  ])('refuses %j', (day) => {
    expect(isCalendarDay(day)).toBe(false);
  });
});

describe('date fields', () => {
  it('calendarDay gives one message for every way a day is wrong', () => {
    const day = calendarDay('Please choose a day');
    for (const bad of ['2026-02-30', '0000-01-01', 'soon', 20260501]) {
      expect(firstMessage(day.safeParse(bad))).toBe('Please choose a day');
    }
    expect(day.parse('2026-05-01')).toBe('2026-05-01');
  });

  it('instant accepts ISO instants with an offset on real days within the years', () => {
    const at = instant('Invalid date');
    expect(at.safeParse('2026-05-01T10:00:00.000Z').success).toBe(true);
    expect(at.safeParse('2026-05-01T10:00:00+02:00').success).toBe(true);
    for (const bad of ['2026-02-30T10:00:00Z', '0000-01-01T00:00:00Z', '2026-05-01', 'yesterday']) {
      expect(at.safeParse(bad).success).toBe(false);
    }
  });

  it('items, reservations and chat paging refuse impossible days', () => {
    const item = {
      title: 'Drill',
      description: 'A cordless drill, two batteries.',
      category: 'tools',
      condition: 'good',
      pickupMethod: 'meetup',
      availableDays: [1],
    };
    expect(itemInput.safeParse({ ...item, availableFrom: '2026-02-30' }).success).toBe(false);
    expect(itemInput.safeParse({ ...item, availableFrom: '0000-01-01' }).success).toBe(false);
    expect(
      itemInput.safeParse({ ...item, availableFrom: '2026-05-01', availableUntil: '2026-06-31' }).success,
    ).toBe(false);
    expect(itemInput.safeParse({ ...item, availableFrom: '2026-05-01', availableUntil: '' }).success).toBe(
      true,
    );

    const itemId = '7d0f2f63-6c6f-4bb5-9d43-1c2a4ae0a8e1';
    expect(
      reservationDates.safeParse({ itemId, startDate: '2026-02-30', endDate: '2026-03-02' }).success,
    ).toBe(false);
    expect(
      reservationDates.safeParse({ itemId, startDate: '0000-01-01', endDate: '0000-01-02' }).success,
    ).toBe(false);
    // An ISO instant counts by its calendar day, and so does a Date; an invalid Date is refused, not thrown.
    expect(
      reservationDates.parse({ itemId, startDate: '2026-05-01T22:00:00Z', endDate: new Date('2026-05-03') }),
    ).toMatchObject({ startDate: '2026-05-01', endDate: '2026-05-03' });
    expect(
      reservationDates.safeParse({ itemId, startDate: new Date('nope'), endDate: '2026-05-03' }).success,
    ).toBe(false);

    expect(messagesPageQuery.safeParse({ before: '0000-01-01T00:00:00Z' }).success).toBe(false);
  });
});

describe('item photos', () => {
  const item = {
    title: 'Drill',
    description: 'A cordless drill, two batteries.',
    category: 'tools',
    condition: 'good',
    pickupMethod: 'meetup',
    availableFrom: '2026-05-01',
    availableDays: [1],
  };
  it.each([
    'data:image/png;base64,iVBORw0KGgo=',
    'javascript:alert(1)',
    '//tracker.example/pixel.gif',
    'ftp://files.example/a.jpg',
    'photo.jpg',
  ])('refuses %j, which is never a photo URL', (url) => {
    const result = itemInput.safeParse({ ...item, images: [url] });
    expect(firstMessage(result)).toBe('This photo was not uploaded to CampusLoop. Please upload it again.');
  });

  it('leaves paths and http(s) URLs to the server, which knows its storage', () => {
    const urls = [
      '/uploads/items/2026/05/a.jpg',
      'https://photos.campusloop.app/items/2026/05/a.jpg',
      '',
      'null',
    ];
    expect(itemInput.safeParse({ ...item, images: urls }).success).toBe(true);
  });
});
