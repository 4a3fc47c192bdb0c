import { Trans, useLingui } from '@lingui/react/macro';
import { ShieldX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { PagePlaceholder } from '../../../components/layout/page-placeholder.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { paths } from '../../../paths.ts';
import { useSession } from '../../auth/api.ts';

/** The moderators' pages: signed-out people go to sign in; others are told the page is not for them. */
export function ModeratorsOnly({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  if (isLoading) return <PagePlaceholder />;
  if (!user) return <Navigate to={paths.login} replace />;
  if (!user.isAdmin) return <NotAllowed />;
  return children;
}

function NotAllowed() {
  const { t } = useLingui();
  useDocumentTitle(t`Not allowed`);
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8 text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-red-50 text-danger">
          <ShieldX className="h-7 w-7" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink">
          <Trans>Moderators only</Trans>
        </h1>
        <p className="mt-2 text-muted">
          <Trans>
            This page is where CampusLoop's moderators review reports. Your account doesn't have access to it.
          </Trans>
        </p>
        <div className="mt-6">
          <Button asChild>
            <Link to={paths.home}>
              <Trans>Back to Home</Trans>
            </Link>
          </Button>
        </div>
      </Card>
    </div>
  );
}
