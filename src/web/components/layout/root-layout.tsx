import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { VerifyEmailBanner } from '../../features/email-verification/components/verify-email-banner.tsx';
import { LiveSocketProvider } from '../../features/live/live-socket.tsx';
import { Toaster } from '../ui/toaster.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { MobileBar } from './mobile-bar.tsx';
import { PagePlaceholder } from './page-placeholder.tsx';

export function RootLayout() {
  return (
    <LiveSocketProvider>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to content
        </a>
        <Header />
        <VerifyEmailBanner />
        <main id="main" className="flex-1 pb-16 md:pb-0">
          <Suspense fallback={<PagePlaceholder />}>
            <Outlet />
          </Suspense>
        </main>
        <Footer />
        <MobileBar />
        <Toaster />
        <ScrollRestoration />
      </div>
    </LiveSocketProvider>
  );
}
