import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { ASK_CLOSE_REASONS, ASK_LIMITS, ASK_STATUSES } from '../asks.ts';
import { CATEGORIES } from '../constants.ts';
import { calendarDayOf, plainText } from './fields.ts';

// "Ask your campus" (POST/GET /api/asks, offers, closing): one schema for the Ask form and the route.

const { titleMax, noteMax } = ASK_LIMITS;

/**
 * The most the asker would pay: an amount like "12.50" (dollars, as Browse's max price reads a
 * listing's price), or 0 / "free" for free only.
 */
const maxPrice = z
  .union([z.string(), z.number()], { error: () => t`Say the most you would pay, or choose free only` })
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim().toLowerCase()))
  .refine((v) => v === 'free' || /^\d{1,4}(\.\d{1,2})?$/.test(v), {
    error: () => t`The most you would pay must be an amount like 12.50, at most $9,999`,
  })
  .transform((v) => (v === 'free' ? 0 : Math.round(Number(v) * 100)));

export const askInput = z
  .object({
    title: plainText(() => t`Say what you need`)
      .trim()
      .min(3, { error: () => t`Say what you need in at least 3 characters` })
      .max(titleMax, { error: () => t`What you need must be at most ${titleMax} characters` }),
    category: z.enum(CATEGORIES, { error: () => t`Please choose a category` }),
    note: plainText()
      .trim()
      .max(noteMax, { error: () => t`The note must be at most ${noteMax} characters` })
      .default(''),
    startDate: calendarDayOf(() => t`Please choose a start date`),
    endDate: calendarDayOf(() => t`Please choose an end date`),
    maxPrice,
  })
  .refine((v) => v.endDate >= v.startDate, {
    path: ['endDate'],
    error: () => t`The end date cannot be before the start date.`,
  });
export type AskInput = z.input<typeof askInput>;

/** The asker as the board shows them: first name and campus, never contact details. */
export const askAuthor = z.object({ firstName: z.string(), campusName: z.string() });

export const askOffer = z.object({
  id: z.uuid(),
  itemId: z.uuid(),
  itemTitle: z.string(),
  /** The item's first photo's thumbnail, or null. */
  itemImage: z.string().nullable(),
  /** Decimal string, null when free. */
  rentalPrice: z.string().nullable(),
  rentalPeriod: z.string().nullable(),
  /** The lender's first name. */
  lenderFirstName: z.string(),
  /** Only for the asker and the offerer: the chat the offer was said in. */
  conversationId: z.uuid().nullable(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type AskOffer = z.infer<typeof askOffer>;

export const ask = z.object({
  id: z.uuid(),
  title: z.string(),
  category: z.enum(CATEGORIES),
  note: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  /** Decimal string; "0.00" means free only. */
  maxPrice: z.string(),
  status: z.enum(ASK_STATUSES),
  closeReason: z.enum(ASK_CLOSE_REASONS).nullable(),
  /** Past its end date: no longer on the board, no more offers. */
  expired: z.boolean(),
  author: askAuthor,
  /** The caller asked it. */
  mine: z.boolean(),
  /** How many offers it has; their details go only to the asker (and each offerer sees their own). */
  offerCount: z.number().int(),
  offers: z.array(askOffer),
  createdAt: z.string(),
});
export type Ask = z.infer<typeof ask>;

export const askResponse = z.object({ ask });
export const askList = z.object({ asks: z.array(ask) });
export const askIdParams = z.object({ id: z.uuid({ error: () => t`Ask not found` }) });
export const askListQuery = z.object({
  /** mine: the caller's own asks, open or closed; otherwise the campus board (open, not expired). */
  mine: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
});

export const offerInput = z.object({ itemId: z.uuid({ error: () => t`Choose one of your items` }) });
export const offerResponse = z.object({ offer: askOffer });
