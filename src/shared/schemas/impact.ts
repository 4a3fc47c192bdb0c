import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { CATEGORIES } from '../constants.ts';

// Campus impact (spec §3 Impact, §7 GET /api/impact/{campus}, §2 Campus Impact Dashboard).
// Units, everywhere in these responses:
//   moneySaved   US dollars as a decimal string with 2 decimals ("1234.50"), like every amount of the API
//   co2Saved     kilograms of CO2e (a number; grams / 1000)
//   wasteReduced kilograms (a number; grams / 1000)
// The screens convert for display (spec §9): tons with one decimal and 'T', pounds with no decimals.

/** A campus is its university's primary domain, as users.campus stores it ('stanford.edu'). */
const notACampus = () => t`Campus must be a university domain such as stanford.edu`;
export const campusParams = z.object({
  campus: z
    .string()
    .trim()
    .toLowerCase()
    .max(253, { error: notACampus })
    .regex(/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, {
      error: notACampus,
    }),
});

/** Spec §3 Impact (response). */
export const impactFigures = z.object({
  itemsShared: z.number().int(),
  moneySaved: z.string(),
  co2Saved: z.number(),
  wasteReduced: z.number(),
});
export type ImpactFigures = z.infer<typeof impactFigures>;

/** GET /api/impact/{campus}: the running totals (zeros before the first completed borrow). */
export const campusImpactResponse = z.object({
  impact: impactFigures.extend({
    campus: z.string(),
    campusName: z.string(),
    /** When the last completed borrow was counted; null before the first. */
    updatedAt: z.string().nullable(),
  }),
});
export type CampusImpact = z.infer<typeof campusImpactResponse>['impact'];

/** Spec §3 Leaderboard entry: a lender and what their lending saved this week. */
export const leaderboardEntry = z.object({
  rank: z.number().int(),
  userId: z.uuid(),
  name: z.string(),
  username: z.string(),
  profileImage: z.string().nullable(),
  itemsShared: z.number().int(),
  /** kg CO2e. */
  co2Saved: z.number(),
  /** How many badges they hold. */
  badges: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntry>;

/** GET /api/impact/{campus}/leaderboard: 'Top Contributors This Week' (the week starts Monday on campus). */
export const leaderboardResponse = z.object({
  weekStart: z.string(),
  topContributors: z.array(leaderboardEntry),
});
export type Leaderboard = z.infer<typeof leaderboardResponse>;

export const categoryImpact = z.object({
  category: z.enum(CATEGORIES),
  itemsShared: z.number().int(),
  /** kg CO2e. */
  co2Saved: z.number(),
});
export type CategoryImpact = z.infer<typeof categoryImpact>;

export const achievement = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  threshold: z.number(),
  /** The campus's figure the threshold is measured on (items, kg CO2e or members). */
  current: z.number(),
  unlocked: z.boolean(),
});
export type Achievement = z.infer<typeof achievement>;

/** GET /api/impact/{campus}/dashboard: every section of spec §2 Campus Impact Dashboard. */
export const impactDashboardResponse = z.object({
  campus: z.string(),
  campusName: z.string(),
  impact: impactFigures,
  month: z.object({
    /** When this month began on campus (ISO instant). */
    start: z.string(),
    itemsShared: z.number().int(),
    goal: z.number().int(),
    /** One decimal, capped at 100 (spec §9). */
    progressPercent: z.number(),
  }),
  activeSharers: z.object({
    /** Distinct lenders and borrowers with a borrow completed this calendar month. */
    thisMonth: z.number().int(),
    /** The same for the whole of last month. */
    lastMonth: z.number().int(),
    /** Whole percent; null when last month had none. */
    changePercent: z.number().int().nullable(),
  }),
  /** Students on the campus (not suspended). */
  communityMembers: z.number().int(),
  /**
   * "Ask your campus": asks that got at least one offer, and asks that ended in an approved borrow of an
   * offered item (the reservation the approval linked to the ask).
   */
  asks: z.object({ answered: z.number().int(), borrowed: z.number().int() }),
  /** Every category, most shared first. */
  categories: z.array(categoryImpact),
  achievements: z.array(achievement),
  topContributors: z.array(leaderboardEntry),
});
export type ImpactDashboard = z.infer<typeof impactDashboardResponse>;

/** GET /api/impact: campuses with completed borrows, most first, and the one to show a visitor. */
export const impactCampusesResponse = z.object({
  defaultCampus: z.object({ campus: z.string(), campusName: z.string() }),
  campuses: z.array(z.object({ campus: z.string(), campusName: z.string(), itemsShared: z.number().int() })),
});
export type ImpactCampuses = z.infer<typeof impactCampusesResponse>;
