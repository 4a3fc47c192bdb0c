import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportDetail, ReportQueue, ReportSummary } from '#shared/schemas/moderation.ts';
import { aModeratedUser } from '../../../../../tests/helpers/moderation-view.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { Toaster } from '../../../components/ui/toaster.tsx';
import { activateLocale } from '../../../lib/i18n.ts';
import { dismiss } from '../../../lib/toast.ts';
import { ReportDetailPanel } from './report-detail.tsx';
import { ReportQueueList } from './report-queue.tsx';

// A report of an ask in the moderators' queue: the row names the ask and its asker's first name; the
// open report shows the ask with a link to the board, and "Hide ask" asks first, then sends the
// moderator's note with the report; a hidden ask's "Unhide ask" sends it back.

const reporter = { id: '00000000-0000-4000-8000-000000000001', fullName: 'Jordan Lee', username: 'jordan' };
const asker = { id: '00000000-0000-4000-8000-000000000003', fullName: 'Rosa María Díaz', username: 'rosa' };
const askId = '00000000-0000-4000-8000-0000000000aa';
const reportId = '00000000-0000-4000-8000-0000000000bb';

const summary = (hidden: boolean): ReportSummary => ({
  id: reportId,
  reason: 'inappropriate',
  description: 'Asks for something nobody may lend.',
  status: 'pending',
  createdAt: '2026-03-05T20:00:00.000Z',
  reviewedAt: null,
  reporter,
  target: {
    kind: 'ask',
    ask: { id: askId, title: 'Party speaker', askerFirstName: 'Rosa', hidden },
    user: { ...asker, suspended: false, deleted: false },
  },
});

const detail = (
  hiddenAt: string | null,
  changes: Partial<ReportDetail['ask'] & object> = {},
): ReportDetail => ({
  report: { ...summary(hiddenAt !== null), adminNotes: null, reviewedBy: null },
  item: null,
  ask: {
    id: askId,
    title: 'Party speaker',
    note: 'For a birthday on Saturday.',
    status: 'open',
    askerFirstName: 'Rosa',
    startDate: '2026-03-07',
    endDate: '2026-03-08',
    hiddenAt,
    createdAt: '2026-03-05T18:00:00.000Z',
    ...changes,
  },
  user: aModeratedUser(asker, 'rosa@stanford.edu'),
  otherReports: [],
  history: [],
});

const queue: ReportQueue = {
  reports: [summary(false)],
  total: 1,
  page: 1,
  limit: 20,
  hasMore: false,
  counts: { pending: 1, resolved: 0, dismissed: 0, all: 1 },
  ownCases: { withheld: 0, otherModerator: true },
};

afterEach(async () => {
  act(() => dismiss());
  cleanup();
  vi.unstubAllGlobals();
  await activateLocale('en');
});

// Each test walks through a dialog or two (and the lazily loaded Report form): on the shared 2-core
// machine under load that took over the default 5 s.
describe('an ask report for moderators', { timeout: 20_000 }, () => {
  it("the queue's row names the ask and its asker", async () => {
    stubApi({ '/api/admin/reports?status=pending&page=1&limit=20': { body: queue } });
    renderWithApi(<ReportQueueList status="pending" />);
    const row = await screen.findByRole('link', { name: /Party speaker/ });
    expect(row.textContent).toContain('Ask: Party speaker · asked by Rosa');
    expect(row.getAttribute('href')).toBe(`/admin?report=${reportId}`);
  });

  it('shows the ask with a link to the board, and hides it with the note after a confirmation', async () => {
    let hiddenAt: string | null = null;
    const api = stubApi({
      [`/api/admin/reports/${reportId}`]: () => ({ body: detail(hiddenAt) }),
      [`POST /api/admin/asks/${askId}/hide`]: () => {
        hiddenAt = '2026-03-06T18:00:00.000Z';
        return { body: { ask: detail(hiddenAt).ask } };
      },
    });
    renderWithApi(
      <>
        <ReportDetailPanel reportId={reportId} backTo="/admin" />
        <Toaster />
      </>,
    );
    const panel = await screen.findByRole('region', { name: 'Selected report' });
    expect(within(panel).getByRole('heading', { level: 2 }).textContent).toContain(
      'Party speaker · asked by Rosa',
    );
    const board = within(panel).getByRole('link', { name: /Party speaker/ });
    expect(board.getAttribute('href')).toBe('/asks');
    expect(panel.textContent).toMatch(/Asked .+ by Rosa · for Mar 7–8/);
    expect(panel.textContent).toContain('For a birthday on Saturday.');
    expect(within(panel).getByRole('heading', { name: 'Asker' })).toBeTruthy();

    fireEvent.change(within(panel).getByLabelText('Moderator notes'), {
      target: { value: 'Not something one may lend.' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Hide ask' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Hide “Party speaker”?' });
    expect(confirm.textContent).toContain('You can unhide it later.');
    expect(confirm.textContent).not.toContain('cannot be undone');
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Hide ask' }));

    await screen.findByText('Ask hidden');
    await waitFor(() => expect(panel.textContent).toContain('Hidden since Mar 6, 2026'));
    expect(within(panel).queryByRole('button', { name: 'Hide ask' })).toBeNull();
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: `/api/admin/asks/${askId}/hide`,
        body: { reportId, note: 'Not something one may lend.' },
      },
    ]);
  });

  it.each([
    ['back on the board', {}, 'It is back on the campus board. The asker has been notified.'],
    [
      'closed',
      { status: 'closed' as const },
      'It is no longer hidden, but stays off the campus board: it is closed. The asker has been notified.',
    ],
    [
      'past its dates',
      { startDate: '2020-03-07', endDate: '2020-03-08' },
      'It is no longer hidden, but stays off the campus board: its dates have passed. The asker has been notified.',
    ],
  ])(
    'unhides a hidden ask with the note, the toast saying where it is (%s)',
    async (_case, changes, said) => {
      // An open ask's days are ahead of whatever day the test runs on.
      const ask = { startDate: '2099-03-07', endDate: '2099-03-08', ...changes };
      let hiddenAt: string | null = '2026-03-06T18:00:00.000Z';
      const api = stubApi({
        [`/api/admin/reports/${reportId}`]: () => ({ body: detail(hiddenAt, ask) }),
        [`POST /api/admin/asks/${askId}/unhide`]: () => {
          hiddenAt = null;
          return { body: { ask: detail(hiddenAt, ask).ask } };
        },
      });
      renderWithApi(
        <>
          <ReportDetailPanel reportId={reportId} backTo="/admin" />
          <Toaster />
        </>,
      );
      const panel = await screen.findByRole('region', { name: 'Selected report' });
      await waitFor(() => expect(panel.textContent).toContain('Hidden since Mar 6, 2026'));
      expect(within(panel).queryByRole('button', { name: 'Hide ask' })).toBeNull();
      fireEvent.change(within(panel).getByLabelText('Moderator notes'), {
        target: { value: 'Hidden by mistake.' },
      });
      fireEvent.click(within(panel).getByRole('button', { name: 'Unhide ask' }));

      await screen.findByText('Ask visible again');
      expect(screen.getByText(said)).toBeTruthy();
      await waitFor(() => expect(panel.textContent).not.toContain('Hidden since'));
      expect(within(panel).queryByRole('button', { name: 'Unhide ask' })).toBeNull();
      expect(api.requests.filter((r) => r.method === 'POST')).toEqual([
        {
          method: 'POST',
          url: `/api/admin/asks/${askId}/unhide`,
          body: { reportId, note: 'Hidden by mistake.' },
        },
      ]);
    },
  );

  it('reads in Spanish', async () => {
    await activateLocale('es');
    stubApi({ [`/api/admin/reports/${reportId}`]: { body: detail('2026-03-06T18:00:00.000Z') } });
    renderWithApi(<ReportDetailPanel reportId={reportId} backTo="/admin" />);
    const panel = await screen.findByRole('region');
    await waitFor(() => expect(panel.textContent).toContain('Petición reportada'));
    expect(panel.textContent).toContain('pedida por Rosa');
    expect(panel.textContent).toContain('Oculta desde el 6 mar 2026');
    expect(within(panel).getByRole('button', { name: 'Volver a mostrar la petición' })).toBeTruthy();
    expect(panel.textContent).toContain('Quien la pidió');
  });
});
