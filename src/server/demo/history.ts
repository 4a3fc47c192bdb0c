import { randomBytes } from 'node:crypto';
import { addDays, weekdayOf } from '#shared/booking/availability.ts';
import { quote } from '#shared/booking/pricing.ts';
import { NO_PLATFORM_SHARE } from '#shared/booking/service-fee.ts';
import { campusPeriods, campusToday } from '#shared/calendar.ts';
import type { RentalPeriod } from '#shared/constants.ts';
import { formatDayLabel } from '#shared/format.ts';
import type { Db } from '../db/client.ts';
import { reviews } from '../db/schema/community.ts';
import { paymentIntents } from '../db/schema/payments.ts';
import { reservations } from '../db/schema/reservations.ts';
import { testPaymentIntents } from '../db/schema/test-payments.ts';
import { users } from '../db/schema/users.ts';
import { transaction } from '../db/transaction.ts';
import { impactService } from '../features/impact/service.ts';
import { ledgerService } from '../features/ledger/service.ts';

// The demo campus's past: classmates who borrowed, and about eight weeks of returned borrows on both
// campuses (this week, earlier this month, last month, before). Each goes through the impact
// feature's recordCompletion, so the dashboard and Home show figures computed, not typed in.

/** Classmates who appear in the history; they can sign in too (same password), but are not advertised. */
export const DEMO_CLASSMATES = [
  {
    fullName: 'Noah Williams',
    username: 'noahw',
    email: 'noah.williams@stanford.edu',
    campus: 'stanford.edu',
  },
  {
    fullName: 'Aisha Okafor',
    username: 'aisha_o',
    email: 'aisha.okafor@stanford.edu',
    campus: 'stanford.edu',
  },
  {
    fullName: 'Ethan Nguyen',
    username: 'ethan_n',
    email: 'ethan.nguyen@stanford.edu',
    campus: 'stanford.edu',
  },
  {
    fullName: 'Sofia Martinez',
    username: 'sofiam',
    email: 'sofia.martinez@stanford.edu',
    campus: 'stanford.edu',
  },
  { fullName: 'Hana Sato', username: 'hana_s', email: 'hana.sato@stanford.edu', campus: 'stanford.edu' },
  {
    fullName: 'Marcus Johnson',
    username: 'marcusj',
    email: 'marcus.johnson@stanford.edu',
    campus: 'stanford.edu',
  },
  { fullName: 'Ravi Shah', username: 'ravi_s', email: 'ravi.shah@berkeley.edu', campus: 'berkeley.edu' },
  { fullName: 'Emma Larsen', username: 'emmal', email: 'emma.larsen@berkeley.edu', campus: 'berkeley.edu' },
  {
    fullName: 'Lucia Romero',
    username: 'lucia_r',
    email: 'lucia.romero@berkeley.edu',
    campus: 'berkeley.edu',
  },
  { fullName: 'Omar Haddad', username: 'omarh', email: 'omar.haddad@berkeley.edu', campus: 'berkeley.edu' },
] as const;

/**
 * Demo accounts (DEMO_ACCOUNTS indexes) who also borrowed in the past. Maya (0) and Priya (2) did not:
 * the browser journeys show their empty Borrowed tab and empty borrowing list.
 */
const BORROWING_ACCOUNTS = [1, 3, 4, 5];

/** Returned borrows per campus, by period: this week, earlier this month, last month, before that. */
const PLAN: Record<string, [number, number, number, number]> = {
  'stanford.edu': [5, 7, 12, 8],
  'berkeley.edu': [3, 4, 7, 4],
};

/** How far back the history reaches. */
export const HISTORY_DAYS = 56;

/** What the demo's borrowers and lenders wrote about each other, by star rating. */
const LENDER_PRAISE: Record<number, string[]> = {
  5: [
    'Exactly as described and spotless. Pickup took two minutes.',
    'Super friendly, showed me how everything works. Would borrow again!',
    'Saved me buying one for a single weekend. Great condition.',
    'On time at the meetup and the item was perfect.',
  ],
  4: [
    'Worked well, a little more worn than the photos, but fine for what I needed.',
    'Good item, the meetup time moved once but it all worked out.',
  ],
};
const BORROWER_PRAISE: Record<number, string[]> = {
  5: [
    'Returned early and in perfect shape. Welcome back any time.',
    'Great communication and took good care of it.',
    'Easy handover, returned clean. Thanks!',
  ],
  4: [
    'Returned a day late but let me know in advance. All good.',
    'Brought it back fine, a bit of cleaning needed.',
  ],
};
const DAY_MS = 24 * 60 * 60 * 1000;

export interface HistoryItem {
  id: string;
  userId: string;
  campus: string;
  title: string;
  createdAt: Date;
  availableFrom: string;
  availableDays: number[];
  rentalPriceCents: number | null;
  rentalPeriod: string | null;
  depositCents: number | null;
}

/** A small deterministic generator (mulberry32): the same history for the same day, no Math.random. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedBorrowingHistory(
  db: Db,
  opts: {
    timeZone: string;
    passwordHash: string;
    /** The demo accounts as inserted, in DEMO_ACCOUNTS order. */
    accounts: { id: string; campus: string; fullName: string }[];
    items: HistoryItem[];
    now?: Date;
  },
): Promise<{ completed: number }> {
  const now = opts.now ?? new Date();
  const random = generator(20_260_301);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  const classmates = await db
    .insert(users)
    .values(
      DEMO_CLASSMATES.map((c) => ({
        ...c,
        passwordHash: opts.passwordHash,
        isVerified: true,
        createdAt: new Date(now.getTime() - (HISTORY_DAYS + 7) * DAY_MS),
      })),
    )
    .returning({ id: users.id, campus: users.campus, fullName: users.fullName });
  const people = [...opts.accounts, ...classmates];
  const nameOf = new Map(people.map((p) => [p.id, p.fullName]));

  const { weekStart, monthStart, lastMonthStart } = campusPeriods(opts.timeZone, now);
  const historyStart = new Date(now.getTime() - HISTORY_DAYS * DAY_MS);
  // In PLAN's order. When the month began this week, the week's borrows go before the month began and
  // the month's into its first hours, so the dashboard has figures for this week, this month and last
  // month alike. A period that has not begun yet (its first minute) lends its borrows to the next.
  const periods: [Date, Date][] =
    monthStart > weekStart
      ? [
          [weekStart, monthStart],
          [monthStart, now],
          [lastMonthStart, weekStart],
          [historyStart, lastMonthStart],
        ]
      : [
          [weekStart, now],
          [monthStart, weekStart],
          [lastMonthStart, monthStart],
          [historyStart, lastMonthStart],
        ];

  /** Days each item is already out in the history, so no two borrows of one thing overlap. */
  const booked = new Map<string, [string, string][]>();
  const free = (itemId: string, start: string, end: string) =>
    !(booked.get(itemId) ?? []).some(([s, e]) => s <= end && e >= start);

  let completed = 0;
  await transaction(
    db,
    async (tx) => {
      for (const [campus, counts] of Object.entries(PLAN)) {
        const campusItems = opts.items.filter((i) => i.campus === campus);
        const borrowers = [
          ...BORROWING_ACCOUNTS.map((i) => opts.accounts[i]!).filter((a) => a.campus === campus),
          ...classmates.filter((c) => c.campus === campus),
        ];
        let carry = 0;
        for (let p = periods.length - 1; p >= 0; p--) {
          const [from, to] = periods[p]!;
          const wanted = counts[p]! + carry;
          if (to.getTime() - from.getTime() < 60_000) {
            carry = wanted;
            continue;
          }
          carry = 0;
          for (let n = 0; n < wanted; n++) {
            // Spread over the period, never at its very edges, and always in the past.
            const at = new Date(
              from.getTime() + (to.getTime() - from.getTime()) * ((n + 0.1 + random() * 0.8) / wanted),
            );
            const endDate = campusToday(opts.timeZone, at).date;
            // The least-borrowed things first, so the history spreads over the catalogue and its categories.
            const candidates = campusItems
              .map((item) => ({ item, order: (booked.get(item.id)?.length ?? 0) + random() }))
              .sort((a, b) => a.order - b.order)
              .map((c) => c.item);
            for (const item of candidates) {
              const days =
                item.rentalPeriod === 'month' ? 7 + Math.floor(random() * 14) : 1 + Math.floor(random() * 5);
              const startDate = addDays(endDate, -days);
              // Requested a day and a half before the return day's borrow began, after the item was listed.
              const createdAt = new Date(at.getTime() - (days + 1.5) * DAY_MS);
              const borrower = pick(borrowers);
              if (
                borrower.id === item.userId ||
                startDate < item.availableFrom ||
                item.createdAt >= createdAt ||
                !item.availableDays.includes(weekdayOf(startDate)) ||
                !item.availableDays.includes(weekdayOf(endDate)) ||
                !free(item.id, startDate, endDate)
              ) {
                continue;
              }
              booked.set(item.id, [...(booked.get(item.id) ?? []), [startDate, endDate]]);
              const price = quote(
                {
                  rentalPriceCents: item.rentalPriceCents,
                  rentalPeriod: item.rentalPeriod as RentalPeriod | null,
                  depositCents: item.depositCents,
                },
                startDate,
                endDate,
                // Bookings of the past, from before the service fee (decision 055): none on them.
                NO_PLATFORM_SHARE,
              );
              const paid = price.totalCents > 0;
              const intentId = paid ? `pi_test_demo_${randomBytes(12).toString('hex')}` : null;
              const [reservation] = await tx
                .insert(reservations)
                .values({
                  itemId: item.id,
                  borrowerId: borrower.id,
                  providerId: item.userId,
                  startDate,
                  endDate,
                  status: 'completed',
                  rentalCents: price.rentalCents,
                  depositCents: price.depositCents,
                  rentalPeriod: item.rentalPeriod,
                  stripePaymentIntentId: intentId,
                  pickupCode: String(Math.floor(random() * 1_000_000)).padStart(6, '0'),
                  createdAt,
                  // Approved when the card was charged, three hours after the request (below): the
                  // lender's profile counts their cancellations against the bookings they approved.
                  approvedAt: new Date(createdAt.getTime() + 3 * 60 * 60 * 1000),
                  updatedAt: at,
                  completedAt: at,
                })
                .returning({ id: reservations.id });
              await impactService.recordCompletion(tx, reservation!.id);
              if (paid && intentId) {
                // What the money flow would have left, at the built-in test provider and in our records
                // alike (reconciliation compares them): charged in full, the deposit refunded.
                const dates = `${formatDayLabel(startDate)} to ${formatDayLabel(endDate)}`;
                const charged = new Date(createdAt.getTime() + 3 * 60 * 60 * 1000);
                await tx.insert(testPaymentIntents).values({
                  id: intentId,
                  clientSecret: `${intentId}_secret_demo`,
                  status: 'succeeded',
                  amountCents: price.totalCents,
                  amountReceivedCents: price.totalCents,
                  amountRefundedCents: price.depositCents,
                  metadata: { itemId: item.id, borrowerId: borrower.id, startDate, endDate },
                  card: {
                    type: 'card',
                    brand: 'visa',
                    last4: '4242',
                    expiryMonth: 12,
                    expiryYear: at.getFullYear() + 3,
                  },
                  createdAt,
                });
                await tx.insert(paymentIntents).values({
                  id: intentId,
                  borrowerId: borrower.id,
                  itemId: item.id,
                  startDate,
                  endDate,
                  rentalCents: price.rentalCents,
                  depositCents: price.depositCents,
                  amountCents: price.totalCents,
                  reservationId: reservation!.id,
                  status: 'used',
                  providerStatus: 'succeeded',
                  createdAt,
                });
                const base = { reservationId: reservation!.id, stripePaymentIntentId: intentId };
                await ledgerService.recordRows(tx, [
                  {
                    ...base,
                    kind: 'payment',
                    userId: borrower.id,
                    amountCents: price.totalCents,
                    status: 'completed',
                    description: `Payment for ${item.title} (${dates})`,
                    paymentMethodType: 'card',
                    paymentMethodLast4: '4242',
                    createdAt: charged,
                  },
                  ...(price.rentalCents > 0
                    ? [
                        {
                          ...base,
                          kind: 'earning' as const,
                          userId: item.userId,
                          amountCents: price.rentalCents,
                          status: 'completed' as const,
                          description: `Earning: ${item.title} lent to ${nameOf.get(borrower.id)}`,
                          createdAt: charged,
                        },
                      ]
                    : []),
                  ...(price.depositCents > 0
                    ? [
                        {
                          ...base,
                          kind: 'refund' as const,
                          userId: borrower.id,
                          amountCents: price.depositCents,
                          status: 'refunded' as const,
                          description: `Deposit refund for ${item.title}`,
                          refundAmountCents: price.depositCents,
                          refundedAt: at,
                          createdAt: at,
                        },
                      ]
                    : []),
                ]);
              }
              // Both people reviewed each other a few hours after the return, so the reviews show.
              const lenderStars = random() < 0.8 ? 5 : 4;
              const borrowerStars = random() < 0.85 ? 5 : 4;
              await tx.insert(reviews).values([
                {
                  reservationId: reservation!.id,
                  reviewerId: borrower.id,
                  revieweeId: item.userId,
                  itemId: item.id,
                  rating: lenderStars,
                  comment: pick(LENDER_PRAISE[lenderStars]!),
                  reviewType: 'borrower_to_lender',
                  createdAt: new Date(at.getTime() + 3 * 60 * 60 * 1000),
                },
                {
                  reservationId: reservation!.id,
                  reviewerId: item.userId,
                  revieweeId: borrower.id,
                  itemId: null,
                  rating: borrowerStars,
                  comment: pick(BORROWER_PRAISE[borrowerStars]!),
                  reviewType: 'lender_to_borrower',
                  createdAt: new Date(at.getTime() + 5 * 60 * 60 * 1000),
                },
              ]);
              completed++;
              break;
            }
          }
        }
      }
    },
    // Draws from the seeded random numbers and fills `booked` as it goes: a second run would not repeat it.
    { attempts: 1 },
  );
  return { completed };
}
