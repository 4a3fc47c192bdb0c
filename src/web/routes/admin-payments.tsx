import { useLingui } from '@lingui/react/macro';
import { useDisputes } from '../features/disputes/api.ts';
import { CardDisputes } from '../features/disputes/components/card-disputes.tsx';
import { ModerationHeader } from '../features/moderation/components/moderation-nav.tsx';
import { ModeratorsOnly } from '../features/moderation/components/moderators-only.tsx';
import { OwnCasesNotice } from '../features/moderation/components/own-cases-notice.tsx';
import { usePaymentProblems } from '../features/payment-steps/api.ts';
import { JournalBooks } from '../features/payment-steps/components/journal-books.tsx';
import { PaymentProblems } from '../features/payment-steps/components/payment-problems.tsx';
import { PayoutProblemsSection } from '../features/payouts/components/payout-problems.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';

// /admin/payments (decisions 012, 058, 059 and 061): the payments that need a moderator, payouts to
// lenders that failed, card disputes, the journal's findings and lenders' yearly totals.

export default function AdminPaymentsRoute() {
  return (
    <ModeratorsOnly>
      <AdminPaymentsPage />
    </ModeratorsOnly>
  );
}

function AdminPaymentsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Payments · Moderation`);
  const payments = usePaymentProblems().data?.ownCases;
  const disputes = useDisputes().data?.ownCases;
  // One notice for the page: the cases of both lists left out for being the moderator's own.
  const ownCases =
    payments && disputes
      ? { withheld: payments.withheld + disputes.withheld, otherModerator: payments.otherModerator }
      : payments;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <ModerationHeader />
      <OwnCasesNotice ownCases={ownCases} />
      <PaymentProblems />
      <PayoutProblemsSection />
      <CardDisputes />
      <JournalBooks />
    </div>
  );
}
