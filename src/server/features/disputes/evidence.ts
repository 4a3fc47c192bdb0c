import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { DisputeEvidence } from '#shared/schemas/disputes.ts';
import type { Db } from '../../db/client.ts';
import { conversationService } from '../conversations/service.ts';
import { handoverService } from '../handovers/service.ts';
import * as queries from './queries.ts';

// A dispute's evidence, made of what the booking holds: the listing, the dates and amounts, the
// pickup code's use, the handover photos and notes, the claim if any, and the two people's chat. It is
// written in English, for the card network's reviewers (not a reader of ours), into the provider's text
// fields; photos go as links (the provider's file fields would need each photo uploaded).

/** Stripe takes at most 150,000 characters over all fields; the free text keeps well under it. */
const TEXT_LIMIT = 60_000;
/** The newest messages of the chat put in the evidence. */
const CHAT_MESSAGES = 200;

const usd = (cents: number | null | undefined) => `$${centsToDecimal(cents ?? 0)}`;
const when = (date: Date | string | null | undefined) =>
  date ? `${new Date(date).toISOString().replace('T', ' ').slice(0, 16)} UTC` : null;

function absolute(appUrl: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${appUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}

export async function assembleEvidence(
  db: Db,
  dispute: queries.DisputeRow,
  appUrl: string,
  moderatorNote?: string,
): Promise<DisputeEvidence> {
  if (!dispute.reservationId) return moderatorNote ? { uncategorized_text: moderatorNote } : {};
  const booking = await queries.bookingForEvidence(db, dispute.reservationId);
  if (!booking) return moderatorNote ? { uncategorized_text: moderatorNote } : {};
  const { reservation: r, item, borrower, lender } = booking;
  const handovers =
    (await handoverService.forReservations(db, [{ id: r.id, borrowerId: r.borrowerId }])).get(r.id) ?? [];
  const { messages, hasMore } = await conversationService.messagesBetween(
    db,
    { itemId: r.itemId, buyerId: r.borrowerId, sellerId: r.providerId },
    CHAT_MESSAGES,
  );

  const roleOf = (id: string) => (id === r.borrowerId ? 'Borrower (cardholder)' : 'Lender');
  const lines: string[] = [];
  if (moderatorNote) lines.push(moderatorNote, '');
  lines.push(
    `CampusLoop booking ${r.id}: ${borrower.fullName} (the cardholder) borrowed "${item.title}" from ${lender.fullName}, a student on the same campus, from ${r.startDate} to ${r.endDate}.`,
    `Charged: ${usd(r.rentalCents)} rental and ${usd(r.depositCents)} refundable deposit (payment ${dispute.paymentIntentId}).`,
  );
  if (r.approvedAt) lines.push(`Approved by the lender: ${when(r.approvedAt)}.`);
  if (r.pickedUpAt)
    lines.push(
      `Handed over: ${when(r.pickedUpAt)}, confirmed by the lender entering the pickup code only the borrower held.`,
    );
  if (r.returnedAt) lines.push(`Returned: ${when(r.returnedAt)}.`);
  if (r.completedAt) lines.push(`Booking completed: ${when(r.completedAt)}.`);
  if (r.earlyRefundCents) lines.push(`Refunded for an early return: ${usd(r.earlyRefundCents)}.`);
  if (r.claimCents !== null) {
    lines.push(
      `Damage claim by the lender: ${usd(r.claimCents)} ("${r.claimDescription ?? ''}"), ${r.awardedCents !== null ? `decided by a moderator: ${usd(r.awardedCents)} kept` : 'not decided'}.`,
    );
  }
  if (handovers.length > 0) {
    lines.push('', 'Condition records at the handovers:');
    for (const h of handovers) {
      const who = h.author === 'borrower' ? 'the borrower' : 'the lender';
      lines.push(`- ${h.stage}, by ${who}, ${when(h.createdAt)}${h.note ? `: "${h.note}"` : ''}`);
      for (const photo of h.photos)
        lines.push(`  photo (${when(photo.addedAt)}): ${absolute(appUrl, photo.url)}`);
    }
  }
  if (messages.length > 0) {
    lines.push('', `Messages between the two${hasMore ? ` (the newest ${CHAT_MESSAGES})` : ''}:`);
    for (const m of messages) lines.push(`[${when(m.createdAt)}] ${roleOf(m.senderId)}: ${m.content}`);
  }
  let text = lines.join('\n');
  if (text.length > TEXT_LIMIT) text = `${text.slice(0, TEXT_LIMIT - 1)}…`;

  const access = [
    r.pickedUpAt &&
      `The lender confirmed the handover at ${when(r.pickedUpAt)} by entering the borrower's one-time pickup code, shown only in the borrower's signed-in account.`,
    r.returnedAt && `The item came back at ${when(r.returnedAt)}.`,
  ].filter(Boolean);

  return {
    product_description:
      `Peer-to-peer rental of "${item.title}" (${item.category}, condition: ${item.condition}). Listing: ${item.description}`.slice(
        0,
        5000,
      ),
    customer_name: borrower.fullName,
    customer_email_address: borrower.email,
    service_date: r.startDate,
    cancellation_policy_disclosure: `The item's cancellation policy (${r.cancellationPolicy}) is shown in the booking dialog before the cardholder authorises the payment.`,
    refund_policy_disclosure:
      'The deposit is refunded when the lender confirms the return, or automatically 48 hours after it, unless a damage claim is upheld.',
    ...(access.length > 0 ? { access_activity_log: access.join(' ') } : {}),
    uncategorized_text: text,
  };
}
