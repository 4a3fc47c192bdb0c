import { createHash, randomBytes } from 'node:crypto';

// Session tokens: 32 random bytes for the cookie; only their SHA-256 is stored, so a
// copy of the database signs nobody in.

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
