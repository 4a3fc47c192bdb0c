import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { Logo } from '../components/layout/logo.tsx';
import { headerNav, navFor } from '../components/layout/navigation.ts';
import { Button } from '../components/ui/button.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { cn } from '../lib/cn.ts';
import { paths } from '../paths.ts';

// Loaded only when someone is signed in: a visitor's Home needs none of it (docs/performance.md).
const SignedInControls = lazy(() => import('./signed-in-controls.tsx'));

export function Header() {
  const { user, isLoading } = useSession();
  const { t, i18n } = useLingui();
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4">
        <Link to={paths.home} aria-label={t`CampusLoop home`} className="rounded-lg">
          <Logo />
        </Link>
        <nav aria-label={t`Main`} className="ms-4 hidden items-center gap-1 md:flex">
          {navFor(headerNav, Boolean(user)).map((entry) => (
            <NavLink
              key={entry.to}
              to={entry.to}
              className={({ isActive }) =>
                cn(
                  'rounded-lg px-3 py-2 text-sm font-semibold',
                  isActive ? 'bg-brand-50 text-brand-800' : 'text-stone-700 hover:bg-stone-100',
                )
              }
            >
              {i18n._(entry.label)}
            </NavLink>
          ))}
        </nav>
        <div className="ms-auto flex items-center gap-2">
          {isLoading ? (
            <Skeleton className="h-9 w-24" />
          ) : user ? (
            <Suspense fallback={<Skeleton className="h-9 w-24" />}>
              <SignedInControls user={user} />
            </Suspense>
          ) : (
            <>
              {/* On phones the bottom bar carries Sign In. */}
              <span className="hidden sm:block">
                <Button asChild variant="ghost" size="sm">
                  <Link to={paths.login}>
                    <Trans>Sign In</Trans>
                  </Link>
                </Button>
              </span>
              <Button asChild size="sm">
                <Link to={paths.register}>
                  <Trans>Join Now</Trans>
                </Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
