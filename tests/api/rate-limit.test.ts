import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp({ authRateLimit: { max: 3, windowMs: 60_000 } });

describe('sign-in and sign-up rate limits', () => {
  it('answers 429 with a message once an IP has used its attempts, and counts routes apart', async () => {
    const attempt = () => t.post('/api/auth/login', { email: 'x@stanford.edu', password: 'wrong-password' });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait a minute and try again.',
    });
    // Registration has its own allowance.
    const register = await t.post('/api/auth/register', {});
    expect(register.statusCode).toBe(400);
  });
});
