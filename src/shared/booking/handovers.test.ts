import { describe, expect, it } from 'vitest';
import { handoverProblem, openStages, PICKUP_GRACE_HOURS } from './handovers.ts';

// Decision 033: when each stage of a handover takes additions.

const HOUR = 3600_000;
const now = new Date('2026-11-24T18:00:00Z');
const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);

describe('handover windows', () => {
  it('pickup: approved, and active until 24 hours after the pickup', () => {
    expect(openStages({ status: 'approved', pickedUpAt: null }, now)).toEqual(['pickup']);
    expect(openStages({ status: 'active', pickedUpAt: at(1) }, now)).toEqual(['pickup', 'return']);
    expect(openStages({ status: 'active', pickedUpAt: at(PICKUP_GRACE_HOURS - 0.001) }, now)).toContain(
      'pickup',
    );
    expect(openStages({ status: 'active', pickedUpAt: at(PICKUP_GRACE_HOURS) }, now)).toEqual(['return']);
    // Picked up before the pickup time was kept: the grace cannot be told, so it is over.
    expect(openStages({ status: 'active', pickedUpAt: null }, now)).toEqual(['return']);
  });

  it('return: active, returned and claimed; nothing once disputed or ended', () => {
    for (const status of ['returned', 'claimed']) {
      expect(openStages({ status, pickedUpAt: at(100) }, now)).toEqual(['return']);
    }
    for (const status of ['pending', 'disputed', 'completed', 'cancelled', 'declined']) {
      expect(openStages({ status, pickedUpAt: at(1) }, now)).toEqual([]);
    }
    expect(handoverProblem('return', { status: 'disputed', pickedUpAt: null }, now)).toMatch(/moderator/);
  });
});
