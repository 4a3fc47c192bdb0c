import { t } from '@lingui/core/macro';
import { formatMoney } from '#shared/format.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#shared/i18n.ts';
import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { Mailer, MailMessage } from '../../adapters/mail/mailer.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { inLocale } from '../../i18n.ts';
import type { StepRow } from './queries.ts';
import * as queries from './receipt-queries.ts';

// Receipts (decision 058): a borrower gets an e-mail for every charge and every refund the provider made,
// with its lines (rental, service fee, deposit; for a refund, what came back of each), in their language. The receipt
// is written in the transaction that recorded the step's success, so a step tried many times owes one;
// the sender marks it sent in the transaction that holds it, so two senders never send the same one.

/** Owed for a charge or a refund the provider has made (in the step's success transaction). */
export async function receiptOwed(tx: Db, step: StepRow, borrowerId: string | null): Promise<void> {
  if (!borrowerId || (step.kind !== 'capture' && step.kind !== 'refund') || step.amountCents <= 0) return;
  await queries.insertReceipt(tx, {
    stepId: step.id,
    borrowerId,
    reservationId: step.reservationId,
    paymentIntentId: step.paymentIntentId,
    kind: step.kind,
    purpose: step.purpose,
    amountCents: step.amountCents,
  });
}

type Unsent = Awaited<ReturnType<typeof queries.lockUnsent>>[number];

/**
 * What of a refund was rental and what deposit: a deposit or a claim's rest gives back deposit, an early
 * return rental; anything else (a cancellation, a policy refund, support) the deposit first.
 */
export function refundLines(r: { purpose: string; amountCents: number; depositCents: number }) {
  if (r.purpose === 'deposit' || r.purpose === 'claim')
    return { rentalCents: 0, depositCents: r.amountCents };
  if (r.purpose === 'early_return') return { rentalCents: r.amountCents, depositCents: 0 };
  const deposit = Math.min(r.amountCents, r.depositCents);
  return { rentalCents: r.amountCents - deposit, depositCents: deposit };
}

/** The receipt e-mail of one charge or refund, in the borrower's language. */
export function receiptEmail(r: Unsent & { email: string; locale: Locale }): MailMessage {
  return inLocale(r.locale, () => {
    const item = r.itemTitle ?? t`your booking`;
    const total = formatMoney(r.amountCents);
    const deposit = r.depositCents ?? 0;
    const fee = r.serviceFeeCents ?? 0;
    const feePaid = formatMoney(fee);
    const rental = r.rentalCents ?? r.amountCents - deposit - fee;
    const rentalPaid = formatMoney(rental);
    const depositPaid = formatMoney(deposit);
    const back = refundLines({ purpose: r.purpose, amountCents: r.amountCents, depositCents: deposit });
    const rentalBack = formatMoney(back.rentalCents);
    const depositBack = formatMoney(back.depositCents);
    const lines =
      r.kind === 'capture'
        ? [
            t`Rental: ${rentalPaid}`,
            ...(fee > 0 ? [t`Service fee: ${feePaid}`] : []),
            ...(deposit > 0 ? [t`Deposit (given back when the item is returned): ${depositPaid}`] : []),
            t`Total charged: ${total}`,
          ]
        : [
            // A refund of rental gives back the service fee in the same proportion (decision 055).
            ...(back.rentalCents > 0
              ? [
                  fee > 0
                    ? t`Rental and service fee refunded: ${rentalBack}`
                    : t`Rental refunded: ${rentalBack}`,
                ]
              : []),
            ...(back.depositCents > 0 ? [t`Deposit refunded: ${depositBack}`] : []),
            t`Total refunded: ${total}`,
          ];
    const payment = r.paymentIntentId;
    return brandedEmail({
      to: r.email,
      locale: r.locale,
      fullName: r.fullName,
      subject:
        r.kind === 'capture' ? t`Your CampusLoop receipt: ${item}` : t`Your CampusLoop refund: ${item}`,
      paragraphs: [
        r.kind === 'capture'
          ? t`Your card was charged ${total} for ${item}.`
          : t`${total} for ${item} is on its way back to your card; banks take up to 10 days to show it.`,
        ...lines,
      ],
      notes: [t`Payment reference: ${payment}`],
    });
  });
}

/**
 * Sends the receipts not yet sent (a few at a time): each is marked sent with its e-mail; one the mailer
 * refused stays unsent for the next round. A receipt to an account that is gone is dropped as sent.
 */
export async function sendReceipts(
  deps: { db: Db; mailer: Mailer; log?: { warn?: (obj: object, msg: string) => void } },
  limit = 20,
): Promise<number> {
  return transaction(
    deps.db,
    async (tx) => {
      let sent = 0;
      for (const r of await queries.lockUnsent(tx, limit)) {
        if (r.email && !r.deletedAt) {
          const locale = isLocale(r.locale) ? r.locale : DEFAULT_LOCALE;
          try {
            await deps.mailer.send(receiptEmail({ ...r, email: r.email, locale }));
            sent++;
          } catch (error) {
            deps.log?.warn?.(
              { err: error, stepId: r.stepId },
              'receipt could not be sent; tried again later',
            );
            continue;
          }
        }
        await queries.markSent(tx, r.stepId, new Date());
      }
      return sent;
    },
    { attempts: 1 },
  );
}
