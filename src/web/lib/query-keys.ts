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
