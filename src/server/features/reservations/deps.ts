import type { ServiceFeeRates } from '#shared/booking/service-fee.ts';
import { PHOTO_NOT_UPLOADED } from '#shared/schemas/items.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';

// What every transition of a booking is given: the database, the payment provider, the job queue its
// payment steps go to, and the campus clock and time zone its days and deadlines are read in.

export interface ReservationDeps {
  db: Db;
  payments: PaymentProvider;
  /** Where the payment steps' jobs go (sent in the status change's transaction). */
  jobs: JobQueue;
  timeZone: string;
  /** The platform's share a request is priced with and snapshots (SERVICE_FEE_*, decision 055). */
  fees: ServiceFeeRates;
  /** Pending requests expire after this many hours (RESERVATION_EXPIRY_HOURS): a request's answer-by time. */
  expiryHours?: number;
  /** AUTHORISE_AHEAD_DAYS (decision 062): further ahead, the card is saved and held close to the start. */
  authoriseAheadDays?: number;
  log?: { error: (obj: object, msg: string) => void };
  /** The claim window's clock: tests move it instead of waiting 48 hours. */
  clock?: Clock;
  /** Whose photo URLs a claim or a dispute may carry: only ones our storage gave out. */
  storage?: Pick<Storage, 'ownsPhotoUrl'>;
  /** The moderators (ADMIN_EMAILS): whether someone else can decide a claim a moderator is party to. */
  adminEmails?: readonly string[];
  /** After pickup, the rental no early return can take back goes to the lender this much later (PAYOUT_DELAY_HOURS). */
  payoutDelayMs?: number;
}

/** What a request for more days needs of them (no storage; the clock only for tests). */
export type ExtensionDeps = Pick<ReservationDeps, 'db' | 'payments' | 'jobs' | 'timeZone' | 'clock' | 'fees'>;

export const nowOf = (deps: Pick<ReservationDeps, 'clock'>) => deps.clock?.now() ?? new Date();

/** Every photo must be one our storage gave out (as an item's). */
export function requireOwnPhotos(deps: ReservationDeps, photos: readonly string[]) {
  if (photos.some((url) => !deps.storage?.ownsPhotoUrl(url))) {
    throw badRequest(PHOTO_NOT_UPLOADED, [{ path: 'photos', message: PHOTO_NOT_UPLOADED }]);
  }
}
