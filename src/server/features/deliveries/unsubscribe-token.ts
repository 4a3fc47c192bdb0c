import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type EmailKind, isEmailKind } from '#shared/schemas/account.ts';
import type { Db } from '../../db/client.ts';
import * as queries from './queries.ts';

// One-click unsubscribe links (RFC 8058): `<user id>.<kind>.<HMAC-SHA256>`, base64url. Signed, so the
// link works without signing in and nobody can make one for someone else; it does not expire, as
// unsubscribe links must keep working in old e-mails. The key lives in the database (signing_keys).

const KEY_NAME = 'unsubscribe';
const keys = new WeakMap<object, Promise<Buffer>>();

function keyOf(db: Db): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = queries
      .signingKey(db, KEY_NAME, randomBytes(32).toString('base64url'))
      .then((s) => Buffer.from(s, 'base64url'));
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

export async function unsubscribeToken(db: Db, userId: string, kind: EmailKind): Promise<string> {
  const body = `${Buffer.from(userId).toString('base64url')}.${kind}`;
  return `${body}.${mac(await keyOf(db), body)}`;
}

/** The person and kind a token names, or null when it is not one of ours. */
export async function readUnsubscribeToken(
  db: Db,
  token: string,
): Promise<{ userId: string; kind: EmailKind } | null> {
  const [user, kind, signature, ...rest] = token.split('.');
  if (!user || !kind || !signature || rest.length || !isEmailKind(kind)) return null;
  const expected = Buffer.from(mac(await keyOf(db), `${user}.${kind}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId: Buffer.from(user, 'base64url').toString(), kind };
}
