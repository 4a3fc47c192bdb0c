import { Link } from 'react-router';
import { Logo } from '../components/layout/logo.tsx';
import { Button } from '../components/ui/button.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

/** Spec §2: any other path. */
export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center px-4 py-20 text-center">
      <Logo withText={false} />
      <h1 className="mt-4 text-3xl font-bold text-ink">404 Page Not Found</h1>
      <p className="mt-2 text-muted">Did you forget to add the page to the router?</p>
      <Button asChild className="mt-6">
        <Link to={paths.home}>Back to Home</Link>
      </Button>
    </div>
  );
}
