import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { publicRoutes } from '../../src/server/http/route-scopes.ts';
import { createSignedInUser, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

/** Every route the app registers, as Fastify saw it. */
const routes: RouteOptions[] = [];
const t = setupTestApp(
  { cookieSecure: true, appOrigins: ['http://localhost:5173'] },
  { onRoute: (route) => routes.push(route) },
);

describe('security from the start', () => {
  it('sends a Content-Security-Policy that allows no inline script, and the other helmet headers', async () => {
    const response = await t.get('/api/health');
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeDefined();
  });

  it('lets photos load from the bucket when S3 storage is configured', async () => {
    const app = await buildApp({
      config: testConfig({
        webDir: '/nonexistent',
        s3: {
          bucket: 'photos',
          region: 'auto',
          endpoint: undefined,
          forcePathStyle: false,
          publicUrl: 'https://cdn.example.com/photos',
          credentials: undefined,
        },
      }),
      database: t.database,
      logger: false,
    });
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain(
      "img-src 'self' data: blob: https://cdn.example.com",
    );
    await app.close();
  });

  it('refuses a mutating request from another origin or with no origin, and changes nothing', async () => {
    const evil = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'a@stanford.edu', password: 'x' },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toMatchObject({ code: 'CROSS_ORIGIN' });

    const none = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: {} });
    expect(none.statusCode).toBe(403);
  });

  it('accepts a configured extra origin (the dev server)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'http://localhost:5173' },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
  });

  it('lets only the signed Stripe webhooks and the signed unsubscribe link out of the same-origin rule', async () => {
    // A route opts out with `config: { sameOrigin: false }`; each one must prove its caller otherwise: the
    // webhooks by Stripe's signature, the one-click unsubscribe (RFC 8058) by its HMAC token.
    const optedOut = routes.filter((route) => route.config?.sameOrigin === false).map((route) => route.url);
    expect(optedOut.sort()).toEqual(['/api/payments/webhook', '/api/unsubscribe', '/api/webhooks/connect']);
    const badToken = await t.request({
      method: 'POST',
      url: '/api/unsubscribe?token=forged.requests.signature',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(badToken.statusCode).toBe(400);
    for (const url of ['/api/payments/webhook', '/api/webhooks/connect']) {
      const fromElsewhere = await t.request({
        method: 'POST',
        url,
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: '{}',
      });
      // Past the origin rule, the missing signature (or secret) refuses it.
      expect(fromElsewhere.statusCode, url).not.toBe(403);
      expect(fromElsewhere.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(fromElsewhere.statusCode, url).toBeLessThan(500);
    }
  });

  it('marks the session cookie Secure when configured for https', async () => {
    // Registering signs nobody in (decision 023); signing in does.
    const user = await createUser(t.database.db);
    const response = await t.post('/api/auth/login', { email: user.email, password: user.password });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'cl_session')!.secure).toBe(true);
  });

  it('answers bad JSON and oversized bodies with a clear 4xx', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The request body is not valid JSON.');

    const big = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@stanford.edu', password: 'x'.repeat(200_000) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await t.get('/api/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('matches API routes case-insensitively', async () => {
    const { cookie } = await createSignedInUser(t.database.db);
    const response = await t.get('/API/Auth/ME', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).not.toBeNull();
  });

  it('hides the internals of a server error', async () => {
    const app = await buildApp({
      config: testConfig({ webDir: '/nonexistent' }),
      database: t.database,
      logger: false,
    });
    // Every /api route belongs to a scope, or the app does not start (src/server/http/route-scopes.ts).
    await app.register(
      publicRoutes(async (api) => {
        api.get('/explode', async () => {
          throw new Error('relation "secret_table" does not exist at /srv/app.ts:12');
        });
      }),
      { prefix: '/api' },
    );
    const response = await app.inject({ method: 'GET', url: '/api/explode' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret_table');
    expect(response.json()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL',
    });
    await app.close();
  });
});
