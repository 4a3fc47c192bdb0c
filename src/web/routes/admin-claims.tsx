import { useLingui } from '@lingui/react/macro';
import { ModerationHeader } from '../features/moderation/components/moderation-nav.tsx';
import { ModeratorsOnly } from '../features/moderation/components/moderators-only.tsx';
import { OwnCasesNotice } from '../features/moderation/components/own-cases-notice.tsx';
import { DisputedClaims } from '../features/reservations/components/disputed-claims.tsx';
import { useDisputedClaims } from '../features/reservations/queries.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

// /admin/claims: deposit claims a borrower disputed, for a moderator to decide.

export default function AdminClaimsRoute() {
  return (
    <ModeratorsOnly>
      <AdminClaimsPage />
    </ModeratorsOnly>
  );
}

function AdminClaimsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Deposit disputes · Moderation`);
  const ownCases = useDisputedClaims().data?.ownCases;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <ModerationHeader />
      <OwnCasesNotice ownCases={ownCases} />
      <DisputedClaims />
    </div>
  );
}
