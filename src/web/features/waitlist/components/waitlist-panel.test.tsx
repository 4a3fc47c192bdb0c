import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '#shared/schemas/auth.ts';
import type { WaitlistEntry } from '#shared/schemas/waitlist.ts';
import { renderWithApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { ada } from '../../../../../tests/helpers/session-user.ts';
import { WaitlistPanel } from './waitlist-panel.tsx';

// The item page's waitlist for a student of the item's campus: what they wait for and leaving it,
// "Notify me when available" starting on the booked days, the server's refusal shown with a way to
// reserve, and nothing for the owner or another campus.

const item = {
  id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  title: 'Film camera',
  userId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
  campus: 'stanford.edu',
  isAvailable: true,
};

const waiting: WaitlistEntry = {
  id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  itemId: item.id,
  startDate: '2026-11-27',
  endDate: '2026-11-29',
  status: 'waiting',
  notifiedAt: null,
  createdAt: '2026-11-24T18:00:00.000Z',
};

const waitlistUrl = `/api/items/${item.id}/waitlist`;

/** fetch answered by method and path; the requests are recorded with their bodies. */
function stubFetch(answers: Record<string, (body: unknown) => { status?: number; body: unknown }>) {
  const requests: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const url = String(input);
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      requests.push({ method, url, body });
      const answer = answers[`${method} ${url}`];
      const { status = 200, body: json } = answer
        ? answer(body)
        : { status: 404, body: { message: `No answer for ${method} ${url}` } };
      return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return requests;
}

const session = (user: SessionUser) => () => ({ body: { user } });
const availability = () => ({
  body: {
    today: '2026-11-24',
    availableFrom: '2026-01-01',
    availableUntil: null,
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    booked: [{ startDate: '2026-11-27', endDate: '2026-11-29' }],
  },
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('WaitlistPanel', () => {
  it('shows what the student waits for, and leaving takes it away', async () => {
    let entries = [waiting];
    const requests = stubFetch({
      'GET /api/auth/me': session(ada),
      [`GET ${waitlistUrl}`]: () => ({ body: { entries } }),
      [`DELETE /api/waitlist/${waiting.id}`]: () => {
        entries = [];
        return { body: { success: true } };
      },
    });
    renderWithApi(<WaitlistPanel item={item} />);

    const list = await screen.findByRole('list', { name: 'Your waitlist for this item' });
    expect(within(list).getByText("We'll tell you when Nov 27–29 frees up")).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Leave waitlist for Nov 27–29' }));
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Your waitlist for this item' })).toBeNull(),
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(true);
    expect(screen.getByRole('button', { name: 'Notify me when available' })).toBeTruthy();
  });

  it('a told entry offers its dates to reserve', async () => {
    stubFetch({
      'GET /api/auth/me': session(ada),
      [`GET ${waitlistUrl}`]: () => ({
        body: { entries: [{ ...waiting, status: 'notified', notifiedAt: '2026-11-25T09:00:00.000Z' }] },
      }),
    });
    renderWithApi(<WaitlistPanel item={item} />);
    expect(await screen.findByText('Nov 27–29 is free now')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reserve these dates' }).getAttribute('href')).toBe(
      `/item/${item.id}?reserve=1&start=2026-11-27&end=2026-11-29`,
    );
  });

  it('told dates the student has since requested are not offered again', async () => {
    const told = { ...waiting, status: 'notified' as const, notifiedAt: '2026-11-25T09:00:00.000Z' };
    const other = {
      ...told,
      id: '1d2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6',
      startDate: '2026-12-04',
      endDate: '2026-12-05',
    };
    stubFetch({
      'GET /api/auth/me': session(ada),
      [`GET ${waitlistUrl}`]: () => ({ body: { entries: [told, other] } }),
      'GET /api/reservations': () => ({
        body: {
          reservations: [
            {
              itemId: item.id,
              borrowerId: ada.id,
              status: 'pending',
              startDate: told.startDate,
              endDate: told.endDate,
            },
          ],
        },
      }),
    });
    renderWithApi(<WaitlistPanel item={item} />);
    expect(await screen.findByText('Dec 4–5 is free now')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Nov 27–29 is free now')).toBeNull());
  });

  it('"Notify me" starts on the booked days, sends them, and shows a refusal with a way to reserve', async () => {
    let answer: { status?: number; body: unknown } = { status: 201, body: { entry: waiting } };
    const requests = stubFetch({
      'GET /api/auth/me': session(ada),
      [`GET ${waitlistUrl}`]: () => ({ body: { entries: [] } }),
      [`GET /api/items/${item.id}/availability`]: availability,
      [`POST ${waitlistUrl}`]: () => answer,
    });
    renderWithApi(<WaitlistPanel item={item} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Notify me when available' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notify me when available' });
    const start = within(dialog).getByLabelText('Start date') as HTMLInputElement;
    await waitFor(() => expect(start.value).toBe('2026-11-27'));
    expect((within(dialog).getByLabelText('End date') as HTMLInputElement).value).toBe('2026-11-29');

    answer = {
      status: 409,
      body: { code: 'DATES_AVAILABLE', message: 'Those dates are free: you can reserve them now.' },
    };
    fireEvent.change(start, { target: { value: '2026-12-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Notify me' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Those dates are free: you can reserve them now.');
    expect(within(alert).getByRole('link', { name: 'Reserve them' }).getAttribute('href')).toBe(
      `/item/${item.id}?reserve=1&start=2026-12-01&end=2026-11-29`,
    );

    answer = { status: 201, body: { entry: waiting } };
    fireEvent.change(start, { target: { value: '2026-11-27' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Notify me' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { startDate: '2026-12-01', endDate: '2026-11-29' },
      { startDate: '2026-11-27', endDate: '2026-11-29' },
    ]);
  });

  it('shows nothing to the owner or to a student of another campus', async () => {
    const requests = stubFetch({ 'GET /api/auth/me': session({ ...ada, id: item.userId }) });
    const { container } = renderWithApi(<WaitlistPanel item={item} />);
    await waitFor(() => expect(requests.some((r) => r.url === '/api/auth/me')).toBe(true));
    expect(container.textContent).toBe('');
    cleanup();

    const other = stubFetch({ 'GET /api/auth/me': session({ ...ada, campus: 'berkeley.edu' }) });
    const second = renderWithApi(<WaitlistPanel item={item} />);
    await waitFor(() => expect(other.some((r) => r.url === '/api/auth/me')).toBe(true));
    expect(second.container.textContent).toBe('');
    expect(other.some((r) => r.url === waitlistUrl)).toBe(false);
  });
});
