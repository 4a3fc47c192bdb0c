import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api.ts';

// Decision 039: each action sends its own Idempotency-Key, and the same one when the client asks again
// after a lost answer, so the server does it once and the retry gets the first answer.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function keysSent(fetch: ReturnType<typeof vi.fn>): (string | undefined)[] {
  return fetch.mock.calls.map(
    ([, init]) => (init?.headers as Record<string, string> | undefined)?.['idempotency-key'],
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  it('asks again with the same key after a lost answer and a 503, and takes the answer that comes', async () => {
    const fetch = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(json(503, { message: 'Try again.', code: 'SERVICE_UNAVAILABLE' }))
      .mockResolvedValueOnce(json(200, { reservation: { status: 'cancelled' } }));
    vi.stubGlobal('fetch', fetch);
    await expect(api.put('/api/reservations/r1', { status: 'cancelled' })).resolves.toEqual({
      reservation: { status: 'cancelled' },
    });
    const keys = keysSent(fetch);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('gives each action its own key, and none to reads', async () => {
    const fetch = vi.fn().mockImplementation(async () => json(200, { ok: true }));
    vi.stubGlobal('fetch', fetch);
    await api.post('/api/reservations/r1/approve');
    await api.post('/api/reservations/r1/approve');
    await api.get('/api/reservations');
    const keys = keysSent(fetch);
    expect(keys[0]).toBeDefined();
    expect(keys[1]).toBeDefined();
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBeUndefined();
  });

  it('does not ask again after a refusal (a 409 that is not "still being processed")', async () => {
    const fetch = vi.fn().mockResolvedValue(json(409, { message: 'Already cancelled.', code: 'CONFLICT' }));
    vi.stubGlobal('fetch', fetch);
    const error = await api.put('/api/reservations/r1', { status: 'cancelled' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
