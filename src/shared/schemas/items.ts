import { i18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { z } from 'zod';
import { CANCELLATION_POLICIES } from '../booking/cancellation-policy.ts';
import { CATEGORIES, CONDITIONS, ITEM_SORTS, LIMITS, PICKUP_METHODS, RENTAL_PERIODS } from '../constants.ts';
import { calendarDay, plainText } from './fields.ts';
import { review } from './reviews.ts';

// Items (spec §3, §5, §7): one schema for the List/Edit form and for POST/PUT /api/items.

const { photosPerItem } = LIMITS;

/**
 * A money amount as the form sends it: a decimal string (or number) with at most two decimals. Its
 * messages: when it is not an amount, and when it is over $10,000.
 */
const amount = (messages: { notAnAmount: () => string; tooMuch: () => string }) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .refine((v) => v === '' || /^\d{1,5}(\.\d{1,2})?$/.test(v), { error: messages.notAnAmount })
    .refine((v) => v === '' || Number(v) <= 10_000, { error: messages.tooMuch })
    .transform((v) => (v === '' ? undefined : v))
    .optional()
    .nullable();

/** A `msg` descriptor: the server's errors write it in the caller's language. */
export const PHOTO_NOT_UPLOADED = msg`This photo was not uploaded to CampusLoop. Please upload it again.`;
const photoNotUploaded = () => i18n._(PHOTO_NOT_UPLOADED);

/**
 * A photo is a URL our storage gave out (the items service checks that it is one of ours); here, what is
 * never one: another scheme (`data:`, `javascript:`), a protocol-relative `//host`, bare words. Empty,
 * 'null' and 'undefined' are tolerated and dropped (spec §2: they do not count as photos).
 */
export const photoUrl = plainText()
  .max(500, { error: photoNotUploaded })
  .refine(
    (v) => ['', 'null', 'undefined'].includes(v) || /^\/(?![/\\])/.test(v) || /^https?:\/\/[^/\s]/i.test(v),
    { error: photoNotUploaded },
  );

export const itemInput = z
  .object({
    title: plainText(() => t`Title is required`)
      .trim()
      .min(1, { error: () => t`Title is required` })
      .max(120, { error: () => t`Title must be at most 120 characters` }),
    description: plainText(() => t`Description must be at least 10 characters`)
      .trim()
      .min(LIMITS.descriptionMin, { error: () => t`Description must be at least 10 characters` })
      .max(5000, { error: () => t`Description must be at most 5000 characters` }),
    category: z.enum(CATEGORIES, { error: () => t`Please choose a category` }),
    condition: z.enum(CONDITIONS, { error: () => t`Please choose a condition` }),
    pickupMethod: z.enum(PICKUP_METHODS, { error: () => t`Please choose a pickup method` }),
    /** Absent keeps the item's (Flexible for a new one). */
    cancellationPolicy: z
      .enum(CANCELLATION_POLICIES, { error: () => t`Please choose a cancellation policy` })
      .optional(),
    depositAmount: amount({
      notAnAmount: () => t`Deposit must be an amount like 12.50`,
      tooMuch: () => t`Deposit must be at most $10,000`,
    }),
    rentalPrice: amount({
      notAnAmount: () => t`Rental price must be an amount like 12.50`,
      tooMuch: () => t`Rental price must be at most $10,000`,
    }),
    rentalPeriod: z
      .enum(RENTAL_PERIODS, { error: () => t`Please choose day, week or month` })
      .optional()
      .nullable(),
    pickupLocation: plainText()
      .trim()
      .max(200, { error: () => t`Pickup location must be at most 200 characters` })
      .optional()
      .nullable(),
    availableFrom: calendarDay(() => t`Please choose the first day it is available`),
    availableUntil: calendarDay(() => t`Please choose a valid last day`)
      .optional()
      .nullable()
      .or(z.literal('').transform(() => null)),
    availableDays: z
      .array(z.number().int().min(0).max(6), { error: () => t`Must select at least one day` })
      .min(1, { error: () => t`Must select at least one day` })
      .max(7)
      .refine((days) => new Set(days).size === days.length, {
        error: () => t`Each day can be selected once`,
      }),
    images: z
      .array(photoUrl)
      .max(LIMITS.photosPerItem, { error: () => t`You can upload a maximum of ${photosPerItem} images.` })
      .default([]),
  })
  .refine((v) => !v.availableUntil || v.availableUntil >= v.availableFrom, {
    path: ['availableUntil'],
    error: () => t`The last day cannot be before the first day`,
  });
export type ItemInput = z.input<typeof itemInput>;

export const itemOwner = z.object({
  id: z.uuid(),
  fullName: z.string(),
  username: z.string(),
  profileImage: z.string().nullable(),
  isVerified: z.boolean(),
  campusName: z.string(),
});

/**
 * The average of revealed reviews and how many there are; null when there are none, and
 * then nothing is shown. The average is unrounded: the stars round it to the nearest half.
 */
export const rating = z.object({ average: z.number(), count: z.number().int() }).nullable();
export type Rating = z.infer<typeof rating>;

export const item = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  title: z.string(),
  description: z.string(),
  category: z.enum(CATEGORIES),
  images: z.array(z.string()),
  condition: z.enum(CONDITIONS),
  /** Decimal strings ("12.50"), null when none. */
  depositAmount: z.string().nullable(),
  rentalPrice: z.string().nullable(),
  rentalPeriod: z.enum(RENTAL_PERIODS).nullable(),
  pickupMethod: z.enum(PICKUP_METHODS),
  pickupLocation: z.string().nullable(),
  availableFrom: z.string(),
  availableUntil: z.string().nullable(),
  availableDays: z.array(z.number().int()),
  isAvailable: z.boolean(),
  cancellationPolicy: z.enum(CANCELLATION_POLICIES),
  campus: z.string(),
  createdAt: z.string(),
  /** Hidden by a moderator: only its owner and the moderators see it. */
  hidden: z.boolean(),
  /** What borrowers rated this item, from revealed reviews only. */
  rating,
  user: itemOwner,
});
export type Item = z.infer<typeof item>;

const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

/** GET /api/items (spec §7): only truthy values are sent; campus 'all' means every campus. */
export const itemSearchQuery = z.object({
  campus: plainText().trim().max(100).optional(),
  category: z.enum(CATEGORIES, { error: () => t`Unknown category` }).optional(),
  searchQuery: plainText()
    .trim()
    .max(200, { error: () => t`Search text is too long` })
    .optional(),
  availableNow: flag,
  freeOnly: flag,
  maxPrice: z.coerce
    .number({ error: () => t`Max price must be a number` })
    .min(0, { error: () => t`Max price must be 0 or more` })
    .max(100_000)
    .optional(),
  pickupMethod: z.enum(PICKUP_METHODS, { error: () => t`Unknown pickup method` }).optional(),
  sort: z.enum(ITEM_SORTS, { error: () => t`Unknown sort order` }).optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(12),
  /** Home shows no count: the answer then has none, and the server counts nothing (decision 049). */
  skipTotal: flag,
});
export type ItemSearchQuery = z.input<typeof itemSearchQuery>;

export const itemList = z.object({
  items: z.array(item),
  /**
   * How many items match, counted up to 1,000 (then `totalCapped`: the page says "1,000+"); absent
   * when the query says skipTotal.
   */
  total: z.number().int().optional(),
  /** More than `total` match: counting stops at 1,000 (features/items/queries.ts, COUNT_CAP). */
  totalCapped: z.boolean().optional(),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
});
export type ItemList = z.infer<typeof itemList>;

export const itemDetail = z.object({
  item,
  reviews: z.array(review),
  /** The lender's average over every revealed review they received, as their profile shows it. */
  lenderRating: rating,
  /** For moderators only: why the item may be out of browse. */
  moderation: z
    .object({ hiddenAt: z.string().nullable(), ownerSuspendedAt: z.string().nullable() })
    .optional(),
});
export const itemIdParams = z.object({ id: z.uuid({ error: () => t`Item not found` }) });
export const itemResponse = z.object({ item });

// thumbnailOf lives in ../photos.ts (no zod there, so item cards load without zod); re-exported for
// the modules that already import it from here.
export { thumbnailOf } from '../photos.ts';
