import { useLingui } from '@lingui/react/macro';
import { ModerationHeader } from '../features/moderation/components/moderation-nav.tsx';
import { ModeratorsOnly } from '../features/moderation/components/moderators-only.tsx';
import { PaymentProblems } from '../features/payment-steps/components/payment-problems.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';

// /admin/payments (issue 12): the payments that need a moderator.

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
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <ModerationHeader />
      <PaymentProblems />
    </div>
  );
}
