import type { SessionUser } from '../../src/shared/schemas/auth.ts';

/** A verified student of Stanford, signed in, as GET /api/auth/me gives her to the web app's tests. */
export const ada: SessionUser = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  email: 'ada@stanford.edu',
  username: 'ada',
  fullName: 'Ada Lovelace',
  campus: 'stanford.edu',
  campusName: 'Stanford University',
  profileImage: null,
  isVerified: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  isAdmin: false,
  locale: 'en',
};
