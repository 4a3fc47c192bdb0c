import { msg } from '@lingui/core/macro';
import { AppError } from '../../errors.ts';

// How fast one person may chat: one budget per person, whether they write over HTTP or over any of
// their sockets, on whichever server instance. The budget is counted from the messages themselves (the
// send's own statement counts the sender's messages of the window, under a lock on the sender that
// every instance takes: queries.ts's insertMessageAsParty, migration 0051), so a message costs no write
// of a counter and no connection of its own; decision 064 says why. Once a person is refused, this
// instance refuses their further attempts from memory until the window lets one more through.

/** Spec §7's live channel rule, now per person: 20 messages in 10 s. */
export const CHAT_SEND_LIMIT = { messages: 20, windowSeconds: 10 } as const;

export const SENDING_TOO_FAST = msg`You are sending messages too fast. Please wait a moment.`;

export class SendingTooFast extends AppError {
  public readonly retryAfterSeconds: number;
  constructor(public readonly retryAfterMs: number) {
    super(429, 'RATE_LIMITED', SENDING_TOO_FAST);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

export interface ChatSendLimit {
  /**
   * Sends (`send` stores the message and counts the budget) unless this instance refused the person
   * moments ago; a refusal (SendingTooFast) is remembered until it ends.
   */
  take<T>(userId: string, send: () => Promise<T>): Promise<T>;
}

/** Beyond this many remembered refusals, the ended ones are forgotten. */
const MAX_REMEMBERED = 10_000;

export function createChatSendLimit(now: () => number = Date.now): ChatSendLimit {
  const refusedUntil = new Map<string, number>();
  return {
    async take(userId, send) {
      const until = refusedUntil.get(userId);
      if (until !== undefined) {
        if (until > now()) throw new SendingTooFast(until - now());
        refusedUntil.delete(userId);
      }
      try {
        return await send();
      } catch (error) {
        if (error instanceof SendingTooFast) {
          refusedUntil.set(userId, now() + error.retryAfterMs);
          if (refusedUntil.size > MAX_REMEMBERED) {
            for (const [id, end] of refusedUntil) if (end <= now()) refusedUntil.delete(id);
          }
        }
        throw error;
      }
    },
  };
}
