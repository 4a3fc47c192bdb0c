import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboard } from '../../../tests/helpers/impact-fixtures.ts';
import { renderWithApi, stubApi } from '../../../tests/helpers/render-with-api.tsx';
import ImpactPage from './impact.tsx';

// Spec §2 Campus Impact Dashboard: every section from the dashboard call, the campus picker, and the
// loading, not-found and error states.

const campuses = {
  defaultCampus: { campus: 'stanford.edu', campusName: 'Stanford University' },
  campuses: [
    { campus: 'stanford.edu', campusName: 'Stanford University', itemsShared: 31 },
    { campus: 'berkeley.edu', campusName: 'University of California-Berkeley', itemsShared: 17 },
  ],
};
const stanford = dashboard({
  campus: 'stanford.edu',
  campusName: 'Stanford University',
  impact: { itemsShared: 31, moneySaved: '1622.00', co2Saved: 264.85, wasteReduced: 27.8 },
  month: { start: '2026-03-01T08:00:00.000Z', itemsShared: 12, goal: 500, progressPercent: 2.4 },
  activeSharers: { thisMonth: 0, lastMonth: 0, changePercent: null },
  topContributors: [],
});
const answers = {
  '/api/auth/me': { body: { user: null } },
  '/api/impact': { body: campuses },
  '/api/impact/berkeley.edu/dashboard': { body: dashboard() },
  '/api/impact/stanford.edu/dashboard': { body: stanford },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Campus Impact Dashboard', () => {
  it('shows every section of the chosen campus', async () => {
    stubApi(answers);
    renderWithApi(<ImpactPage />, '/impact?campus=berkeley.edu');
    expect(screen.getByRole('heading', { level: 1, name: 'Campus Impact Dashboard' })).toBeTruthy();

    await screen.findByText('$45,210');
    const ours = screen.getByRole('region', { name: 'Our Impact' });
    // 45210 dollars; 980.4 kg stays in kilograms below a ton (decision 060); 640 kg × 2.20462 = 1,411 lbs.
    for (const value of ['1,200', '$45,210', '980 kg', '1,411 lbs'])
      expect(within(ours).getByText(value)).toBeTruthy();

    const goals = screen.getByRole('region', { name: 'Sustainability Goals' });
    const bar = within(goals).getByRole('progressbar', { name: 'March sharing goal' });
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect(within(goals).getByText('100% of the goal for March: reached!')).toBeTruthy();
    expect(within(goals).getByText('+25% from last month (4)')).toBeTruthy();
    expect(goals.textContent).toContain('5 active sharers in March');
    expect(goals.textContent).toContain('140 students in the University of California-Berkeley community');

    const categories = screen.getByRole('region', { name: 'Impact by Category' });
    const cards = within(categories).getAllByRole('listitem');
    expect(cards.map((c) => c.querySelector('h3')?.textContent)).toEqual(['Books', 'Tools', 'Clothing']);
    expect(cards[0]!.textContent).toContain('400 shared');
    expect(cards[0]!.textContent).toContain('240 kg CO₂ saved');
    expect(cards[2]!.textContent).toContain('None returned yet');

    const achievements = within(screen.getByRole('region', { name: 'Campus Achievements' })).getAllByRole(
      'listitem',
    );
    expect(
      achievements.map((a) => [a.querySelector('h3')?.textContent, a.textContent?.includes('Unlocked')]),
    ).toEqual([
      ['First 100', true],
      ['Green Campus', false],
      ['Community Builder', true],
      ['Sustainability Champion', true],
    ]);
    expect(achievements[1]!.textContent).toContain('980 of 1,000 kg CO₂');

    const campus = screen.getByRole('region', { name: 'University of California-Berkeley' });
    expect(campus.textContent).toContain('140 students share here. 1,200 borrows returned so far.');
    expect(screen.getByRole('link', { name: 'Maya Chen' })).toBeTruthy();

    const how = screen.getByRole('region', { name: 'How we count' });
    expect(how.textContent).toContain('about half do');
    expect(within(how).getAllByRole('row')).toHaveLength(9);
    expect(
      within(how)
        .getByRole('link', { name: /Library of Things/ })
        .getAttribute('href'),
    ).toMatch(/^https:\/\/www\.libraryofthings\.co\.uk\//);
    expect(document.title).toBe('University of California-Berkeley Impact · CampusLoop');
  });

  it('shows a visitor the most active campus, and lets anyone pick another', async () => {
    const api = stubApi(answers);
    renderWithApi(<ImpactPage />, '/impact');
    await screen.findByText(/Every borrow returned at Stanford University/);
    expect(screen.getByLabelText('Campus').textContent).toContain('Stanford University');
    // No one was active this month or last.
    expect(screen.getByText('No one has shared yet this month')).toBeTruthy();
    expect(screen.getByText(/Nothing has come back yet this week/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'University of California-Berkeley' }));
    await screen.findByText(/Every borrow returned at University of California-Berkeley/);
    expect(api.calls).toContain('/api/impact/berkeley.edu/dashboard');
    expect(screen.getByLabelText('Campus').textContent).toContain('University of California-Berkeley');
  });

  it('shows placeholders while the figures load', async () => {
    const api = stubApi(answers);
    api.hold('/api/impact/berkeley.edu/dashboard');
    renderWithApi(<ImpactPage />, '/impact?campus=berkeley.edu');
    await waitFor(() => expect(api.calls).toContain('/api/impact/berkeley.edu/dashboard'));
    expect(
      screen.getByRole('region', { name: 'Our Impact' }).querySelector('[aria-busy="true"]'),
    ).not.toBeNull();
    expect(screen.queryByRole('region', { name: 'Sustainability Goals' })).toBeNull();
    api.release('/api/impact/berkeley.edu/dashboard');
    expect(await screen.findByRole('region', { name: 'Sustainability Goals' })).toBeTruthy();
  });

  it('says a campus that does not exist was not found, and goes back to the default', async () => {
    stubApi({
      ...answers,
      '/api/impact/nowhere.example.edu/dashboard': {
        status: 404,
        body: { message: 'Campus not found.', code: 'NOT_FOUND' },
      },
    });
    renderWithApi(<ImpactPage />, '/impact?campus=nowhere.example.edu');
    expect(await screen.findByRole('heading', { name: 'Campus not found' })).toBeTruthy();
    expect(screen.getByText(/could not find a campus called “nowhere.example.edu”/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show the most active campus' }));
    expect(await screen.findByText(/Every borrow returned at Stanford University/)).toBeTruthy();
  });

  it("says 'Failed to fetch impact data' and tries again on request", async () => {
    let fail = true;
    stubApi({
      ...answers,
      '/api/impact/berkeley.edu/dashboard': () =>
        fail
          ? { status: 500, body: { message: 'Something went wrong on our side.' } }
          : { body: dashboard() },
    });
    renderWithApi(<ImpactPage />, '/impact?campus=berkeley.edu');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch impact data');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Sustainability Goals' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
