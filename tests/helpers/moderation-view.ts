import type { ModeratedUser } from '#shared/schemas/moderation.ts';

// What the moderators' API answers about people, for component tests of the report panel.

/** The reported person as a moderator sees them: a verified Stanford student since September 2025. */
export function aModeratedUser(
  person: { id: string; fullName: string; username: string },
  email: string,
): ModeratedUser {
  return {
    ...person,
    email,
    campusName: 'Stanford University',
    profileImage: null,
    isVerified: true,
    suspendedAt: null,
    deletedAt: null,
    createdAt: '2025-09-01T18:00:00.000Z',
  };
}
