// The cache keys that a change in one feature makes stale in another: a booking, a review or a moderator's
// action refreshes the notifications and the profiles too. They live below the features so that a feature
// can refresh another's lists without importing it (and two features never import each other for a key).

export const userKeys = {
  all: ['/api/users'] as const,
  detail: (id: string) => ['/api/users', id] as const,
};

export const notificationKeys = {
  all: ['/api/notifications'] as const,
  unread: ['/api/notifications/unread'] as const,
};

/**
 * Every reservation list: the live socket refreshes them when a notice names a booking. Here rather than
 * only in the reservations feature, whose public face also offers its components (the reserve dialog,
 * card payment with Stripe, zod's schemas): importing it from the app shell put all of that into the
 * first script of every page.
 */
export const reservationListKey = ['/api/reservations'] as const;
