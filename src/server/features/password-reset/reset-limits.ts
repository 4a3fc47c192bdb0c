import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { RetryLaterError } from '../../errors.ts';
import { addressKey, PASSWORD_RESET_ACCOUNT_PREFIX } from '../../rate-limited.ts';

// How many reset e-mails may be asked for, per address and per IP. The counters live in the
// database (rate-limiter-flexible's Drizzle store, as the chat's), so every server instance shares them
// and a restart forgets nothing. The address is counted whether or not an account uses it: a limit only
// known accounts reached would tell a stranger who has one.

export interface PasswordResetLimits {
  /** Counts one request from `ip` for `email`; throws a 429 with Retry-After beyond either allowance. */
  take(email: string, ip: string): Promise<void>;
}

export function createPasswordResetLimits(
  db: Db,
  limits: Config['passwordResetRateLimit'],
): PasswordResetLimits {
  const limiter = (keyPrefix: string, points: number) =>
    new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix,
      points,
      duration: limits.windowSeconds,
      // One row per address or IP, reset in place by its next window; no timer outliving the app.
      clearExpiredByTimeout: false,
    });
  const perIp = limiter('password-reset-ip', limits.perIp);
  const perAccount = limiter(PASSWORD_RESET_ACCOUNT_PREFIX, limits.perAccount);

  const consume = async (
    target: RateLimiterDrizzle,
    key: string,
    /** The refusal, given the whole minutes to wait (at least 1). */
    message: (minutes: number) => MessageDescriptor,
  ): Promise<void> => {
    try {
      await target.consume(key);
    } catch (error) {
      // A refusal is a RateLimiterRes; anything else (the database is down) goes on as it is.
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new RetryLaterError(429, 'RATE_LIMITED', message(Math.max(1, Math.ceil(seconds / 60))), seconds);
    }
  };

  return {
    async take(email, ip) {
      await consume(
        perIp,
        ip,
        (minutes) =>
          msg`Too many password reset requests from this network. Please wait ${plural(minutes, { one: '# minute', other: '# minutes' })} and try again.`,
      );
      await consume(
        perAccount,
        addressKey(email),
        (minutes) =>
          msg`You have asked for several reset links for ${email} recently. If an account uses it, please look for the newest link in your inbox (and spam folder), or try again in ${plural(minutes, { one: '# minute', other: '# minutes' })}.`,
      );
    },
  };
}
