import { msg } from '@lingui/core/macro';
import { AppError, unauthorized } from '../errors.ts';
import { sqlState } from './transaction.ts';

// Migration 0027 refuses, inside the creating transaction, a row written in the name of an account
// deleted or suspended since the request's session was checked (decision 037). Its two SQLSTATEs are
// ours; this is what the person is told: the same as a request that came a moment later.

const ACCOUNT_GONE_STATE = 'CLGON';
const ACCOUNT_SUSPENDED_STATE = 'CLSUS';

/** The refusal `error` stands for, if it is one of migration 0027's; undefined for anything else. */
export function accountRefusal(error: unknown): AppError | undefined {
  const state = sqlState(error);
  // Their sessions ended with the deletion: the same answer as any request without one.
  if (state === ACCOUNT_GONE_STATE) return unauthorized(msg`Please sign in to continue.`);
  if (state === ACCOUNT_SUSPENDED_STATE)
    return new AppError(403, 'ACCOUNT_SUSPENDED', msg`This account is suspended. Contact support.`);
  return undefined;
}
