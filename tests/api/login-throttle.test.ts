import { describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Sign-in is limited per account as well as per IP. A campus NAT shares one address (so the
// per-IP allowance is loose), and an attacker spreads guesses over many addresses: the per-account
// allowance is what protects a password.

const t = setupTestApp({
  authRateLimit: { max: 100, windowMs: 60_000 },
  loginAccountRateLimit: { max: 3, windowMs: 15 * 60_000 },
});

const login = (email: string, password: string, ip: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

describe('sign-in attempts per account', () => {
  it('stops guesses at one account from many addresses, with Retry-After, and spares other accounts', async () => {
    const victim = await createUser(t.database.db);
    const neighbour = await createUser(t.database.db);
    // The e-mail as typed in any case counts as the same account.
    const spellings = [victim.email, victim.email.toUpperCase(), ` ${victim.email} `];
    for (const [i, email] of spellings.entries()) {
      expect((await login(email, 'wrong-guess', `198.51.100.${i + 1}`)).statusCode).toBe(401);
    }
    const limited = await login(victim.email, 'another-guess', '203.0.113.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many sign-in attempts for this account. Please wait 15 minutes and try again.',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password waits: otherwise the limit would tell a guesser when they are right.
    expect((await login(victim.email, TEST_PASSWORD, '203.0.113.10')).statusCode).toBe(429);

    // Someone else behind the same address signs in as usual.
    expect((await login(neighbour.email, TEST_PASSWORD, '203.0.113.9')).statusCode).toBe(200);
  });

  it('does not count a request that is not a sign-in attempt at all (refused by validation)', async () => {
    const person = await createUser(t.database.db);
    for (let i = 0; i < 5; i++) {
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: person.email },
        remoteAddress: '192.0.2.1',
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await login(person.email, TEST_PASSWORD, '192.0.2.1')).statusCode).toBe(200);
  });
});
