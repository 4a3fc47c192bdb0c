import { lazy } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import HomePage from './routes/home.tsx';
import { RootLayout } from './shell/root-layout.tsx';

// Spec §2 route table. Home loads with the app; every other page is its own chunk. React Router
// matches paths case-insensitively, as the spec asks (/ABOUT opens About). The browser renders this
// table in its <BrowserRouter> (main.tsx), the server in a <StaticRouter> for the pages it renders
// (entry-server.tsx): the same component on both sides, so hydration finds the same tree. Plain
// routes, not the data router's (createBrowserRouter): the app has no loaders or actions, and the
// data router is a third of React Router's code (docs/performance.md, "The first script").

const page = (load: () => Promise<{ default: React.ComponentType }>) => {
  const Component = lazy(load);
  return <Component />;
};

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/login', element: page(() => import('./routes/login.tsx')) },
      { path: '/register', element: page(() => import('./routes/register.tsx')) },
      { path: '/verify-email', element: page(() => import('./routes/verify-email.tsx')) },
      { path: '/forgot-password', element: page(() => import('./routes/forgot-password.tsx')) },
      { path: '/reset-password', element: page(() => import('./routes/reset-password.tsx')) },
      { path: '/browse', element: page(() => import('./routes/browse.tsx')) },
      { path: '/item/:id', element: page(() => import('./routes/item-detail.tsx')) },
      { path: '/list-item', element: page(() => import('./routes/list-item.tsx')) },
      { path: '/edit-item/:id', element: page(() => import('./routes/edit-item.tsx')) },
      { path: '/profile/:id?', element: page(() => import('./routes/profile.tsx')) },
      { path: '/impact', element: page(() => import('./routes/impact.tsx')) },
      { path: '/asks', element: page(() => import('./routes/asks.tsx')) },
      { path: '/chat', element: page(() => import('./routes/chat.tsx')) },
      { path: '/notifications', element: page(() => import('./routes/notifications.tsx')) },
      { path: '/settings', element: page(() => import('./routes/settings.tsx')) },
      { path: '/settings/data', element: page(() => import('./routes/settings-data.tsx')) },
      { path: '/confirm-email', element: page(() => import('./routes/confirm-email.tsx')) },
      { path: '/billing-history', element: page(() => import('./routes/billing-history.tsx')) },
      { path: '/earnings', element: page(() => import('./routes/earnings.tsx')) },
      { path: '/payment-methods', element: page(() => import('./routes/payment-methods.tsx')) },
      { path: '/reservations', element: page(() => import('./routes/reservations.tsx')) },
      // The built-in test provider's 3-D Secure page (the card issuer's, with Stripe).
      { path: '/payments/test/authenticate', element: page(() => import('./routes/test-bank.tsx')) },
      { path: '/payouts/test/onboarding', element: page(() => import('./routes/test-onboarding.tsx')) },
      { path: '/admin', element: page(() => import('./routes/admin.tsx')) },
      { path: '/admin/payments', element: page(() => import('./routes/admin-payments.tsx')) },
      { path: '/admin/claims', element: page(() => import('./routes/admin-claims.tsx')) },
      { path: '/about', element: page(() => import('./routes/about.tsx')) },
      { path: '/safety', element: page(() => import('./routes/safety.tsx')) },
      { path: '/privacy', element: page(() => import('./routes/privacy.tsx')) },
      { path: '/terms', element: page(() => import('./routes/terms.tsx')) },
      { path: '/contact', element: page(() => import('./routes/contact.tsx')) },
      { path: '/help', element: page(() => import('./routes/help.tsx')) },
      { path: '/stories', element: page(() => import('./routes/stories.tsx')) },
      { path: '/partners', element: page(() => import('./routes/partners.tsx')) },
      { path: '*', element: page(() => import('./routes/not-found.tsx')) },
    ],
  },
];

/** The page the address names, inside the app's shell. */
export function AppRoutes() {
  return useRoutes(routes);
}
