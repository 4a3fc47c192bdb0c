import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { HANDOVER_MAX_PHOTOS, HANDOVER_NOTE_MAX, HANDOVER_STAGES } from '#shared/booking/handovers.ts';
import { createdAt, id, oneOf } from './columns.ts';
import { reservations } from './reservations.ts';
import { users } from './users.ts';

// Decision 033: one person's record of the item's condition at one stage of a
// reservation (pickup or return): photos from the upload pipeline, each with when it was added, and a
// note. Additions append; nothing is taken back (the other person and a moderator may rely on it).

export const reservationHandovers = pgTable(
  'reservation_handovers',
  {
    id: id(),
    reservationId: uuid('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    stage: text('stage').notNull(),
    /** The borrower or the lender of the reservation. */
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `[{ url, addedAt }]`, in the order added. */
    photos: jsonb('photos').$type<{ url: string; addedAt: string }[]>().notNull().default([]),
    note: text('note'),
    noteAt: timestamp('note_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('reservation_handovers_stage_check', oneOf(t.stage, HANDOVER_STAGES)),
    // The service counts under the row's lock; the database is the last word on the limits.
    check(
      'reservation_handovers_photos_check',
      sql`jsonb_typeof(${t.photos}) = 'array' and jsonb_array_length(${t.photos}) <= ${sql.raw(String(HANDOVER_MAX_PHOTOS))}`,
    ),
    check(
      'reservation_handovers_note_check',
      sql`${t.note} is null or char_length(${t.note}) <= ${sql.raw(String(HANDOVER_NOTE_MAX))}`,
    ),
    // One record per person per stage: a second addition finds this row and appends to it.
    unique('reservation_handovers_one_per_person').on(t.reservationId, t.stage, t.authorId),
    // Leaving CampusLoop deletes a person's records.
    index('reservation_handovers_author_idx').on(t.authorId),
  ],
);
