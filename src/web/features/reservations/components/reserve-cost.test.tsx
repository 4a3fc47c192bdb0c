import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { quote } from '#shared/booking/pricing.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { ServiceFeeTerms } from '../../../components/service-fee-terms.tsx';
import { CostBreakdown, OrderSummary, type ReservableItem } from './reserve-cost.tsx';

// Decision 055: the Reserve dialog shows the service fee as its own line, from the rates the server gave
// it (GET /api/config), and Terms, Help and Privacy say the same figures.

const RATES = {
  serviceFeePercent: 10,
  serviceFeeMinCents: 100,
  serviceFeeMaxCents: 1500,
  lenderCommissionPercent: 0,
};

const item = {
  id: '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b',
  title: 'Cordless drill',
  rentalPrice: '5.00',
  rentalPeriod: 'day',
  depositAmount: '20.00',
  isAvailable: true,
  campus: 'north',
  cancellationPolicy: 'flexible',
  user: { id: 'u', fullName: 'Maya Chen' },
} as unknown as ReservableItem;

const priced = (rentalPriceCents: number | null, depositCents: number | null) =>
  quote({ rentalPriceCents, rentalPeriod: 'day', depositCents }, '2026-12-10', '2026-12-12', RATES);

afterEach(cleanup);

describe('the service fee in the Reserve dialog', () => {
  it('is its own line of the cost breakdown, in the total', () => {
    render(<CostBreakdown item={item} price={priced(500, 2000)} startDate="2026-12-10" />);
    const breakdown = screen.getByRole('region', { name: 'Cost breakdown' });
    const row = within(breakdown).getByText('Service fee').parentElement!;
    expect(row.textContent).toBe('Service fee$1.00');
    expect(within(breakdown).getByText('Total').parentElement!.textContent).toBe('Total$31.00');
  });

  it('is its own line of the order summary beside the card form', () => {
    render(
      <OrderSummary
        title="Cordless drill"
        range={{ startDate: '2026-12-10', endDate: '2026-12-12' }}
        price={priced(1234, 0)}
      />,
    );
    // $24.68 of rental: 10 % is $2.468, rounded down in the borrower's favour.
    expect(screen.getByText('Service fee').parentElement!.textContent).toBe('Service fee$2.46');
    expect(screen.getByText('Total').parentElement!.textContent).toBe('Total$27.14');
  });

  it('has no line for a free item', () => {
    render(<CostBreakdown item={item} price={priced(null, null)} startDate="2026-12-10" />);
    expect(screen.queryByText('Service fee')).toBeNull();
  });
});

describe('the service fee in Terms, Help and Privacy', () => {
  it('states the server’s percent, minimum and maximum, the proportional refund and when the card is charged', async () => {
    stubApi({
      '/api/config': {
        body: {
          payments: { provider: 'test', publishableKey: null },
          fees: {
            serviceFeePercent: 7.5,
            serviceFeeMin: '0.50',
            serviceFeeMax: '12.00',
            lenderCommissionPercent: 0,
          },
        },
      },
    });
    renderWithApi(<ServiceFeeTerms />);
    expect(
      await screen.findByText(/service fee of 7\.5% of the rental, at least \$0\.50 and at most \$12\.00/),
    ).toBeTruthy();
    expect(screen.getByText(/refunded in the same proportion as the rental/)).toBeTruthy();
    expect(screen.getByText(/charged when the lender approves/)).toBeTruthy();
    // No commission set: none is mentioned.
    expect(screen.queryByText(/commission/)).toBeNull();
  });

  it('states the lender’s commission when there is one', async () => {
    stubApi({
      '/api/config': {
        body: {
          payments: { provider: 'test', publishableKey: null },
          fees: {
            serviceFeePercent: 10,
            serviceFeeMin: '1.00',
            serviceFeeMax: '15.00',
            lenderCommissionPercent: 5,
          },
        },
      },
    });
    renderWithApi(<ServiceFeeTerms />);
    expect(await screen.findByText(/commission of 5% of the rental/)).toBeTruthy();
  });
});
