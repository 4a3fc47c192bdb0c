import { hash, verify } from '@node-rs/argon2';

/** Argon2id in @node-rs/argon2's (const enum) Algorithm numbering. */
const ARGON2ID = 2;

// argon2id with the library's defaults (OWASP's current recommendation; about 9 ms a hash here).

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of nothing in particular: verified against when the e-mail is unknown, so a wrong e-mail
 * takes as long as a wrong password and timing does not reveal who has an account.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('not-a-real-password-0f8a');
  return decoy;
}
