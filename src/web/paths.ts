// The one table of the app's routes; links are built from it, never typed as strings.

export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  /** Asks for a password reset link by e-mail. */
  forgotPassword: '/forgot-password',
  /** The page a password reset e-mail's link opens (`?token=…`). */
  resetPassword: '/reset-password',
  about: '/about',
  safety: '/safety',
  privacy: '/privacy',
  terms: '/terms',
  contact: '/contact',
  help: '/help',
  stories: '/stories',
  partners: '/partners',
  notifications: '/notifications',
  billingHistory: '/billing-history',
  paymentMethods: '/payment-methods',
  reservations: '/reservations',
  /** My Reservations with that reservation's card in view and its review dialog open (issue 6). */
  reviewReservation: (id: string) => `/reservations?review=${encodeURIComponent(id)}`,
  browse: '/browse',
  listItem: '/list-item',
  /** The page a verification e-mail's link opens (`?token=…`). */
  verifyEmail: '/verify-email',
  impact: '/impact',
  item: (id: string) => `/item/${id}`,
  editItem: (id: string) => `/edit-item/${id}`,
  /** Without an id: the signed-in person's own profile. */
  /** With an id: that conversation preselected (spec §2 Chat). */
  chat: (id?: string) => (id ? `/chat?conversation=${encodeURIComponent(id)}` : '/chat'),
  profile: (id?: string) => (id ? `/profile/${id}` : '/profile'),
  /** The moderators' report queue, optionally on a status tab with one report open. */
  admin: (options: { status?: string; report?: string } = {}) => {
    const search = new URLSearchParams();
    if (options.status && options.status !== 'pending') search.set('status', options.status);
    if (options.report) search.set('report', options.report);
    const text = search.toString();
    return text ? `/admin?${text}` : '/admin';
  },
  /** Moderators: payments that need a person (issue 12). */
  adminPayments: '/admin/payments',
} as const;

/** The impact dashboard, showing the given campus (without one: the viewer's, or the visitors' default). */
export function impactPath(campus?: string): string {
  return campus ? `/impact?campus=${encodeURIComponent(campus)}` : '/impact';
}

/** /browse with a search already typed (spec §2 Home: only non-blank text searches). */
export function browseSearch(q: string): string {
  return `/browse?q=${encodeURIComponent(q.trim())}`;
}

export const SUPPORT_EMAIL = 'support@campusloop.app';
export const SUPPORT_PHONE = '+1 (650) 555-0142';
export const SUPPORT_PHONE_HREF = 'tel:+16505550142';
