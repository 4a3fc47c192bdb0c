import type { JournalProblem } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import * as queries from './journal-queries.ts';
import type { StepRow } from './queries.ts';
import { receiptOwed } from './receipts.ts';

// The double-entry journal (decision 058): every money movement the platform makes, as a transaction
// whose lines add up to zero (a debit positive, a credit negative) over four accounts:
//   provider_cash   the money the provider holds for us
//   borrower        a borrower's money we hold: deposits, what is still to go back (credit); below
//                   zero, what a dispute took back beyond it
//   lender_payable  what we owe a lender (credit); below zero, what the lender owes us
//   platform_fees   what CampusLoop earned
// Money is journalled as moved only once the provider has moved it: a capture, refund or release when
// its payment step succeeded; a lender's earning once the payment it is of is charged (and each change
// after that as it happens); transfers, reversals and disputes when the provider says they happened.
// Per booking: captured − refunded − disputed = transferred − reversed + fees + payable + held.

type Source = { source: string };

/** The money of a booking's payment, by whom. */
interface OfPayment {
  reservationId: string | null;
  paymentIntentId: string | null;
}

/**
 * The journal's earnings of an intent brought up to its earning entries, once the intent is charged:
 * each lender's difference becomes what we owe them, out of the borrower's money. Called after every
 * change of the entries and when the charge succeeds; a second call posts nothing.
 */
async function earningsChanged(tx: Db, paymentIntentId: string, at?: Date): Promise<void> {
  await queries.lockIntent(tx, paymentIntentId);
  const capture = await queries.captureOf(tx, paymentIntentId);
  if (!capture) return;
  const borrowerId = await queries.borrowerOfIntent(tx, paymentIntentId);
  for (const e of await queries.earningsToJournal(tx, paymentIntentId)) {
    const delta = e.entriesCents - e.journalledCents;
    if (!delta) continue;
    await queries.insertTransaction(tx, {
      kind: 'earning',
      reservationId: e.reservationId ?? capture.reservationId,
      paymentIntentId,
      source: null,
      ...(at ? { at } : {}),
      lines: [
        { account: 'borrower', personId: borrowerId, amountCents: delta },
        { account: 'lender_payable', personId: e.lenderId, amountCents: -delta },
      ],
    });
  }
  await feesChanged(tx, paymentIntentId, { reservationId: capture.reservationId, borrowerId, at });
}

/**
 * The journal's fees of a charged intent brought up to the platform's share of it (decision 055: the
 * service fee and the commission): what grew is the borrower's money become CampusLoop's, what shrank
 * (a fee given back with the rental) goes the other way. A second call posts nothing.
 */
async function feesChanged(
  tx: Db,
  paymentIntentId: string,
  of: { reservationId: string | null; borrowerId: string | null; at?: Date | undefined },
): Promise<void> {
  const delta =
    (await queries.platformShareCents(tx, paymentIntentId)) -
    (await queries.feesJournalled(tx, paymentIntentId));
  if (!delta) return;
  await queries.insertTransaction(tx, {
    kind: delta > 0 ? 'fee' : 'fee_returned',
    reservationId: of.reservationId,
    paymentIntentId,
    source: null,
    ...(of.at ? { at: of.at } : {}),
    lines: [
      { account: 'borrower', personId: of.borrowerId, amountCents: delta },
      { account: 'platform_fees', personId: null, amountCents: -delta },
    ],
  });
}

/** A payment step the provider has done: the money it moved (a release moves none, and is recorded). */
async function stepSucceeded(tx: Db, step: StepRow): Promise<void> {
  const of = { reservationId: step.reservationId, paymentIntentId: step.paymentIntentId };
  const source = `step:${step.id}`;
  if (step.kind === 'release') {
    await queries.insertTransaction(tx, {
      kind: 'release',
      ...of,
      source,
      releasedCents: step.amountCents,
      lines: [],
    });
    return;
  }
  await queries.lockIntent(tx, step.paymentIntentId);
  const borrowerId = await queries.borrowerOfIntent(tx, step.paymentIntentId);
  if (step.kind === 'capture') {
    await queries.insertTransaction(tx, {
      kind: 'capture',
      ...of,
      source,
      lines: [
        { account: 'provider_cash', personId: null, amountCents: step.amountCents },
        { account: 'borrower', personId: borrowerId, amountCents: -step.amountCents },
      ],
    });
  } else {
    await queries.insertTransaction(tx, {
      kind: 'refund',
      ...of,
      source,
      lines: [
        { account: 'borrower', personId: borrowerId, amountCents: step.amountCents },
        { account: 'provider_cash', personId: null, amountCents: -step.amountCents },
      ],
    });
  }
  // A charge makes the lender's earning real; a refund of the whole payment takes it back.
  await earningsChanged(tx, step.paymentIntentId);
  await receiptOwed(tx, step, borrowerId);
}

/**
 * Billing rows written as already done (history recorded afterwards, as the demo's): a charged payment
 * is journalled as its capture, a refund made as its refund, and the earnings of those payments follow.
 */
async function rowsRecorded(
  tx: Db,
  rows: {
    id: string;
    kind: string;
    status: string;
    userId: string;
    reservationId: string | null;
    stripePaymentIntentId: string | null;
    amountCents: number;
    createdAt: Date;
    refundedAt: Date | null;
  }[],
): Promise<void> {
  const done = rows.filter(
    (r) =>
      r.stripePaymentIntentId &&
      ((r.kind === 'payment' && r.status === 'completed') ||
        (r.kind === 'refund' && r.status === 'refunded')),
  );
  // Charges first, so a refund recorded with its payment follows it.
  done.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'payment' ? -1 : 1));
  for (const r of done) {
    const charge = r.kind === 'payment';
    await queries.insertTransaction(tx, {
      kind: charge ? 'capture' : 'refund',
      reservationId: r.reservationId,
      paymentIntentId: r.stripePaymentIntentId,
      source: `billing:${r.id}`,
      at: charge ? r.createdAt : (r.refundedAt ?? r.createdAt),
      lines: [
        { account: 'provider_cash', personId: null, amountCents: charge ? r.amountCents : -r.amountCents },
        { account: 'borrower', personId: r.userId, amountCents: charge ? -r.amountCents : r.amountCents },
      ],
    });
  }
  // Only an earning or money moved can change what an intent's earnings journal: a hold (a pending
  // payment, the request's own row) changes neither, and skipping it spares the request two statements.
  const intents = new Set(
    rows
      .filter((r) => r.kind === 'earning' || done.includes(r))
      .map((r) => r.stripePaymentIntentId)
      .filter((id): id is string => !!id),
  );
  for (const id of intents) await earningsChanged(tx, id, rows[0]?.createdAt);
}

/** One movement between two accounts, journalled once per source. */
function movement(
  kind:
    | 'fee'
    | 'fee_returned'
    | 'transfer'
    | 'transfer_reversal'
    | 'dispute_withdrawn'
    | 'dispute_reinstated'
    | 'lender_charged',
  debit: (w: Moved) => queries.LineInsert['account'],
  credit: (w: Moved) => queries.LineInsert['account'],
  person: (w: Moved, account: queries.LineInsert['account']) => string | null,
) {
  return async (tx: Db, what: Moved): Promise<boolean> => {
    if (!Number.isInteger(what.amountCents) || what.amountCents <= 0) {
      throw new Error(`a journal ${kind} needs a positive whole number of cents`);
    }
    const d = debit(what);
    const c = credit(what);
    return queries.insertTransaction(tx, {
      kind,
      reservationId: what.reservationId,
      paymentIntentId: what.paymentIntentId,
      source: what.source,
      lines: [
        { account: d, personId: person(what, d), amountCents: what.amountCents },
        { account: c, personId: person(what, c), amountCents: -what.amountCents },
      ],
    });
  };
}

type Moved = OfPayment &
  Source & {
    amountCents: number;
    /** The lender of a transfer or its reversal. */
    lenderId?: string | null;
    /** The borrower of a fee or a dispute. */
    borrowerId?: string | null;
  };

const whose = (w: Moved, account: queries.LineInsert['account']) =>
  account === 'lender_payable'
    ? (w.lenderId ?? null)
    : account === 'borrower'
      ? (w.borrowerId ?? null)
      : null;

/**
 * The journal's reconciliation of the bookings whose payments were just compared with the provider:
 * each booking's equation, the journal against the billing rows and earning entries, and its cash per
 * payment against what the provider said. A booking found wrong gets one open finding (kept up to
 * date); one found right again has its finding closed.
 */
async function reconcileBookings(
  db: Db,
  compared: { reservationId: string; paymentIntentId: string; providerNetCents: number }[],
): Promise<{ checked: number; found: number }> {
  const ids = [...new Set(compared.map((c) => c.reservationId))];
  if (!ids.length) return { checked: 0, found: 0 };
  const books = new Map((await queries.booksOfBookings(db, ids)).map((b) => [b.reservationId, b]));
  const intents = compared.map((c) => c.paymentIntentId);
  const rowsDisagree = new Set(
    (await queries.intentsDisagreeingWithRows(db, intents)).map((r) => r.paymentIntentId),
  );
  const cash = new Map(
    (await queries.providerCashByIntent(db, intents)).map((r) => [r.paymentIntentId, r.cents]),
  );
  const right: string[] = [];
  let found = 0;
  for (const reservationId of ids) {
    const b = books.get(reservationId);
    const { cashCents, accountedCents } = b ? bookingEquation(b) : { cashCents: 0, accountedCents: 0 };
    const payments = compared.filter((c) => c.reservationId === reservationId);
    let problem: JournalProblem | null = null;
    if (cashCents !== accountedCents) problem = 'does_not_add_up';
    else if (payments.some((p) => rowsDisagree.has(p.paymentIntentId))) problem = 'rows_disagree';
    else if (payments.some((p) => (cash.get(p.paymentIntentId) ?? 0) !== p.providerNetCents))
      problem = 'provider_disagrees';
    if (!problem) {
      right.push(reservationId);
      continue;
    }
    found++;
    await queries.recordFinding(db, { reservationId, cashCents, accountedCents, problem });
  }
  await queries.resolveFindings(db, right);
  return { checked: ids.length, found };
}

export const journal = {
  reconcileBookings,
  stepSucceeded,
  earningsChanged: (tx: Db, paymentIntentId: string) => earningsChanged(tx, paymentIntentId),
  rowsRecorded,

  /** Money sent to a lender's own account (a transfer): we owe them that much less. */
  transferSent: movement(
    'transfer',
    () => 'lender_payable',
    () => 'provider_cash',
    whose,
  ),
  /** A transfer taken back from the lender's account: we owe them that much again. */
  transferReversed: movement(
    'transfer_reversal',
    () => 'provider_cash',
    () => 'lender_payable',
    whose,
  ),
  /**
   * A moderator found the lender at fault for a lost dispute (decision 061): the loss is theirs, not
   * the borrower's debt; we owe the lender that much less (below zero: they owe us, until a reversal
   * or a later transfer's netting settles it).
   */
  lenderCharged: movement(
    'lender_charged',
    () => 'lender_payable',
    () => 'borrower',
    whose,
  ),
  /** A dispute took the money back to the borrower's bank. */
  disputeFundsWithdrawn: movement(
    'dispute_withdrawn',
    () => 'borrower',
    () => 'provider_cash',
    whose,
  ),
  /** A dispute won: the money is back with the provider. */
  disputeFundsReinstated: movement(
    'dispute_reinstated',
    () => 'provider_cash',
    () => 'borrower',
    whose,
  ),

  booksOfBookings: queries.booksOfBookings,
  unbalancedTransactions: queries.unbalancedTransactions,
  intentsDisagreeingWithRows: queries.intentsDisagreeingWithRows,
  lendersDisagreeingWithEntries: queries.lendersDisagreeingWithEntries,
  providerCashByIntent: queries.providerCashByIntent,
  feesDisagreeingWithShare: queries.feesDisagreeingWithShare,
  payableOf: queries.payableOf,
  moneyOfPerson: queries.moneyOfPerson,
  lenderTotals: queries.lenderTotals,
  openFindings: queries.openFindings,
};

/** Whether a booking's books hold: captured − refunded − disputed = transferred − reversed + fees + payable + held. */
export function bookingEquation(b: queries.BookingBooks): { cashCents: number; accountedCents: number } {
  return {
    cashCents: b.capturedCents - b.refundedCents - b.disputedCents,
    accountedCents: b.transferredCents - b.reversedCents + b.feesCents + b.payableCents + b.heldCents,
  };
}
