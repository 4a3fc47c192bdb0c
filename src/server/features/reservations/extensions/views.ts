import { extensionLapsesAt } from '#shared/booking/booking-deadlines.ts';
import type { ExtensionStatus } from '#shared/booking/extensions.ts';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { Extension } from '#shared/schemas/extensions.ts';
import type { Db } from '../../../db/client.ts';
import * as queries from './queries.ts';

// A request for more days as the card shows it.

/** A booking's extensions as its card shows them: the one waiting, and the approved ones' payments. */
export interface ExtensionSummary {
  pending: Extension | null;
  approvedRentalCents: number;
  /** The service fee paid with those extra rentals (decision 055). */
  approvedServiceFeeCents: number;
  approved: { previousEndDate: string; newEndDate: string; rentalCents: number; serviceFeeCents: number }[];
}

export function toExtension(row: queries.ExtensionRow, timeZone: string): Extension {
  return {
    id: row.id,
    reservationId: row.reservationId,
    previousEndDate: row.previousEndDate,
    newEndDate: row.newEndDate,
    rentalAmount: centsToDecimal(row.rentalCents)!,
    serviceFeeAmount: centsToDecimal(row.serviceFeeCents)!,
    status: row.status as ExtensionStatus,
    respondBy:
      row.status === 'pending'
        ? extensionLapsesAt(row.previousEndDate, timeZone, row.authorisedAt).toISOString()
        : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What My Reservations' cards show of each booking's extensions: the request waiting for the lender,
 * and the extra rental of those approved.
 */
export async function summaryFor(
  db: Db,
  reservationIds: string[],
  timeZone: string,
): Promise<Map<string, ExtensionSummary>> {
  const summary = new Map<string, ExtensionSummary>();
  const entry = (id: string) => {
    const found = summary.get(id) ?? {
      pending: null,
      approvedRentalCents: 0,
      approvedServiceFeeCents: 0,
      approved: [],
    };
    summary.set(id, found);
    return found;
  };
  for (const row of await queries.pendingForReservations(db, reservationIds)) {
    entry(row.reservationId).pending = toExtension(row, timeZone);
  }
  for (const row of await queries.approvedFor(db, reservationIds)) {
    const found = entry(row.reservationId);
    found.approvedRentalCents += row.rentalCents;
    found.approvedServiceFeeCents += row.serviceFeeCents;
    found.approved.push(row);
  }
  return summary;
}
