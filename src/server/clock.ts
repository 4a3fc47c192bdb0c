// One clock for the jobs that act on the calendar (reminders), so tests can jump days
// instead of waiting for them. The server runs on the system clock; tests pass one they move.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that shows what it is set to (tests). */
export function fixedClock(start: Date): Clock & { set(at: Date): void; advance(ms: number): void } {
  let at = start;
  return {
    now: () => new Date(at.getTime()),
    set: (next) => {
      at = next;
    },
    advance: (ms) => {
      at = new Date(at.getTime() + ms);
    },
  };
}
