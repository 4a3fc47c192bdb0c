import { msg } from '@lingui/core/macro';
import type { z } from 'zod';
import {
  ASK_LIMITS,
  type AskCloseReason,
  type AskStatus,
  listingMatchesAsk,
  namesProhibitedItem,
} from '#shared/asks.ts';
import { addDays } from '#shared/booking/availability.ts';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import { campusToday } from '#shared/calendar.ts';
import type { Category } from '#shared/constants.ts';
import type { Locale } from '#shared/i18n.ts';
import { thumbnailOf } from '#shared/photos.ts';
import type { Ask, AskOffer, askInput } from '#shared/schemas/asks.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { afterCommit, transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { translate } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { QUEUES } from '../../jobs/queue.ts';
import { conversationService } from '../conversations/service.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { notificationService } from '../notifications/service.ts';
import { universityService } from '../universities/service.ts';
import { matchText, offerMessage, offerText } from './notices.ts';
import * as queries from './queries.ts';

// Ask your campus (decision 066). A verified student asks their campus for something for some days;
// neighbours answer with one of their listings, said in the chat about that listing; the asker
// reserves from an offer through the ordinary reservation flow, and the approval of that reservation
// closes the ask in its own transaction. An ask past its end date is no longer shown or answered.

type AskInput = z.output<typeof askInput>;

export interface AskDeps {
  db: Db;
  clock: Clock;
  timeZone: string;
  /** Absent where no job is sent (tests calling the service directly): matching lenders are told by the caller. */
  jobs?: JobQueue;
}

/** Who is asking or looking: the board is their campus's. */
export interface AskViewer {
  id: string;
  campus: string;
  email: string;
  isVerified: boolean;
  isAdmin: boolean;
  locale?: Locale;
}

const BOARD_SIZE = 100;
const askNotFound = () => notFound(msg`Ask not found.`);
/** How an ask names people: the first name only (the board, offers, the moderators' queue). */
export const firstNameOf = (fullName: string) => fullName.trim().split(/\s+/)[0] ?? '';

function toOffer(row: queries.OfferRow, viewerId: string, askerId: string): AskOffer {
  const party = viewerId === askerId || viewerId === row.userId;
  return {
    id: row.id,
    itemId: row.itemId,
    itemTitle: row.itemTitle,
    itemImage: row.itemImages[0] ? thumbnailOf(row.itemImages[0]) : null,
    rentalPrice: centsToDecimal(row.rentalPriceCents || null),
    rentalPeriod: row.rentalPriceCents ? row.rentalPeriod : null,
    lenderFirstName: firstNameOf(row.lenderName),
    conversationId: party ? row.conversationId : null,
    mine: row.userId === viewerId,
    createdAt: row.createdAt.toISOString(),
  };
}

function toAsk(row: queries.AskRow, viewerId: string, offers: queries.OfferRow[], today: string): Ask {
  const mine = row.userId === viewerId;
  const own = offers.filter((offer) => offer.askId === row.id);
  // The asker sees every offer; anyone else only their own (what others offered is between them).
  const shown = own.filter((offer) => mine || offer.userId === viewerId);
  return {
    id: row.id,
    title: row.title,
    category: row.category as Category,
    note: row.note,
    startDate: row.startDate,
    endDate: row.endDate,
    maxPrice: centsToDecimal(row.maxPriceCents) ?? '0.00',
    status: row.status as AskStatus,
    closeReason: row.closeReason as AskCloseReason | null,
    expired: row.endDate < today,
    author: { firstName: firstNameOf(row.authorName), campusName: universityService.campusName(row.campus) },
    mine,
    offerCount: own.length,
    offers: shown.map((offer) => toOffer(offer, viewerId, row.userId)),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The dates' rules, against the campus's today (the schema already holds end ≥ start). */
function requireGoodDates(input: { startDate: string; endDate: string }, today: string) {
  const issue = (path: 'startDate' | 'endDate', message: ReturnType<typeof msg>) =>
    badRequest(message, [{ path, message }]);
  if (input.startDate < today) throw issue('startDate', msg`The start date cannot be in the past.`);
  const latest = ASK_LIMITS.daysAhead;
  if (input.startDate > addDays(today, latest))
    throw issue('startDate', msg`An ask can start at most ${latest} days from today.`);
  const longest = ASK_LIMITS.longestDays;
  if (input.endDate > addDays(input.startDate, longest - 1))
    throw issue('endDate', msg`An ask can cover at most ${longest} days.`);
}

export const askService = {
  /** POST /api/asks: a verified student asks their own campus; at most five open at once. */
  async create(deps: AskDeps, student: AskViewer, input: AskInput): Promise<Ask> {
    emailVerificationService.requireVerified(student);
    const now = deps.clock.now();
    const today = campusToday(deps.timeZone, now).date;
    requireGoodDates(input, today);
    // The Safety Guidelines' prohibited items may not be asked for, as they may not be listed.
    if (namesProhibitedItem(`${input.title} ${input.note}`)) {
      const message = msg`This asks for something that may not be lent or borrowed on CampusLoop (see the Safety Guidelines).`;
      throw badRequest(message, [{ path: 'title', message }]);
    }
    const row = await transaction(deps.db, async (tx) => {
      // One person's asks one at a time: two arriving together cannot both be the fifth.
      await queries.lockAsker(tx, student.id);
      const most = ASK_LIMITS.openPerPerson;
      if ((await queries.countOpen(tx, student.id, today)) >= most) {
        throw conflict(
          msg`You have ${most} open asks already. Close one before asking for something else.`,
          'TOO_MANY_ASKS',
        );
      }
      const askId = await queries.insertAsk(tx, {
        userId: student.id,
        campus: student.campus,
        title: input.title,
        category: input.category,
        note: input.note,
        startDate: input.startDate,
        endDate: input.endDate,
        maxPriceCents: input.maxPrice,
      });
      // Lenders whose listings match are told by the job queue after the commit, never in the request.
      if (deps.jobs) {
        await deps.jobs.send(tx, QUEUES.askMatches, { askId });
        const jobs = deps.jobs;
        afterCommit(tx, () => jobs.kick(QUEUES.askMatches));
      }
      // Read back on the transaction's connection: the answer takes no further checkout. A new ask has
      // no offers, so none are read.
      return (await queries.findAsk(tx, askId))!;
    });
    return toAsk(row, student.id, [], today);
  },

  /** One ask as the viewer may see it: their campus's, or their own. */
  async get(deps: AskDeps, viewer: AskViewer, id: string): Promise<Ask> {
    const row = await queries.findAsk(deps.db, id);
    const mine = row?.userId === viewer.id;
    if (!row || (!mine && (row.campus !== viewer.campus || row.hiddenAt))) throw askNotFound();
    const today = campusToday(deps.timeZone, deps.clock.now()).date;
    return toAsk(row, viewer.id, await queries.offersOf(deps.db, [row.id]), today);
  },

  /**
   * GET /api/asks: the viewer's campus board (open, not past, newest first), or with `mine` their own
   * asks, open or closed, with every offer.
   */
  async list(deps: AskDeps, viewer: AskViewer, mine = false): Promise<Ask[]> {
    const today = campusToday(deps.timeZone, deps.clock.now()).date;
    const rows = mine
      ? await queries.listOwn(deps.db, viewer.id, BOARD_SIZE)
      : await queries.listBoard(deps.db, viewer.campus, today, BOARD_SIZE);
    const offers = await queries.offersOf(
      deps.db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toAsk(row, viewer.id, offers, today));
  },

  /**
   * POST /api/asks/:id/offers: a student of the ask's campus offers one of their own active listings.
   * The offer is said in the chat about that listing and the asker is told, all in one transaction.
   */
  async offer(deps: AskDeps, student: AskViewer, askId: string, itemId: string): Promise<AskOffer> {
    emailVerificationService.requireVerified(student);
    const today = campusToday(deps.timeZone, deps.clock.now()).date;
    const offerId = await transaction(deps.db, async (tx) => {
      // Under the ask's lock: a close either committed before (409) or comes after this offer.
      const locked = await queries.lockAsk(tx, askId);
      const ask = locked && (await queries.findAsk(tx, askId));
      if (!ask || ask.campus !== student.campus || ask.hiddenAt) throw askNotFound();
      if (ask.userId === student.id) throw forbidden(msg`You cannot offer something for your own ask.`);
      if (ask.status !== 'open') throw conflict(msg`This ask is closed.`, 'ASK_CLOSED');
      if (ask.endDate < today) throw new AppError(410, 'ASK_EXPIRED', msg`This ask has expired.`);
      const item = await queries.findOfferedItem(tx, itemId);
      if (!item || item.deletedAt || item.hiddenAt) {
        const message = msg`Item not found.`;
        throw notFound(message);
      }
      if (item.userId !== student.id) throw forbidden(msg`You can only offer your own items.`);
      if (!item.isAvailable) {
        const message = msg`This item is not available. Make it available before offering it.`;
        throw conflict(message, 'ITEM_NOT_AVAILABLE');
      }
      // The offer's moment is read under the lock, on the clock a close reads, so an offer never
      // looks newer than the close that came after it.
      const createdAt = deps.clock.now();
      const id = await queries.insertOffer(tx, { askId, itemId, userId: student.id, createdAt });
      if (!id) throw conflict(msg`You have offered this item for this ask already.`, 'ALREADY_OFFERED');
      const locale = student.locale ?? 'en';
      const { conversationId } = await conversationService.sayInItemChat(
        tx,
        { itemId, buyerId: ask.userId, sellerId: student.id },
        student.id,
        translate(locale, offerMessage(item.title, ask.title)),
      );
      await queries.setOfferConversation(tx, id, conversationId);
      const lender = firstNameOf(await queries.fullNameOf(tx, student.id));
      await notificationService.notify(tx, {
        userId: ask.userId,
        type: 'ask_offer',
        text: () => offerText(lender, item.title, ask.title),
        relatedItemId: itemId,
      });
      return id;
    });
    const offer = (await queries.offersOf(deps.db, [askId])).find((row) => row.id === offerId);
    if (!offer) throw notFound(msg`Item not found.`);
    return toOffer(offer, student.id, '');
  },

  /**
   * DELETE /api/asks/:id: its author closes it; a moderator hides it (off the board, no more offers).
   * Anyone else gets the same 404 as for a missing ask, or a 403 when they can see it.
   */
  async close(deps: AskDeps, viewer: AskViewer, id: string): Promise<Ask> {
    const row = await queries.findAsk(deps.db, id);
    if (!row) throw askNotFound();
    let now = deps.clock.now();
    if (row.userId === viewer.id) {
      const closed = await transaction(deps.db, async (tx) => {
        // After an offer holding the lock has committed, so the close is dated after it.
        await queries.lockAsk(tx, id);
        now = deps.clock.now();
        return queries.close(tx, id, { reason: 'author', at: now });
      });
      if (!closed) throw conflict(msg`This ask is closed already.`, 'ASK_CLOSED');
    } else if (viewer.isAdmin) {
      await queries.hide(deps.db, id, now);
    } else if (row.campus !== viewer.campus || row.hiddenAt) {
      throw askNotFound();
    } else {
      throw forbidden(msg`Only the person who asked can close this ask.`);
    }
    const today = campusToday(deps.timeZone, now).date;
    const after = (await queries.findAsk(deps.db, id))!;
    return toAsk(after, viewer.id, await queries.offersOf(deps.db, [id]), today);
  },

  /**
   * Called in the transaction that approves a reservation, under its item's lock: the borrower's open
   * asks that were offered this item close, linked to the reservation. A second approval finds them
   * closed. Answers how many closed.
   */
  async reservationApproved(
    tx: Db,
    reservation: { id: string; itemId: string; borrowerId: string },
    now: Date,
  ): Promise<number> {
    let closed = 0;
    for (const askId of await queries.openAsksOfferedItem(tx, reservation.borrowerId, reservation.itemId)) {
      if (await queries.close(tx, askId, { reason: 'reserved', at: now, reservationId: reservation.id }))
        closed++;
    }
    return closed;
  },

  /**
   * The job: tells the owners of listings that match an ask (same campus and category, its words,
   * within its price, offered for its days), once each, by the bell and push (e-mail only in the
   * digest). Answers how many were told.
   */
  async tellMatches(deps: Pick<AskDeps, 'db' | 'clock' | 'timeZone'>, askId: string): Promise<number> {
    const ask = await queries.findAsk(deps.db, askId);
    const today = campusToday(deps.timeZone, deps.clock.now()).date;
    if (ask?.status !== 'open' || ask.hiddenAt || ask.endDate < today) return 0;
    const wanted = { ...ask, category: ask.category as Category };
    const owners = new Set(
      (await queries.candidateListings(deps.db, ask))
        .filter((listing) => listingMatchesAsk(wanted, listing))
        .map((listing) => listing.ownerId),
    );
    const asker = firstNameOf(ask.authorName);
    let told = 0;
    for (const ownerId of owners) {
      told += await transaction(deps.db, async (tx) => {
        if (!(await queries.markMatchTold(tx, askId, ownerId))) return 0;
        await notificationService.notify(tx, {
          userId: ownerId,
          type: 'ask_match',
          text: () => matchText(asker, ask.title, ask.startDate, ask.endDate),
        });
        return 1;
      });
    }
    return told;
  },

  /** For the impact dashboard: asks that got at least one offer, and borrows that came from asks. */
  impactCounts: (db: Db, campus?: string) => queries.answeredCounts(db, campus),
};

/** What moderation reads and does to an ask (the moderators' queue hides one from a report, or unhides it). */
export type { AskRow } from './queries.ts';
export const askQueries = { findAsk: queries.findAsk, hide: queries.hide, unhide: queries.unhide };
