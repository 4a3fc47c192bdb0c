import { msg, t } from '@lingui/core/macro';
import { z } from 'zod';

// Leaving CampusLoop (/settings/data): the export of one's data and the deletion of the account.

/**
 * How a deleted account's person reads everywhere: chat, reviews, the moderators' queue. Stored in the
 * account's name (and in the texts that named them), so it is data, the same in every language.
 */
export const FORMER_STUDENT = 'Former student';

/** The confirmation the delete dialog asks for: the current password. */
export const deleteAccountInput = z.object({
  currentPassword: z
    .string({ error: () => t`Please enter your current password` })
    .min(1, { error: () => t`Please enter your current password` })
    .max(200, { error: () => t`Please enter your current password` }),
});
export type DeleteAccountInput = z.input<typeof deleteAccountInput>;

/** Why an account cannot be deleted yet (409 ACCOUNT_IN_USE), in the words the page shows (`msg` descriptors). */
export const ACCOUNT_IN_USE_ACTIVE = msg`You have a reservation that is approved or in progress. Finish it (or cancel it) first, then delete your account.`;
export const ACCOUNT_IN_USE_MONEY = msg`Money is still held for one of your requests. Cancel the request (or wait for the lender to answer) first, then delete your account.`;
export const ACCOUNT_MONEY_ON_ITS_WAY = msg`A payment or refund for one of your bookings has not gone through yet. Once it has, you can delete your account.`;
export const accountOwedToYou = (amount: string) =>
  msg`CampusLoop still owes you ${amount} for lending your items, not yet paid out. Once it has been paid to you, you can delete your account.`;
export const accountYouOwe = (amount: string) =>
  msg`You owe ${amount} on a booking (money taken back after it was paid). Settle it with CampusLoop support first, then delete your account.`;

/** What the export holds: everything CampusLoop keeps about the person, as plain JSON. */
export const dataExport = z.object({
  exportedAt: z.string(),
  profile: z.object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    fullName: z.string(),
    campus: z.string(),
    profileImage: z.string().nullable(),
    isVerified: z.boolean(),
    createdAt: z.string(),
  }),
  items: z.array(z.record(z.string(), z.unknown())),
  reservations: z.array(z.record(z.string(), z.unknown())),
  messages: z.array(z.record(z.string(), z.unknown())),
  reviewsWritten: z.array(z.record(z.string(), z.unknown())),
  billing: z.array(z.record(z.string(), z.unknown())),
  /** Their photos and notes of items' condition at pickup and return (decision 033). */
  handovers: z.array(z.record(z.string(), z.unknown())),
});
export type DataExport = z.infer<typeof dataExport>;
