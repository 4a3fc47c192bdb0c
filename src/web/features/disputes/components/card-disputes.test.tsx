import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminDispute } from '#shared/schemas/disputes.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { activateLocale } from '../../../lib/i18n.ts';
import { CardDisputes } from './card-disputes.tsx';

// The card disputes section of /admin/payments: an open dispute with its due date, the hold on the
// lender's transfers and the evidence previewed before it is sent; a lost one asks who bears it and
// says so when none is chosen.

const open: AdminDispute = {
  id: '00000000-0000-4000-8000-0000000000d1',
  reservationId: '00000000-0000-4000-8000-0000000000a1',
  paymentIntentId: 'pi_test_open',
  itemTitle: 'Trail bike',
  borrowerName: 'Bea Borrower',
  lenderName: 'Lou Lender',
  amount: '30.00',
  currency: 'usd',
  reason: 'fraudulent',
  status: 'needs_response',
  evidenceDueBy: '2026-12-05T12:00:00.000Z',
  withdrawn: '30.00',
  reinstated: '0.00',
  outcome: null,
  finding: null,
  reversal: null,
  evidenceSubmittedAt: null,
  freezesTransfers: true,
  createdAt: '2026-11-28T12:00:00.000Z',
};
const lost: AdminDispute = {
  ...open,
  id: '00000000-0000-4000-8000-0000000000d2',
  paymentIntentId: 'pi_test_lost',
  itemTitle: 'Tent',
  status: 'lost',
  outcome: 'lost',
  evidenceDueBy: null,
};
const LIST = '/api/admin/disputes';

beforeEach(async () => {
  await activateLocale('en');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CardDisputes', () => {
  it('shows an open dispute and previews its evidence', async () => {
    stubApi({
      [LIST]: { body: { disputes: [open], ownCases: { withheld: 0, otherModerator: false } } },
      [`${LIST}/${open.id}/evidence`]: {
        body: {
          evidence: {
            product_description: 'Peer-to-peer rental of "Trail bike"',
            service_date: '2026-12-01',
          },
        },
      },
    });
    renderWithApi(<CardDisputes />);
    expect(await screen.findByRole('heading', { name: 'Card disputes (1)' })).toBeTruthy();
    expect(screen.getByText('Needs evidence')).toBeTruthy();
    expect(screen.getByText("The lender's transfers for this booking are on hold.")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Preview the evidence' }));
    expect(await screen.findByText('Peer-to-peer rental of "Trail bike"')).toBeTruthy();
    expect(screen.getByText('First day of the booking')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide the evidence' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
  });

  it('asks who bears a lost dispute, and says so when nobody is chosen', async () => {
    const api = stubApi({
      [LIST]: { body: { disputes: [lost], ownCases: { withheld: 0, otherModerator: false } } },
    });
    renderWithApi(<CardDisputes />);
    expect(await screen.findByText('Who bears the loss?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Record the finding' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Say who bears the loss');
    await waitFor(() => expect(api.calls.filter((url) => url.endsWith('/finding'))).toEqual([]));
  });

  it('says when no payment was disputed', async () => {
    stubApi({ [LIST]: { body: { disputes: [], ownCases: { withheld: 0, otherModerator: false } } } });
    renderWithApi(<CardDisputes />);
    expect(await screen.findByText('No card payment has been disputed.')).toBeTruthy();
  });
});
