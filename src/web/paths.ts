import { SUPPORT_EMAIL_ADDRESS } from '#shared/constants.ts';

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
  /** Account settings: profile, photo, password, e-mail, e-mail choices, sessions (decision 022). */
  settings: '/settings',
  /** "Download my data" and "Delete my account" (decision 023). */
  settingsData: '/settings/data',
  /** The page an e-mail change link opens (`?token=…`). */
  confirmEmail: '/confirm-email',
  billingHistory: '/billing-history',
  /** A lender's earnings: what was sent to their Stripe account and what is on its way (decision 056). */
  earnings: '/earnings',
  /** Settings, at "Get paid": where a lender sets up payouts. */
  getPaid: '/settings#get-paid',
  paymentMethods: '/payment-methods',
  reservations: '/reservations',
  /** My Reservations with that reservation's card in view and its review dialog open (a review's link). */
  reviewReservation: (id: string) => `/reservations?review=${encodeURIComponent(id)}`,
  /** My Reservations on the reservation's tab with its card in view (a toast's 'View'). */
  reservation: (id: string) => `/reservations?reservation=${encodeURIComponent(id)}`,
  browse: '/browse',
  listItem: '/list-item',
  /** The page a verification e-mail's link opens (`?token=…`). */
  verifyEmail: '/verify-email',
  impact: '/impact',
  /** The "Asked for" board of the student's campus (decision 066). */
  asks: '/asks',
  /** The board with the Ask form open, its "What do you need?" filled in when given. */
  askCampus: (title?: string, category?: string) => {
    const search = new URLSearchParams({ ask: '1' });
    if (title?.trim()) search.set('title', title.trim());
    if (category) search.set('category', category);
    return `/asks?${search.toString()}`;
  },
  /** The List form filled in from an ask; saving it offers the new item for that ask. */
  listForAsk: (ask: { id: string; title: string; category: string }) =>
    `/list-item?${new URLSearchParams({ ask: ask.id, title: ask.title, category: ask.category }).toString()}`,
  item: (id: string) => `/item/${id}`,
  /**
   * The item page with its Reserve dialog open (where 'Login to Reserve' returns), on these dates when
   * given (dates a waitlist said are free).
   */
  reserveItem: (id: string, dates?: { startDate: string; endDate: string }) =>
    dates
      ? `/item/${id}?reserve=1&start=${encodeURIComponent(dates.startDate)}&end=${encodeURIComponent(dates.endDate)}`
      : `/item/${id}?reserve=1`,
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
  /** Moderators: payments that need a person (decision 012). */
  adminPayments: '/admin/payments',
  adminClaims: '/admin/claims',
} as const;

/** The impact dashboard, showing the given campus (without one: the viewer's, or the visitors' default). */
export function impactPath(campus?: string): string {
  return campus ? `/impact?campus=${encodeURIComponent(campus)}` : '/impact';
}

/**
 * /browse with a search already typed (spec §2 Home: only non-blank text searches), on `campus` when
 * given: the campus Home showed, so Browse does not switch to another one behind the student's back.
 */
export function browseSearch(q: string, campus?: string): string {
  const onCampus = campus ? `&campus=${encodeURIComponent(campus)}` : '';
  return `/browse?q=${encodeURIComponent(q.trim())}${onCampus}`;
}

/**
 * /browse on one campus (a domain) or 'all', in `category` when given (the campus and category live in
 * the address bar, so a link keeps them).
 */
export function browseCampus(campus: string, category?: string): string {
  const inCategory = category ? `&category=${encodeURIComponent(category)}` : '';
  return `/browse?campus=${encodeURIComponent(campus)}${inCategory}`;
}

/** /browse showing a saved search: its words and filters, on the student's own campus. */
export function browseSavedSearch(search: {
  searchQuery: string;
  category: string | null;
  maxPrice: string | null;
  freeOnly: boolean;
}): string {
  const params = new URLSearchParams({ q: search.searchQuery });
  if (search.category) params.set('category', search.category);
  if (search.maxPrice !== null) params.set('max', String(Number(search.maxPrice)));
  if (search.freeOnly) params.set('free', '1');
  return `/browse?${params}`;
}

export const SUPPORT_EMAIL = SUPPORT_EMAIL_ADDRESS;
export const SUPPORT_PHONE = '+1 (650) 555-0142';
export const SUPPORT_PHONE_HREF = 'tel:+16505550142';
