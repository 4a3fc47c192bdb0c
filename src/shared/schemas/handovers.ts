import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { HANDOVER_MAX_PHOTOS, HANDOVER_NOTE_MAX, HANDOVER_STAGES } from '../booking/handovers.ts';
import { plainText } from './fields.ts';
import { photoUrl } from './items.ts';

// Decision 033: photos and a note about the item's condition at pickup and at return.

const maxPhotos = HANDOVER_MAX_PHOTOS;
const noteMax = HANDOVER_NOTE_MAX;

export const handoverStage = z.enum(HANDOVER_STAGES, { error: () => t`The stage is pickup or return` });

export const handoverInput = z
  .object({
    stage: handoverStage,
    /** URLs the upload pipeline gave out (POST /api/upload/proxy), added to the ones already kept. */
    photos: z
      .array(photoUrl)
      .max(HANDOVER_MAX_PHOTOS, { error: () => t`You can add at most ${maxPhotos} photos.` })
      .default([])
      .transform((urls) => [...new Set(urls.filter((url) => url && url !== 'null' && url !== 'undefined'))]),
    note: plainText()
      .trim()
      .max(HANDOVER_NOTE_MAX, { error: () => t`The note must be at most ${noteMax} characters` })
      .optional()
      .transform((note) => note || undefined),
  })
  .refine((input) => input.photos.length > 0 || input.note, {
    error: () => t`Add a photo or a note.`,
    path: ['photos'],
  });
export type HandoverInput = z.input<typeof handoverInput>;

export const handoverPhoto = z.object({ url: z.string(), addedAt: z.string() });
export type HandoverPhoto = z.infer<typeof handoverPhoto>;

export const handover = z.object({
  id: z.uuid(),
  stage: handoverStage,
  /** Who added it: the reservation's borrower or its lender. */
  author: z.enum(['borrower', 'provider']),
  /** Each photo with when it was added: later additions say so. */
  photos: z.array(handoverPhoto),
  note: z.string().nullable(),
  noteAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Handover = z.infer<typeof handover>;

export const handoverList = z.object({ handovers: z.array(handover) });
export const handoverResponse = z.object({ success: z.literal(true), handovers: z.array(handover) });

/** GET /api/admin/claims/:id/chat: the reservation's chat, read-only, for the moderator of a dispute. */
export const disputeChat = z.object({
  messages: z.array(
    z.object({
      id: z.uuid(),
      author: z.enum(['borrower', 'provider']),
      content: z.string(),
      createdAt: z.string(),
    }),
  ),
  /** Older messages exist beyond the ones sent. */
  hasMore: z.boolean(),
});
export type DisputeChat = z.infer<typeof disputeChat>;
