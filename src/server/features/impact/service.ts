import { msg } from '@lingui/core/macro';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import { campusPeriods } from '#shared/calendar.ts';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import { DEFAULT_LOCALE, type Locale } from '#shared/i18n.ts';
import {
  borrowImpact,
  changePercent,
  goalProgressPercent,
  IMPACT_ACHIEVEMENTS,
  MONTHLY_SHARING_GOAL,
} from '#shared/impact.ts';
import type {
  CampusImpact,
  ImpactCampuses,
  ImpactDashboard,
  ImpactFigures,
  Leaderboard,
  LeaderboardEntry,
} from '#shared/schemas/impact.ts';
import type { Db } from '../../db/client.ts';
import { DEMO_ACCOUNTS } from '../../demo/accounts.ts';
import { notFound } from '../../errors.ts';
import { inLocale } from '../../i18n.ts';
import { askService } from '../asks/service.ts';
import { universityService } from '../universities/service.ts';
import * as queries from './queries.ts';

// Campus impact: every completed borrow adds its estimated saving to a ledger and to
// its campus's running totals, in the transaction that completes it; the dashboard and Home read them.

export interface ImpactDeps {
  db: Db;
  /** The campus calendar's time zone: "this week" and "this month" begin at its midnight. */
  timeZone: string;
}

/** Spec §2 Home and Dashboard: the leaderboard's length. */
const TOP_CONTRIBUTORS = 5;
/** How many active campuses the picker offers before one searches the directory. */
const ACTIVE_CAMPUSES = 20;

const kg = (grams: number) => grams / 1000;

function checkCampus(campus: string): void {
  if (!universityService.isKnownCampus(campus)) {
    throw notFound(msg`Campus not found. Use a university domain from the directory, such as stanford.edu.`);
  }
}

async function totals(db: Db, campus: string) {
  const row = await queries.findCampusTotals(db, campus);
  const figures: ImpactFigures = {
    itemsShared: row?.itemsShared ?? 0,
    moneySaved: centsToDecimal(row?.moneySavedCents ?? 0)!,
    co2Saved: kg(row?.co2SavedGrams ?? 0),
    wasteReduced: kg(row?.wasteReducedGrams ?? 0),
  };
  return { figures, updatedAt: row?.updatedAt ?? null };
}

async function topContributors(
  db: Db,
  campus: string,
  weekStart: Date,
  now: Date,
): Promise<LeaderboardEntry[]> {
  const rows = await queries.topLenders(db, campus, weekStart, now, TOP_CONTRIBUTORS);
  return rows.map((row, i) => ({
    rank: i + 1,
    userId: row.userId,
    name: row.name,
    username: row.username,
    profileImage: row.profileImage,
    itemsShared: row.itemsShared,
    co2Saved: kg(row.co2SavedGrams),
    badges: row.badges,
  }));
}

export const impactService = {
  /**
   * Counts a completed reservation once: the ledger row (unique per reservation) and the campus totals
   * move together, inside the caller's transaction. Answers false when it was already counted.
   */
  async recordCompletion(tx: Db, reservationId: string): Promise<boolean> {
    const reservation = await queries.findCompletedReservation(tx, reservationId);
    if (!reservation?.completedAt || reservation.status !== 'completed') {
      throw new Error(`recordCompletion: reservation ${reservationId} is not completed`);
    }
    const saved = borrowImpact(reservation.category as Category, reservation.rentalCents);
    const added = await queries.insertContribution(tx, {
      reservationId,
      campus: reservation.campus,
      category: reservation.category,
      lenderId: reservation.providerId,
      borrowerId: reservation.borrowerId,
      completedAt: reservation.completedAt,
      ...saved,
    });
    if (added) await queries.addToCampusTotals(tx, reservation.campus, saved);
    return added;
  },

  /** Spec §7 GET /api/impact/{campus}. */
  async campusImpact(db: Db, campus: string): Promise<CampusImpact> {
    checkCampus(campus);
    const { figures, updatedAt } = await totals(db, campus);
    return {
      campus,
      campusName: universityService.campusName(campus),
      ...figures,
      updatedAt: updatedAt?.toISOString() ?? null,
    };
  },

  /** 'Top Contributors This Week': lenders by borrows completed since Monday on campus. */
  async leaderboard(deps: ImpactDeps, campus: string, now = new Date()): Promise<Leaderboard> {
    checkCampus(campus);
    const { weekStart } = campusPeriods(deps.timeZone, now);
    return {
      weekStart: weekStart.toISOString(),
      topContributors: await topContributors(deps.db, campus, weekStart, now),
    };
  },

  /**
   * Every section of spec §2 Campus Impact Dashboard, from the ledger and the totals; the achievements'
   * words in `locale` (the request's).
   */
  async dashboard(
    deps: ImpactDeps,
    campus: string,
    now = new Date(),
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<ImpactDashboard> {
    checkCampus(campus);
    const { db } = deps;
    const { weekStart, monthStart, lastMonthStart } = campusPeriods(deps.timeZone, now);
    const [{ figures }, month, categoryRows, members, leaders, asks] = await Promise.all([
      totals(db, campus),
      queries.monthActivity(db, campus, { lastMonthStart, monthStart, now }),
      queries.categoryTotals(db, campus),
      queries.countMembers(db, campus),
      topContributors(db, campus, weekStart, now),
      askService.impactCounts(db, campus),
    ]);

    const byCategory = new Map(categoryRows.map((r) => [r.category, r]));
    const categories = CATEGORIES.map((category) => ({
      category,
      itemsShared: Number(byCategory.get(category)?.itemsShared ?? 0),
      co2Saved: kg(byCategory.get(category)?.co2SavedGrams ?? 0),
    })).sort((a, b) => b.itemsShared - a.itemsShared);

    const metrics = { itemsShared: figures.itemsShared, co2SavedKg: figures.co2Saved, members };
    return {
      campus,
      campusName: universityService.campusName(campus),
      impact: figures,
      month: {
        start: monthStart.toISOString(),
        itemsShared: month.itemsThisMonth,
        goal: MONTHLY_SHARING_GOAL,
        progressPercent: goalProgressPercent(month.itemsThisMonth),
      },
      activeSharers: {
        thisMonth: month.activeThisMonth,
        lastMonth: month.activeLastMonth,
        changePercent: changePercent(month.activeThisMonth, month.activeLastMonth),
      },
      communityMembers: members,
      asks,
      categories,
      achievements: inLocale(locale, () =>
        IMPACT_ACHIEVEMENTS.map((a) => ({
          id: a.id,
          title: a.title,
          description: a.description,
          threshold: a.threshold,
          current: metrics[a.metric],
          unlocked: metrics[a.metric] >= a.threshold,
        })),
      ),
      topContributors: leaders,
    };
  },

  /** Campuses with completed borrows, and the one a visitor sees first: the most active, else the first demo campus. */
  async campuses(db: Db): Promise<ImpactCampuses> {
    const rows = (await queries.listActiveCampuses(db, ACTIVE_CAMPUSES)).filter((r) =>
      universityService.isKnownCampus(r.campus),
    );
    const campuses = rows.map((r) => ({
      campus: r.campus,
      campusName: universityService.campusName(r.campus),
      itemsShared: r.itemsShared,
    }));
    const fallback = DEMO_ACCOUNTS[0].campus;
    const first = campuses[0] ?? { campus: fallback, campusName: universityService.campusName(fallback) };
    return { defaultCampus: { campus: first.campus, campusName: first.campusName }, campuses };
  },
};
