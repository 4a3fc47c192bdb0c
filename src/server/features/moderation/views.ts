import type { ReportReason, ReportStatus } from '#shared/constants.ts';
import type { ModeratedItem, ModeratedUser, ReportSummary } from '#shared/schemas/moderation.ts';
import { universityService } from '../universities/service.ts';
import type * as queries from './queries.ts';

// How the moderation rows become what the moderators' pages show.

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toSummary(row: queries.ReportSummaryRow): ReportSummary {
  const user = row.user
    ? {
        id: row.user.id,
        fullName: row.user.fullName,
        username: row.user.username,
        suspended: row.user.suspendedAt !== null,
        deleted: row.user.deletedAt !== null,
      }
    : null;
  const base = {
    id: row.id,
    reason: row.reason as ReportReason,
    description: row.description,
    status: row.status as ReportStatus,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: iso(row.reviewedAt),
    reporter: row.reporter,
  };
  if (row.item) {
    return {
      ...base,
      target: {
        kind: 'item',
        item: {
          id: row.item.id,
          title: row.item.title,
          hidden: row.item.hiddenAt !== null,
          deleted: row.item.deletedAt !== null,
        },
        user,
      },
    };
  }
  // The reports_target_check constraint guarantees a person when there is no item.
  return { ...base, target: { kind: 'user', user: user! } };
}

export function toItem(row: queries.ModeratedItemRow): ModeratedItem {
  return {
    ...row,
    hiddenAt: iso(row.hiddenAt),
    deletedAt: iso(row.deletedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export function toUser(row: queries.ModeratedUserRow): ModeratedUser {
  const { campus, ...rest } = row;
  return {
    ...rest,
    campusName: universityService.campusName(campus),
    suspendedAt: iso(row.suspendedAt),
    deletedAt: iso(row.deletedAt),
    createdAt: row.createdAt.toISOString(),
  };
}
