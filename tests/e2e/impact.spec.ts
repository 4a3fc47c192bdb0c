import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatCo2, formatMoneySaved, formatWasteLbs } from '../../src/shared/format.ts';
import type { CampusImpact, ImpactDashboard } from '../../src/shared/schemas/impact.ts';
import { expectAccessible, pressItemReturned, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

async function figures(page: Page, campus: string): Promise<CampusImpact> {
  return (await (await page.request.get(`/api/impact/${campus}`)).json()).impact;
}

async function dashboardOf(page: Page, campus: string): Promise<ImpactDashboard> {
  return (await page.request.get(`/api/impact/${campus}/dashboard`)).json();
}

describe('campus impact journeys', () => {
  it('shows a visitor the demo campus’s real figures on Home and on the dashboard', async () => {
    const page = await b.newPage({ width: 375, height: 812 });
    await page.goto('/');
    const stanford = await figures(page, 'stanford.edu');
    expect(stanford.itemsShared).toBeGreaterThan(0);

    // Home: the row under the hero and 'Our Campus Impact', from the same figures.
    const row = page.getByRole('region', { name: 'Shared so far at Stanford University' });
    for (const value of [
      stanford.itemsShared.toLocaleString('en-US'),
      formatMoneySaved(stanford.moneySaved),
      formatCo2(stanford.co2Saved),
      formatWasteLbs(stanford.wasteReduced),
    ]) {
      await row.getByText(value, { exact: true }).waitFor();
    }
    const section = page.getByRole('region', { name: 'Our Campus Impact' });
    await section.getByText(formatMoneySaved(stanford.moneySaved), { exact: true }).waitFor();
    const { topContributors } = await dashboardOf(page, 'stanford.edu');
    expect(topContributors.length).toBeGreaterThan(0);
    await section.getByRole('link', { name: topContributors[0]!.name }).waitFor();
    await expectAccessible(page);

    // The phone bar's Impact opens the dashboard.
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Impact' }).click();
    await page.getByRole('heading', { name: 'Campus Impact Dashboard', level: 1 }).waitFor();
    await page.getByText('Every borrow returned at Stanford University', { exact: false }).waitFor();
    for (const heading of [
      'Our Impact',
      'Sustainability Goals',
      'Impact by Category',
      'Campus Achievements',
      'Top Contributors This Week',
      'How we count',
    ]) {
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await page.getByRole('progressbar').waitFor();
    await page.getByRole('region', { name: 'Campus Achievements' }).getByText('First 100').waitFor();
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the dashboard fits a phone').toBeLessThanOrEqual(0);
  });

  it('lets anyone pick another campus from the directory, by keyboard', async () => {
    const page = await b.newPage();
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Impact' }).click();
    await page.getByText('Every borrow returned at Stanford University', { exact: false }).waitFor();

    await page.getByLabel('Campus', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Search universities' }).fill('Harvard');
    await page.getByRole('option', { name: /Harvard University/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/campus=harvard\.edu/);
    await page.getByText('Every borrow returned at Harvard University', { exact: false }).waitFor();
    await page.getByText('of 500 items').waitFor();
    await page.getByText('Nothing has come back yet this week', { exact: false }).waitFor();
    await expectAccessible(page);

    // The most active campuses are one click away.
    await page.getByRole('button', { name: 'Stanford University' }).click();
    await page.waitForURL(/campus=stanford\.edu/);
    await page.getByText('Every borrow returned at Stanford University', { exact: false }).waitFor();
  });

  it('counts a returned borrow on its campus at once', async () => {
    const borrower = await b.newPage({ width: 375, height: 812 });
    const lender = await b.newPage();
    // Ravi is one of the demo classmates; Sam lends the cordless vacuum for free.
    await signIn(borrower, 'ravi.shah@berkeley.edu');
    await signIn(lender, 'sam.rivera@berkeley.edu');

    // Sam's dashboard is Berkeley's, by default.
    await lender.goto('/impact');
    await lender
      .getByText('Every borrow returned at University of California-Berkeley', { exact: false })
      .waitFor();
    const before = await dashboardOf(lender, 'berkeley.edu');

    await borrower.goto('/browse?q=cordless%20vacuum');
    await borrower
      .getByRole('link', { name: /Cordless vacuum/ })
      .first()
      .click();
    await borrower.getByRole('button', { name: 'Reserve Item' }).click();
    await borrower.getByRole('dialog').getByRole('button', { name: 'Request to Borrow' }).click();
    await borrower
      .getByText('Your reservation request has been sent to the item owner.', { exact: true })
      .waitFor();

    await lender.goto('/reservations');
    await lender.getByRole('tab', { name: /Lending/ }).click();
    await lender.getByRole('button', { name: 'Approve' }).first().click();
    await lender.getByText('Approved', { exact: true }).first().waitFor();

    await borrower.goto('/reservations');
    await borrower.getByRole('button', { name: 'Picked Up' }).click();
    await pressItemReturned(borrower);
    await borrower.getByText('Returned', { exact: true }).first().waitFor();
    // The lender confirms it came back in good condition; that completes the borrow.
    await lender.goto('/reservations');
    await lender.getByRole('tab', { name: /Lending/ }).click();
    await lender
      .getByRole('listitem')
      .filter({ has: lender.getByRole('heading', { name: /Cordless vacuum/ }) })
      .getByRole('button', { name: 'Returned in good condition' })
      .first()
      .click();
    await lender.getByText('Completed', { exact: true }).first().waitFor();

    // tools, free: 0.5 × $90 = $45 saved; Sam gains one item this week.
    const after = await dashboardOf(lender, 'berkeley.edu');
    expect(after.impact.itemsShared).toBe(before.impact.itemsShared + 1);
    expect(Number(after.impact.moneySaved) - Number(before.impact.moneySaved)).toBeCloseTo(45, 5);
    expect(after.month.itemsShared).toBe(before.month.itemsShared + 1);
    const samBefore = before.topContributors.find((c) => c.name === 'Sam Rivera')?.itemsShared ?? 0;
    expect(after.topContributors.find((c) => c.name === 'Sam Rivera')?.itemsShared).toBe(samBefore + 1);

    await lender.goto('/impact');
    const ours = lender.getByRole('region', { name: 'Our Impact' });
    await ours.getByText(after.impact.itemsShared.toLocaleString('en-US'), { exact: true }).waitFor();
    await expectAccessible(lender);
  });
});
