import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { HANDOVER_MAX_PHOTOS, type HandoverStage, handoverIssue } from '#shared/booking/handovers.ts';
import type { Handover } from '#shared/schemas/handovers.ts';
import { PHOTO_NOT_UPLOADED } from '#shared/schemas/items.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { wording } from '../../wordings.ts';
import { type NoticeText, notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';

// Decision 033: either person of a reservation keeps photos and a note of the item's
// condition at pickup and at return, shown to both with their times, and to the moderator of a dispute.
// Additions append: photos up to five in all per person and stage, the note once. Nothing is taken back,
// because the other person (and a moderator) may already rely on it.

export interface HandoverDeps {
  db: Db;
  /** Photos must be ones our storage gave out (the listing's upload pipeline). */
  storage?: Pick<Storage, 'ownsPhotoUrl'>;
  /** The pickup's grace period is counted on it (tests move it). */
  clock?: Clock;
}

export interface HandoverViewer {
  id: string;
  isAdmin?: boolean;
}

const reservationNotFound = () => notFound(msg`Reservation not found.`);

/** Too many photos for a stage: how many more fit (none, or some). */
function tooManyPhotos(stage: HandoverStage, left: number): MessageDescriptor {
  const most = HANDOVER_MAX_PHOTOS;
  if (stage === 'pickup') {
    return left
      ? msg`You can keep at most ${most} photos at pickup: ${left} more can be added.`
      : msg`You can keep at most ${most} photos at pickup: no more can be added.`;
  }
  return left
    ? msg`You can keep at most ${most} photos at return: ${left} more can be added.`
    : msg`You can keep at most ${most} photos at return: no more can be added.`;
}

/** The other person's notice of what was added to a stage's record. */
const addedText = wording(
  'handovers.addedText',
  (
    stage: HandoverStage,
    wording: { author: string; title: string },
    photos: number,
    note: boolean,
  ): NoticeText => {
    const { author, title } = wording;
    if (stage === 'pickup') {
      return {
        title: msg`Condition at pickup`,
        message: !note
          ? msg`${author} added ${plural(photos, { one: '# photo', other: '# photos' })} of ${title}'s condition at pickup. They are kept with the reservation.`
          : photos
            ? msg`${author} added ${plural(photos, { one: '# photo', other: '# photos' })} and a note of ${title}'s condition at pickup. They are kept with the reservation.`
            : msg`${author} added a note of ${title}'s condition at pickup. They are kept with the reservation.`,
      };
    }
    return {
      title: msg`Condition at return`,
      message: !note
        ? msg`${author} added ${plural(photos, { one: '# photo', other: '# photos' })} of ${title}'s condition at return. They are kept with the reservation.`
        : photos
          ? msg`${author} added ${plural(photos, { one: '# photo', other: '# photos' })} and a note of ${title}'s condition at return. They are kept with the reservation.`
          : msg`${author} added a note of ${title}'s condition at return. They are kept with the reservation.`,
    };
  },
);

export function toHandover(row: queries.HandoverRow, reservation: { borrowerId: string }): Handover {
  return {
    id: row.id,
    stage: row.stage as HandoverStage,
    author: row.authorId === reservation.borrowerId ? 'borrower' : 'provider',
    photos: row.photos,
    note: row.note,
    noteAt: row.noteAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const isParty = (r: { borrowerId: string; providerId: string }, userId: string) =>
  r.borrowerId === userId || r.providerId === userId;

export const handoverService = {
  /**
   * Adds to the caller's record of a stage: new photos after the ones kept (a photo sent again is kept
   * once, so a double submit changes nothing), the note if none was written. Someone who is not one of
   * the two people gets the same 404 as for a missing reservation (as the chat does).
   */
  async add(
    deps: HandoverDeps,
    userId: string,
    reservationId: string,
    input: { stage: HandoverStage; photos: string[]; note?: string },
  ): Promise<Handover[]> {
    if (input.photos.some((url) => !deps.storage?.ownsPhotoUrl(url))) {
      throw badRequest(PHOTO_NOT_UPLOADED, [{ path: 'photos', message: PHOTO_NOT_UPLOADED }]);
    }
    return transaction(deps.db, async (tx) => {
      const reservation = await queries.lockReservationForHandover(tx, reservationId);
      if (!reservation || !isParty(reservation, userId)) throw reservationNotFound();
      const now = deps.clock?.now() ?? new Date();
      const problem = handoverIssue(input.stage, reservation, now);
      if (problem) throw conflict(problem, 'HANDOVER_CLOSED');

      const record = await queries.lockOwnRecord(tx, {
        reservationId,
        stage: input.stage,
        authorId: userId,
      });
      const kept = new Set(record.photos.map((photo) => photo.url));
      const added = input.photos.filter((url) => !kept.has(url));
      if (record.photos.length + added.length > HANDOVER_MAX_PHOTOS) {
        const message = tooManyPhotos(input.stage, HANDOVER_MAX_PHOTOS - record.photos.length);
        throw badRequest(message, [{ path: 'photos', message }]);
      }
      if (input.note && record.note && input.note !== record.note) {
        throw conflict(
          input.stage === 'pickup'
            ? msg`Your pickup note is already written and stays as it is. Add photos, or say more in the chat.`
            : msg`Your return note is already written and stays as it is. Add photos, or say more in the chat.`,
          'HANDOVER_NOTE_WRITTEN',
        );
      }
      const newNote = Boolean(input.note && !record.note);
      if (added.length || newNote) {
        const at = now.toISOString();
        await queries.updateRecord(tx, record.id, {
          photos: [...record.photos, ...added.map((url) => ({ url, addedAt: at }))],
          note: newNote ? input.note! : record.note,
          noteAt: newNote ? now : record.noteAt,
          updatedAt: now,
        });
        // The other person hears of it, so evidence is not only found once there is a dispute.
        const wording = await queries.wordingFor(tx, reservationId, userId);
        if (wording) {
          await notificationService.notify(tx, {
            userId: userId === reservation.borrowerId ? reservation.providerId : reservation.borrowerId,
            type: 'handover_added',
            text: () => addedText(input.stage, wording, added.length, newNote),
            relatedReservationId: reservationId,
            relatedItemId: wording.itemId,
          });
        }
      }
      return (await queries.listFor(tx, [reservationId])).map((row) => toHandover(row, reservation));
    });
  },

  /** The records of a reservation: for its two people, and for a moderator while it is disputed. */
  async list(deps: HandoverDeps, viewer: HandoverViewer, reservationId: string): Promise<Handover[]> {
    const reservation = await queries.findReservation(deps.db, reservationId);
    const allowed =
      reservation &&
      (isParty(reservation, viewer.id) || (viewer.isAdmin && reservation.status === 'disputed'));
    if (!allowed) throw reservationNotFound();
    return (await queries.listFor(deps.db, [reservationId])).map((row) => toHandover(row, reservation));
  },

  /** The records of many reservations at once (My Reservations, the moderators' queue): one query. */
  async forReservations(
    db: Db,
    reservations: readonly { id: string; borrowerId: string }[],
  ): Promise<Map<string, Handover[]>> {
    const byId = new Map(reservations.map((r) => [r.id, r]));
    const found = new Map<string, Handover[]>();
    for (const row of await queries.listFor(db, [...byId.keys()])) {
      const list = found.get(row.reservationId) ?? [];
      list.push(toHandover(row, byId.get(row.reservationId)!));
      found.set(row.reservationId, list);
    }
    return found;
  },
};
