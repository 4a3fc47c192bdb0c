import { Trans, useLingui } from '@lingui/react/macro';
import { Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { withReturnTo } from '#shared/return-path.ts';
import { PagePlaceholder } from '../components/layout/page-placeholder.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useSession } from '../features/auth/api.ts';
import { useHere } from '../lib/return-to.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

/** Spec §2 Auth guard: guarded pages show only to signed-in people. */
export function AuthGuard({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  if (isLoading) return <PagePlaceholder />;
  if (!user) return <AuthRequired />;
  return children;
}

function AuthRequired() {
  const { t } = useLingui();
  useDocumentTitle(t`Authentication Required`);
  // Signing in or up from here comes back to this page.
  const here = useHere();
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <Card className="p-8 text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <Lock className="h-7 w-7" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink">
          <Trans>Authentication Required</Trans>
        </h1>
        <p className="mt-2 text-muted">
          <Trans>You need to sign in to access this page</Trans>
        </p>
        <div className="mt-6 grid gap-3">
          <Button asChild>
            <Link to={withReturnTo(paths.login, here)}>
              <Trans>Sign In</Trans>
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={withReturnTo(paths.register, here)}>
              <Trans>Create Account</Trans>
            </Link>
          </Button>
          <Button asChild variant="ghost">
            <Link to={paths.home}>
              <Trans>Back to Home</Trans>
            </Link>
          </Button>
        </div>
      </Card>
    </div>
  );
}
