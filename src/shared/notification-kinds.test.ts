import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES } from './constants.ts';
import { kindOfNotification } from './notification-kinds.ts';

describe('which settings kind a notification belongs to', () => {
  it('puts what asks someone to act under requests, and answers under approvals', () => {
    expect(kindOfNotification('reservation_request')).toBe('requests');
    expect(kindOfNotification('return_confirm')).toBe('requests');
    expect(kindOfNotification('deposit_claim')).toBe('requests');
    expect(kindOfNotification('extension_requested')).toBe('requests');
    expect(kindOfNotification('extension_approved')).toBe('approvals');
    expect(kindOfNotification('waitlist_available')).toBe('approvals');
  });

  it('puts every reminder, an overdue item too, under reminders', () => {
    for (const type of ['pickup_reminder', 'return_reminder', 'request_expiring', 'overdue']) {
      expect(kindOfNotification(type)).toBe('reminders');
    }
  });

  it('leaves only news nobody must act on under updates (e-mail off by default)', () => {
    const updates = NOTIFICATION_TYPES.filter((type) => kindOfNotification(type) === 'updates');
    expect(updates.sort()).toEqual(
      [
        'badge_earned',
        'deposit_refunded',
        // Decision 034: news of a return the borrower made, like the deposit's refund.
        'early_return',
        // Decision 033: the other person's condition photos: evidence to look at, nothing to answer.
        'handover_added',
        'report_update',
        'reservation_completed',
        'reservation_started',
        'review_received',
        'review_request',
        'system',
      ].sort(),
    );
  });
});
