import { msg } from '@lingui/core/macro';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/client.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { AppError } from '../../errors.ts';
import { CHAT_SEND_PREFIX } from '../../rate-limited.ts';

// How fast one person may chat: one budget per person, whether they write over HTTP or over
// any of their sockets, on whichever server instance. The counter lives in the database (one atomic
// upsert per message, rate-limiter-flexible's Drizzle store), so every instance shares it; once a
// person is over, this instance refuses their further attempts from memory until the window ends.

/** Spec §7's live channel rule, now per person: 20 messages in 10 s. */
export const CHAT_SEND_LIMIT = { messages: 20, windowSeconds: 10 } as const;

export const SENDING_TOO_FAST = msg`You are sending messages too fast. Please wait a moment.`;

export class SendingTooFast extends AppError {
  constructor(public readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', SENDING_TOO_FAST);
  }
}

export interface ChatSendLimit {
  /** Counts one message attempt of this person; throws SendingTooFast beyond the budget. */
  take(userId: string): Promise<void>;
}

export function createChatSendLimit(db: Db): ChatSendLimit {
  const limiter = new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix: CHAT_SEND_PREFIX,
    points: CHAT_SEND_LIMIT.messages,
    duration: CHAT_SEND_LIMIT.windowSeconds,
    inMemoryBlockOnConsumed: CHAT_SEND_LIMIT.messages + 1,
    // One row per person who ever chatted, reset in place by the next window: nothing to sweep, and no
    // timer outliving the app.
    clearExpiredByTimeout: false,
  });
  return {
    async take(userId) {
      try {
        await limiter.consume(userId);
      } catch (error) {
        // A refusal is a RateLimiterRes; anything else (the database is down) goes on as it is.
        if (error instanceof RateLimiterRes) {
          throw new SendingTooFast(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
        }
        throw error;
      }
    },
  };
}
