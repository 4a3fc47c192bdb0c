import type { SessionUser } from '#shared/schemas/auth.ts';

/**
 * A live session as the sessions cache keeps it for a token: its person, as the app sees them, when it
 * ends and when it was last used. The auth feature finds it (resumeSession); the cache only holds it.
 */
export interface LiveSession {
  user: SessionUser;
  expiresAt: Date;
  lastUsedAt: Date;
}
