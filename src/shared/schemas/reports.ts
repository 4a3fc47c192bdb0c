import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { LIMITS, REPORT_REASONS, REPORT_STATUSES } from '../constants.ts';
import { plainText } from './fields.ts';

// Reports (spec §3 reports, §5 Report, §7 POST /api/reports): the Report dialog validates with
// `reportForm`, the route with `reportInput` (the same fields plus what is reported).

/** The messages, written in the active language when zod reports them. */
export const REPORT_DESCRIPTION_TOO_SHORT = () =>
  t`Please provide a detailed description (at least 10 characters)`;
export const REPORT_DESCRIPTION_TOO_LONG = () => t`Description too long`;
export const REPORT_TARGET_REQUIRED = () => t`Choose the item or the user you are reporting`;

export const reportForm = z.object({
  reason: z.enum(REPORT_REASONS, { error: () => t`Please choose a reason` }).default('scam'),
  description: plainText(REPORT_DESCRIPTION_TOO_SHORT)
    .trim()
    .min(LIMITS.reportDescriptionMin, { error: REPORT_DESCRIPTION_TOO_SHORT })
    .max(LIMITS.reportDescriptionMax, { error: REPORT_DESCRIPTION_TOO_LONG }),
});
export type ReportForm = z.input<typeof reportForm>;

/**
 * An item report names the item (its owner may come along as reportedUserId); an ask report names the
 * ask on the campus board (its author likewise); a user report names only the user.
 */
export const reportInput = reportForm
  .extend({
    reportedUserId: z.uuid({ error: () => t`User not found` }).nullish(),
    reportedItemId: z.uuid({ error: () => t`Item not found` }).nullish(),
    reportedAskId: z.uuid({ error: () => t`Ask not found` }).nullish(),
  })
  .refine((v) => Boolean(v.reportedUserId || v.reportedItemId || v.reportedAskId), {
    error: REPORT_TARGET_REQUIRED,
    path: ['reportedItemId'],
  })
  .refine((v) => !(v.reportedItemId && v.reportedAskId), {
    error: () => t`Report an item or an ask, not both`,
    path: ['reportedAskId'],
  });
export type ReportInput = z.input<typeof reportInput>;

/** A report as its reporter sees it: never the moderators' notes. */
export const report = z.object({
  id: z.uuid(),
  reportedUserId: z.uuid().nullable(),
  reportedItemId: z.uuid().nullable(),
  reportedAskId: z.uuid().nullable(),
  reason: z.enum(REPORT_REASONS),
  description: z.string(),
  status: z.enum(REPORT_STATUSES),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Report = z.infer<typeof report>;

export const reportResponse = z.object({ report });
export const reportList = z.object({ reports: z.array(report) });
