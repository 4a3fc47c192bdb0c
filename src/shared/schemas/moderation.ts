import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { LIMITS, MODERATION_ACTIONS, REPORT_REASONS, REPORT_STATUSES } from '../constants.ts';
import { plainText } from './fields.ts';

// The moderators' API (/api/admin/*): the report queue, one report with its target and
// history, and the actions (note, resolve, dismiss, hide/unhide an item, hide an ask, suspend/unsuspend
// a user).

export const REPORT_QUEUE_FILTERS = ['pending', 'resolved', 'dismissed', 'all'] as const;
export type ReportQueueFilter = (typeof REPORT_QUEUE_FILTERS)[number];

export const reportQueueQuery = z.object({
  status: z
    .enum(REPORT_QUEUE_FILTERS, { error: () => t`Status must be pending, resolved, dismissed or all` })
    .default('pending'),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type ReportQueueQuery = z.input<typeof reportQueueQuery>;

const person = z.object({
  id: z.uuid(),
  fullName: z.string(),
  username: z.string(),
});

/** The reported person as a moderator sees them: e-mail and suspension included. */
export const moderatedUser = person.extend({
  email: z.string(),
  campusName: z.string(),
  profileImage: z.string().nullable(),
  isVerified: z.boolean(),
  suspendedAt: z.string().nullable(),
  /** When they deleted their account (decision 023): their name reads "Former student", the reports stay. */
  deletedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ModeratedUser = z.infer<typeof moderatedUser>;

/** The reported item as a moderator sees it: hidden or deleted ones too. */
export const moderatedItem = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  images: z.array(z.string()),
  hiddenAt: z.string().nullable(),
  deletedAt: z.string().nullable(),
  createdAt: z.string(),
  owner: person,
});
export type ModeratedItem = z.infer<typeof moderatedItem>;

/** The reported ask as a moderator sees it: hidden or closed ones too. */
export const moderatedAsk = z.object({
  id: z.uuid(),
  title: z.string(),
  note: z.string(),
  status: z.string(),
  /** The name the board shows for the asker. */
  askerFirstName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  hiddenAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ModeratedAsk = z.infer<typeof moderatedAsk>;

/** The person a report is about, with what moderators did to their account. */
const reportedPerson = person.extend({ suspended: z.boolean(), deleted: z.boolean() });

/** One row of the queue. */
export const reportSummary = z.object({
  id: z.uuid(),
  reason: z.enum(REPORT_REASONS),
  description: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reporter: person,
  /** What was reported: an item (with its owner), an ask on a campus board (with its author) or a person. */
  target: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('item'),
      item: z.object({
        id: z.uuid(),
        title: z.string(),
        hidden: z.boolean(),
        deleted: z.boolean(),
      }),
      user: reportedPerson.nullable(),
    }),
    z.object({
      kind: z.literal('ask'),
      ask: z.object({
        id: z.uuid(),
        title: z.string(),
        /** The name the board shows for the asker. */
        askerFirstName: z.string(),
        hidden: z.boolean(),
      }),
      user: reportedPerson,
    }),
    z.object({
      kind: z.literal('user'),
      user: reportedPerson,
    }),
  ]),
});
export type ReportSummary = z.infer<typeof reportSummary>;

/**
 * The cases of a queue left out because the moderator is a party to them (no one decides their own
 * case), and whether another moderator exists to decide them.
 */
export const ownCases = z.object({
  withheld: z.number().int(),
  otherModerator: z.boolean(),
});
export type OwnCases = z.infer<typeof ownCases>;

export const reportQueue = z.object({
  reports: z.array(reportSummary),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
  /** How many reports each tab holds. */
  counts: z.object({
    pending: z.number().int(),
    resolved: z.number().int(),
    dismissed: z.number().int(),
    all: z.number().int(),
  }),
  ownCases,
});
export type ReportQueue = z.infer<typeof reportQueue>;

export const moderationEntry = z.object({
  id: z.uuid(),
  action: z.enum(MODERATION_ACTIONS),
  note: z.string().nullable(),
  reportId: z.uuid().nullable(),
  targetUserId: z.uuid().nullable(),
  targetItemId: z.uuid().nullable(),
  /** Null once that admin's account is gone. */
  admin: person.nullable(),
  createdAt: z.string(),
});
export type ModerationEntry = z.infer<typeof moderationEntry>;

export const reportDetail = z.object({
  report: reportSummary.extend({
    adminNotes: z.string().nullable(),
    reviewedBy: person.nullable(),
  }),
  /** The reported item, when it is an item report. */
  item: moderatedItem.nullable(),
  /** The reported ask, when it is an ask report (its author is `user`). */
  ask: moderatedAsk.nullable(),
  /** The reported person (an item report's owner, an ask report's author). */
  user: moderatedUser.nullable(),
  /** Other reports about the same item or person, newest first. */
  otherReports: z.array(reportSummary),
  /** What moderators did about this report, the item and the person, newest first. */
  history: z.array(moderationEntry),
});
export type ReportDetail = z.infer<typeof reportDetail>;

const noteMax = LIMITS.moderationNoteMax;
const noteText = (required: boolean) => {
  const text = plainText(() => t`Please write a note`)
    .trim()
    .max(noteMax, { error: () => t`Notes can be at most ${noteMax} characters` });
  return required ? text.min(1, { error: () => t`Please write a note` }) : text;
};

export const moderationNoteInput = z.object({ note: noteText(true) });
export type ModerationNoteInput = z.input<typeof moderationNoteInput>;

/** Resolve or dismiss: the decision's notes are kept on the report (spec §3 adminNotes). */
export const reportDecisionInput = z.object({
  adminNotes: noteText(false)
    .optional()
    .transform((v) => v || undefined),
});
export type ReportDecisionInput = z.input<typeof reportDecisionInput>;

/** Hide/unhide an item, suspend/unsuspend a person: optionally from a report, with a note. */
export const moderationActionInput = z.object({
  reportId: z.uuid({ error: () => t`Report not found` }).optional(),
  note: noteText(false)
    .optional()
    .transform((v) => v || undefined),
});
export type ModerationActionInput = z.input<typeof moderationActionInput>;

export const reportIdParams = z.object({ id: z.uuid({ error: () => t`Report not found` }) });

/** Hide/unhide and suspend/unsuspend answer the target's new state. */
export const itemModerationResponse = z.object({ item: moderatedItem });
export const askModerationResponse = z.object({ ask: moderatedAsk });
export const userModerationResponse = z.object({ user: moderatedUser });
