import { beforeAll, describe, expect, it } from 'vitest';
import { createItem, createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// An answer about a person carries `Cache-Control: no-store`, so neither a browser (a shared
// computer's history) nor a proxy keeps someone's reservations, messages or cards. It is the API's
// default (src/server/http/session.ts); the catalogue's answers to visitors keep the headers they had.

const MODERATOR = 'private.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR] });
const db = () => t.database.db;

const people = {} as Record<'student' | 'moderator', { cookie: string; user: { id: string } }>;
let conversationId: string;
let reportId: string;

beforeAll(async () => {
  people.student = await createSignedInUser(db());
  people.moderator = await createSignedInUser(db(), { email: MODERATOR });
  const lender = await createSignedInUser(db());
  const item = await createItem(db(), { userId: lender.user.id, title: 'Graphing calculator' });
  const started = await t.post('/api/conversations', { itemId: item.id }, people.student.cookie);
  expect(started.statusCode).toBe(200);
  conversationId = started.json().conversation.id;
  const reported = await t.post(
    '/api/reports',
    { reason: 'scam', description: 'Asked me to pay outside the app.', reportedItemId: item.id },
    people.student.cookie,
  );
  expect(reported.statusCode).toBe(201);
  reportId = reported.json().report.id;
});

describe('private answers', () => {
  const privateReads: [string, () => string, keyof typeof people][] = [
    ['GET /api/auth/me', () => '/api/auth/me', 'student'],
    ['GET /api/reservations', () => '/api/reservations', 'student'],
    ['GET /api/notifications', () => '/api/notifications', 'student'],
    ['GET /api/notifications/unread', () => '/api/notifications/unread', 'student'],
    ['GET /api/billing-history', () => '/api/billing-history', 'student'],
    ['GET /api/payment-methods', () => '/api/payment-methods', 'student'],
    ['GET /api/conversations', () => '/api/conversations', 'student'],
    ['GET /api/conversations/unread-count', () => '/api/conversations/unread-count', 'student'],
    ['GET /api/conversations/:id/messages', () => `/api/conversations/${conversationId}/messages`, 'student'],
    ['GET /api/reviews/mine', () => '/api/reviews/mine', 'student'],
    ['GET /api/reports', () => '/api/reports', 'student'],
    ['GET /api/admin/reports', () => '/api/admin/reports', 'moderator'],
    ['GET /api/admin/reports/:id', () => `/api/admin/reports/${reportId}`, 'moderator'],
    ['GET /api/users/:id (one’s own profile)', () => `/api/users/${people.student.user.id}`, 'student'],
  ];

  it.each(privateReads)('%s is sent no-store', async (_name, url, who) => {
    const response = await t.get(url(), people[who].cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('a refusal of a private read is no-store too', async () => {
    const signedOut = await t.get('/api/reservations');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers['cache-control']).toBe('no-store');
    const notModerator = await t.get('/api/admin/reports', people.student.cookie);
    expect(notModerator.statusCode).toBe(403);
    expect(notModerator.headers['cache-control']).toBe('no-store');
  });

  it('a signed-in answer from a catalogue route is no-store: it may be the person’s own', async () => {
    const response = await t.get('/api/items?campus=all', people.student.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('the catalogue’s answers to visitors', () => {
  it('keep the headers they had', async () => {
    for (const url of [
      '/api/items?campus=all',
      `/api/users/${people.student.user.id}`,
      '/api/impact',
      '/api/impact/stanford.edu/dashboard',
      '/api/universities/detect?email=a%40stanford.edu',
    ]) {
      const response = await t.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBeUndefined();
    }
    const directory = await t.get('/api/universities?q=stanford');
    expect(directory.headers['cache-control']).toBe('public, max-age=3600');
  });
});
