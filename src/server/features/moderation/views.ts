import type { ReportReason, ReportStatus } from '#shared/constants.ts';
import type {
  ModeratedAsk,
  ModeratedItem,
  ModeratedUser,
  ReportSummary,
} from '#shared/schemas/moderation.ts';
import { type AskRow, firstNameOf } from '../asks/service.ts';
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
  // The reports_target_check and reports_ask_check constraints guarantee a person when there is
  // no item, an ask's author among them.
  if (row.ask) {
    return {
      ...base,
      target: {
        kind: 'ask',
        ask: {
          id: row.ask.id,
          title: row.ask.title,
          askerFirstName: firstNameOf(user!.fullName),
          hidden: row.ask.hiddenAt !== null,
        },
        user: user!,
      },
    };
  }
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

export function toAsk(row: AskRow): ModeratedAsk {
  return {
    id: row.id,
    title: row.title,
    note: row.note,
    status: row.status,
    askerFirstName: firstNameOf(row.authorName),
    startDate: row.startDate,
    endDate: row.endDate,
    hiddenAt: iso(row.hiddenAt),
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
