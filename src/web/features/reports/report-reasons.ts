import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ReportReason } from '#shared/constants.ts';

/** Spec §5: the Report dialog's reasons, as the dialog and the moderators' pages name them (`i18n._`). */
export const REPORT_REASON_NAMES: Record<ReportReason, MessageDescriptor> = {
  scam: msg`Scam or Fraud`,
  inappropriate: msg`Inappropriate Content`,
  fake_listing: msg`Fake Listing`,
  harassment: msg`Harassment`,
  spam: msg`Spam`,
  other: msg({ message: 'Other', context: 'report reason' }),
};
