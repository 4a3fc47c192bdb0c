import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Ask } from '#shared/schemas/asks.ts';
import type { Report } from '#shared/schemas/reports.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { Toaster } from '../../../components/ui/toaster.tsx';
import { activateLocale } from '../../../lib/i18n.ts';
import { dismiss } from '../../../lib/toast.ts';
import { AskBoard } from './ask-board.tsx';

// The board's Report: each other student's ask has one (one's own asks none), which opens the Report
// dialog items use, sends the ask, says so in a toast and then that the report is being reviewed; a
// refusal from the server is a toast with its words.

const ME = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const anAsk = (overrides: Partial<Ask>): Ask => ({
  id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  title: 'Party speaker',
  category: 'electronics',
  note: 'For a birthday on Saturday.',
  startDate: '2026-12-05',
  endDate: '2026-12-06',
  maxPrice: '10.00',
  status: 'open',
  closeReason: null,
  expired: false,
  author: { firstName: 'Rosa', campusName: 'Stanford University' },
  mine: false,
  offerCount: 0,
  offers: [],
  createdAt: '2026-11-28T18:00:00.000Z',
  ...overrides,
});

const theirs = anAsk({});
const mine = anAsk({ id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5', title: 'Desk lamp', mine: true });

const filed: Report = {
  id: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
  reportedUserId: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  reportedItemId: null,
  reportedAskId: theirs.id,
  reason: 'inappropriate',
  description: 'Asks for something nobody may lend.',
  status: 'pending',
  reviewedAt: null,
  createdAt: '2026-11-29T10:00:00.000Z',
};

function showBoard(answers: { report: () => { status?: number; body: unknown }; mine?: Report[] }) {
  let reports: Report[] = answers.mine ?? [];
  const api = stubApi({
    '/api/asks': { body: { asks: [mine, theirs] } },
    '/api/asks?mine=true': { body: { asks: [mine] } },
    'GET /api/reports': () => ({ body: { reports } }),
    'POST /api/reports': () => {
      const answer = answers.report();
      if ((answer.status ?? 200) < 300) reports = [filed];
      return answer;
    },
  });
  renderWithApi(
    <>
      <AskBoard userId={ME} />
      <Toaster />
    </>,
  );
  return api;
}

async function fillReport() {
  fireEvent.click(await screen.findByRole('button', { name: 'Report “Party speaker”' }));
  const dialog = await screen.findByRole('dialog', { name: 'Report Ask' });
  // The form arrives with its own script: its first load, transformed on a busy machine, takes seconds.
  const reason = await within(dialog).findByLabelText('Reason', {}, { timeout: 15_000 });
  fireEvent.change(reason, { target: { value: 'inappropriate' } });
  expect(dialog.textContent).toContain("Tell us what's wrong with the ask Party speaker.");
  fireEvent.change(within(dialog).getByLabelText('Description'), {
    target: { value: 'Asks for something nobody may lend.' },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Report' }));
  return dialog;
}

afterEach(async () => {
  act(() => dismiss());
  cleanup();
  vi.unstubAllGlobals();
  await activateLocale('en');
});

// Each test walks through a dialog or two (and the lazily loaded Report form): on the shared 2-core
// machine under load that took over the default 5 s.
describe('reporting an ask from the board', { timeout: 20_000 }, () => {
  it("offers Report on another student's ask only, and sends the ask", async () => {
    const api = showBoard({ report: () => ({ status: 201, body: { report: filed } }) });
    const campus = await screen.findByRole('region', { name: 'Asked on your campus' });
    const card = (await within(campus).findByRole('heading', { name: 'Party speaker' })).closest('li')!;
    expect(within(card as HTMLElement).getByRole('button', { name: 'Report “Party speaker”' })).toBeTruthy();
    const own = screen.getByRole('region', { name: 'Your asks' });
    expect(within(own).queryByRole('button', { name: /Report/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Report/ })).toHaveLength(1);

    const dialog = await fillReport();
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/api/reports',
        body: {
          reason: 'inappropriate',
          description: 'Asks for something nobody may lend.',
          reportedAskId: theirs.id,
        },
      },
    ]);
    await screen.findByText('Report submitted successfully');
    await screen.findByText('You reported this ask. Our team is reviewing it.');
    expect(screen.queryByRole('button', { name: 'Report “Party speaker”' })).toBeNull();
  });

  it("says the server's refusal in a toast", async () => {
    showBoard({
      report: () => ({
        status: 404,
        body: { code: 'NOT_FOUND', message: 'Ask not found.' },
      }),
    });
    const dialog = await fillReport();
    await screen.findByText('Failed to submit report');
    expect(screen.getByText('Ask not found.')).toBeTruthy();
    // The dialog stays open: the report can be sent again.
    expect(dialog.isConnected).toBe(true);
  });

  it('an open report of the ask replaces the button with a note, and a report of the asker does not', async () => {
    showBoard({
      report: () => ({ status: 201, body: { report: filed } }),
      mine: [{ ...filed, reportedAskId: null, reportedUserId: filed.reportedUserId }],
    });
    // A report of the person is not a report of the ask.
    await screen.findByRole('button', { name: 'Report “Party speaker”' });
    cleanup();
    showBoard({ report: () => ({ status: 201, body: { report: filed } }), mine: [filed] });
    await screen.findByText('You reported this ask. Our team is reviewing it.');
    expect(screen.queryByRole('button', { name: /^Report/ })).toBeNull();
  });

  it('reads in Spanish', async () => {
    await activateLocale('es');
    showBoard({ report: () => ({ status: 201, body: { report: filed } }) });
    const button = await screen.findByRole('button', { name: 'Reportar “Party speaker”' });
    expect(button.textContent).toBe('Reportar');
    fireEvent.click(button);
    await screen.findByRole('dialog', { name: 'Reportar petición' });
  });
});
