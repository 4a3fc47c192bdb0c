import { Trans } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { PagePlaceholder } from '../components/layout/page-placeholder.tsx';
import { VerifyEmailBanner } from '../features/email-verification/components/verify-email-banner.tsx';
import { LiveSocketProvider } from '../features/live/live-socket.tsx';
import { ScrollRestoration } from '../lib/scroll-restoration.tsx';
import { useToasts } from '../lib/toast.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { MobileBar } from './mobile-bar.tsx';

const Toaster = lazy(() => import('../components/ui/toaster.tsx').then((m) => ({ default: m.Toaster })));

/**
 * The toast area, loaded with the first toast and kept from then on: no page needs it to show, so its
 * code (Radix Toast and friends, about 9 KB gzip) stays out of every first load.
 * The toast store holds the toast meanwhile; it appears as soon as the chunk arrives.
 */
function DeferredToaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function RootLayout() {
  return (
    <LiveSocketProvider>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:start-4 focus:top-4"
        >
          <Trans>Skip to content</Trans>
        </a>
        <Header />
        <VerifyEmailBanner />
        {/* At least a screen tall: the footer starts below the fold and stays there while
            a page loads, instead of showing under the header and jumping down when the content comes
            (a layout shift of 0.18 to 0.42 before). */}
        <main id="main" className="min-h-dvh flex-1 pb-16 md:pb-0">
          <Suspense fallback={<PagePlaceholder />}>
            <Outlet />
          </Suspense>
        </main>
        <Footer />
        <MobileBar />
        <DeferredToaster />
        <ScrollRestoration />
      </div>
    </LiveSocketProvider>
  );
}
