import { describe, expect, it } from 'vitest';
import { choosePlacement, chooseSpot, edgeGaps } from './toast-placement.ts';

// A phone of 375 × 667: a toast 80 px high, full width less the padding.
const phone = edgeGaps(false);
const toast = { top: 491, bottom: 571, left: 16, right: 359 };
const box = (top: number, bottom: number, left = 0, right = 375) => ({ top, bottom, left, right });

describe('choosePlacement', () => {
  it('stays at the bottom when nothing there is to be avoided', () => {
    expect(choosePlacement(toast, [], 667, phone)).toBe('bottom');
    // A Pay button high up the screen is not in the way.
    expect(choosePlacement(toast, [box(200, 248, 16, 359)], 667, phone)).toBe('bottom');
  });

  it('moves to the top when the bottom would cover the message box or the Pay button', () => {
    expect(choosePlacement(toast, [box(550, 610)], 667, phone)).toBe('top');
    // Measured at the top already: the same answer (it does not flip back and forth).
    expect(choosePlacement({ ...toast, top: 16, bottom: 96 }, [box(550, 610)], 667, phone)).toBe('top');
  });

  it('when both edges would cover something, takes the one that covers less', () => {
    const bigAtBottom = box(480, 600);
    const smallAtTop = box(90, 100, 16, 100);
    expect(choosePlacement(toast, [bigAtBottom, smallAtTop], 667, phone)).toBe('top');
    expect(choosePlacement(toast, [box(560, 575, 16, 60), box(0, 200)], 667, phone)).toBe('bottom');
  });

  it('only what overlaps sideways counts (the desktop corner)', () => {
    const wide = edgeGaps(true);
    const corner = { top: 788, bottom: 868, left: 844, right: 1264 };
    expect(choosePlacement(corner, [box(800, 880, 0, 800)], 900, wide)).toBe('bottom');
    expect(choosePlacement(corner, [box(800, 880, 700, 1280)], 900, wide)).toBe('top');
  });
});

describe('chooseSpot', () => {
  it('keeps to an edge when that edge covers nothing', () => {
    expect(chooseSpot(toast, [box(550, 610)], 667, phone)).toEqual({ placement: 'top' });
    expect(chooseSpot(toast, [], 667, phone)).toEqual({ placement: 'bottom' });
  });

  it('goes between the chat header and the message box when both edges would cover one', () => {
    const header = box(0, 60);
    const composer = box(480, 560);
    expect(chooseSpot(toast, [header, composer], 667, phone)).toEqual({ placement: 'between', top: 68 });
  });

  it('stays at the edge that covers less when no gap holds the toast', () => {
    expect(chooseSpot(toast, [box(0, 330), box(335, 667)], 667, phone)).toEqual({ placement: 'bottom' });
  });
});
