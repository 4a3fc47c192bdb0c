import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campusImpact, leaders, sam } from '../../../../../tests/helpers/impact-fixtures.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { impactKeys, useViewerCampus } from '../api.ts';
import CampusImpactSection from './campus-impact-section.tsx';
import { ImpactNumberRow } from './impact-number-row.tsx';

// Spec §2 Home: the impact row and 'Our Campus Impact' with 'Top Contributors This Week', as Home
// composes them: the viewer's campus, else the one the server offers visitors.

function HomeImpact() {
  const viewer = useViewerCampus();
  const props = { campus: viewer.campus, campusError: viewer.isError, onCampusRetry: viewer.retry };
  return (
    <>
      <ImpactNumberRow {...props} />
      <CampusImpactSection {...props} />
    </>
  );
}

const visitorAnswers = {
  '/api/auth/me': { body: { user: null } },
  '/api/impact': {
    body: {
      defaultCampus: { campus: 'stanford.edu', campusName: 'Stanford University' },
      campuses: [{ campus: 'stanford.edu', campusName: 'Stanford University', itemsShared: 1234 }],
    },
  },
  '/api/impact/stanford.edu': { body: { impact: campusImpact() } },
  '/api/impact/stanford.edu/leaderboard': {
    body: { weekStart: '2026-03-16T07:00:00.000Z', topContributors: leaders },
  },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Home impact sections', () => {
  it('shows a visitor the most active campus’s real figures, displayed as spec §9 says', async () => {
    stubApi(visitorAnswers);
    renderWithApi(<HomeImpact />);
    const row = await screen.findByRole('region', { name: 'Shared so far at Stanford University' });
    // 1234 items; $12,345.50 in whole dollars; 2345.6 kg = 2.3 T; 100 kg = 220 lbs.
    for (const value of ['1,234', '$12,346', '2.3T', '220 lbs']) {
      expect(within(row).getByText(value)).toBeTruthy();
    }
    const section = screen.getByRole('region', { name: 'Our Campus Impact' });
    expect(within(section).getByText('$12,346')).toBeTruthy();
    expect(
      within(section).getByText(/What borrowing instead of buying has saved at Stanford University/),
    ).toBeTruthy();
    expect(
      within(section)
        .getByRole('link', { name: /See the full dashboard/ })
        .getAttribute('href'),
    ).toBe('/impact?campus=stanford.edu');

    const board = within(section).getByRole('heading', { name: 'Top Contributors This Week' }).parentElement!;
    const entries = await within(board).findAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(entries[0]!.textContent).toContain('Rank 1');
    expect(within(entries[0]!).getByRole('link', { name: 'Maya Chen' }).getAttribute('href')).toBe(
      `/profile/${leaders[0]!.userId}`,
    );
    expect(entries[0]!.textContent).toContain('3 items shared · 26.5 kg CO₂ saved');
    expect(entries[0]!.textContent).toContain('2 badges');
    expect(entries[1]!.textContent).toContain('1 item shared · 0.6 kg CO₂ saved');
  });

  it('shows a signed-in student their own campus, without asking for the visitors’ default', async () => {
    const api = stubApi({
      '/api/auth/me': { body: { user: sam } },
      '/api/impact/berkeley.edu': {
        body: {
          impact: campusImpact({ campus: 'berkeley.edu', campusName: sam.campusName, itemsShared: 7 }),
        },
      },
      '/api/impact/berkeley.edu/leaderboard': {
        body: { weekStart: '2026-03-16T07:00:00.000Z', topContributors: [] },
      },
    });
    renderWithApi(<HomeImpact />);
    await screen.findByRole('region', { name: `Shared so far at ${sam.campusName}` });
    expect(api.calls).not.toContain('/api/impact');
    expect(api.calls).toContain('/api/impact/berkeley.edu');
    expect(await screen.findByText(/Nothing has come back yet this week/)).toBeTruthy();
  });

  it('does not ask again for figures the server rendered a moment ago, nor twice for one campus', async () => {
    const api = stubApi(visitorAnswers);
    const queryClient = createQueryClient();
    // As a pre-rendered Home arrives: the campuses are in the cache, fetched just now by the server.
    queryClient.setQueryData(impactKeys.all, visitorAnswers['/api/impact'].body);
    renderWithApi(<HomeImpact />, '/', queryClient);
    await screen.findByRole('region', { name: 'Shared so far at Stanford University' });
    await screen.findAllByRole('listitem');
    expect(api.calls).not.toContain('/api/impact');
    expect(api.calls.filter((call) => call === '/api/impact/stanford.edu')).toHaveLength(1);
    // A section mounting later (Home's lower half is loaded lazily) reads the same answer.
    cleanup();
    renderWithApi(
      <CampusImpactSection campus="stanford.edu" campusError={false} onCampusRetry={() => {}} />,
      '/',
      queryClient,
    );
    await screen.findByRole('region', { name: 'Our Campus Impact' });
    expect(api.calls.filter((call) => call === '/api/impact/stanford.edu')).toHaveLength(1);
  });

  it('shows placeholders while loading', async () => {
    const api = stubApi(visitorAnswers);
    api.hold('/api/impact/stanford.edu');
    api.hold('/api/impact/stanford.edu/leaderboard');
    renderWithApi(<HomeImpact />);
    await waitFor(() => expect(api.calls).toContain('/api/impact/stanford.edu'));
    expect(
      screen.getByRole('region', { name: 'Shared so far on campus' }).querySelector('[aria-busy="true"]'),
    ).not.toBeNull();
    expect(screen.getByRole('list', { name: 'Loading top contributors' })).toBeTruthy();
    expect(screen.queryByText('1,234')).toBeNull();
    api.release('/api/impact/stanford.edu');
    api.release('/api/impact/stanford.edu/leaderboard');
    await waitFor(() => expect(screen.getAllByText('1,234')).toHaveLength(2));
    expect(await screen.findByRole('link', { name: 'Maya Chen' })).toBeTruthy();
  });

  it('says when a campus has not shared anything yet', async () => {
    stubApi({
      ...visitorAnswers,
      '/api/impact/stanford.edu': {
        body: { impact: campusImpact({ itemsShared: 0, moneySaved: '0.00', co2Saved: 0, wasteReduced: 0 }) },
      },
      '/api/impact/stanford.edu/leaderboard': {
        body: { weekStart: '2026-03-16T07:00:00.000Z', topContributors: [] },
      },
    });
    renderWithApi(<HomeImpact />);
    expect(await screen.findByText(/Nothing has been returned at Stanford University yet/)).toBeTruthy();
    // Nothing saved reads as kilograms, not as a ton-sized '0.0T' (decision 060).
    expect(screen.getAllByText('0 kg')).toHaveLength(2);
    expect(screen.getAllByText('$0')).toHaveLength(2);
    expect(await screen.findByText(/Nothing has come back yet this week/)).toBeTruthy();
  });

  it("says 'Failed to fetch impact data' and tries again on request", async () => {
    let fail = true;
    stubApi({
      ...visitorAnswers,
      '/api/impact/stanford.edu': () =>
        fail
          ? { status: 500, body: { message: 'Something went wrong on our side.' } }
          : { body: { impact: campusImpact() } },
    });
    renderWithApi(<HomeImpact />);
    // The row and the stat cards fail; the leaderboard, a separate call, still shows.
    await waitFor(() => expect(screen.getAllByText('Failed to fetch impact data')).toHaveLength(2));
    expect(await screen.findByRole('link', { name: 'Maya Chen' })).toBeTruthy();
    fail = false;
    const [alert] = screen.getAllByRole('alert');
    fireEvent.click(within(alert!).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByText('1,234')).toHaveLength(2));
    expect(screen.queryByText('Failed to fetch impact data')).toBeNull();
  });

  it('fails the same way when the visitors’ campus cannot be worked out', async () => {
    stubApi({ ...visitorAnswers, '/api/impact': { status: 500, body: { message: 'down' } } });
    renderWithApi(<HomeImpact />);
    // The row, the stat cards and the leaderboard.
    await waitFor(() => expect(screen.getAllByText('Failed to fetch impact data')).toHaveLength(3));
  });
});
