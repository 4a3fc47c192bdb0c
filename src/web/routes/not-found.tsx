import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { Logo } from '../components/layout/logo.tsx';
import { Button } from '../components/ui/button.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

/** Spec §2: any other path. */
export default function NotFoundPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Page Not Found`);
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center px-4 py-20 text-center">
      <Logo withText={false} />
      <h1 className="mt-4 text-3xl font-bold text-ink">
        <Trans>404 Page Not Found</Trans>
      </h1>
      <p className="mt-2 text-muted">
        <Trans>Did you forget to add the page to the router?</Trans>
      </p>
      <Button asChild className="mt-6">
        <Link to={paths.home}>
          <Trans>Back to Home</Trans>
        </Link>
      </Button>
    </div>
  );
}
