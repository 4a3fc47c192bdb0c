import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '../../src/web/lib/query-client.ts';

// Component tests of screens that fetch: the app's query client and router around the screen, and
// fetch answered from a table of paths ('/api/x', any method) or of a method and path ('POST /api/x'),
// the second first. An answer may be a function, to change it during a test.

export type Answer = { status?: number; body: unknown } | (() => { status?: number; body: unknown });

export function stubApi(answers: Record<string, Answer>) {
  const calls: string[] = [];
  /** Every request with its method and JSON body, for tests of what a form sends. */
  const requests: { method: string; url: string; body: unknown }[] = [];
  /** Requests that wait until the test lets them go. */
  const held = new Map<string, () => void>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push(url);
    requests.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (holding.has(url)) await new Promise<void>((resolve) => held.set(url, resolve));
    const answer = answers[`${method} ${url}`] ?? answers[url];
    if (!answer) return new Response(JSON.stringify({ message: `No answer for ${url}` }), { status: 404 });
    const { status = 200, body } = typeof answer === 'function' ? answer() : answer;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  const holding = new Set<string>();
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    requests,
    /** Keeps requests to `url` waiting (to see loading states) until `release(url)`. */
    hold: (url: string) => holding.add(url),
    release: (url: string) => {
      holding.delete(url);
      held.get(url)?.();
    },
  };
}

export function renderWithApi(ui: ReactNode, initialEntry = '/', queryClient = createQueryClient()) {
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[initialEntry]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}
