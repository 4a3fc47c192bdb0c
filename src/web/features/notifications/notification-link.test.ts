import { describe, expect, it } from 'vitest';
import type { Notification } from '#shared/schemas/notifications.ts';
import { i18n } from '../../lib/i18n.ts';
import { notificationLink } from './notification-link.ts';

// A notification about a booking leads to its card, where the next step is (a return reminder, then "Ask
// for more days" on the card it opens).
const base: Notification = {
  id: '00000000-0000-4000-8000-000000000001',
  type: 'system',
  title: 'Hello',
  message: 'Hello.',
  isRead: false,
  relatedReservationId: '00000000-0000-4000-8000-0000000000aa',
  relatedItemId: '00000000-0000-4000-8000-0000000000bb',
  createdAt: '2026-11-24T08:00:00.000Z',
} as Notification;

describe('where a notification leads', () => {
  it.each([
    'pickup_reminder',
    'return_reminder',
    'request_expiring',
    'return_confirm',
    'deposit_claim',
    'overdue',
    'handover_added',
    'extension_requested',
  ] as const)('%s opens its reservation', (type) => {
    const link = notificationLink({ ...base, type });
    expect(link?.to).toBe('/reservations?reservation=00000000-0000-4000-8000-0000000000aa');
    expect(link && i18n._(link.label)).toBe('Open reservation');
  });

  it('has nowhere to go without a reservation, or for a plain system note', () => {
    expect(notificationLink({ ...base, type: 'return_reminder', relatedReservationId: null })).toBeNull();
    expect(notificationLink({ ...base, type: 'system' })).toBeNull();
  });

  it('a payout sent leads to the Earnings page', () => {
    const link = notificationLink({ ...base, type: 'payout_sent' });
    expect(link?.to).toBe('/earnings');
    expect(link && i18n._(link.label)).toBe('See your earnings');
  });

  it('a paid request leads to Get paid while the lender’s payouts are not active, else nowhere of its own', () => {
    const link = notificationLink({ ...base, type: 'reservation_request' }, { payoutsNeeded: true });
    expect(link?.to).toBe('/settings#get-paid');
    expect(link && i18n._(link.label)).toBe('Set up payouts to accept');
    expect(notificationLink({ ...base, type: 'reservation_request' })).toBeNull();
  });
});
