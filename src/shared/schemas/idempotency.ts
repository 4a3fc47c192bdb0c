import { z } from 'zod';

// The Idempotency-Key header (decision 039): the web app sends one per user action on every
// state-changing request, and the same one when it retries that action, so a retry after a lost answer
// gets the first answer instead of doing it again.

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** What a key may be: a UUID in the web app; any printable token up to 255 characters, as Stripe takes. */
export const idempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/);
