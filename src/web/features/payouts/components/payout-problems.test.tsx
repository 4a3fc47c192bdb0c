import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PayoutProblemView } from '#shared/schemas/payouts.ts';
import { PayoutProblemList } from './payout-problems.tsx';

const reversal: PayoutProblemView = {
  kind: 'reversal',
  id: '00000000-0000-4000-8000-000000000001',
  reservationId: '00000000-0000-4000-8000-000000000002',
  itemTitle: 'Camping stove',
  lenderId: '00000000-0000-4000-8000-000000000003',
  lenderName: 'Maya Chen',
  amount: '12.50',
  lastError: 'The provider did not answer.',
  attempts: 4,
  failedAt: '2026-11-29T01:00:00.000Z',
};

afterEach(cleanup);

describe('payouts to lenders that failed, on /admin/payments', () => {
  it('lists each with its lender, amount, error and a Try again for it', () => {
    const onRetry = vi.fn();
    const transfer = { ...reversal, kind: 'transfer' as const, id: '00000000-0000-4000-8000-000000000004' };
    render(<PayoutProblemList problems={[reversal, transfer]} onRetry={onRetry} />);
    expect(screen.getByRole('heading', { name: 'Payouts to lenders that failed (2)' })).toBeTruthy();
    expect(screen.getByText('Taking back $12.50 from Maya Chen')).toBeTruthy();
    expect(screen.getByText('Transfer of $12.50 to Maya Chen')).toBeTruthy();
    expect(screen.getAllByText('The provider did not answer.')).toHaveLength(2);
    const buttons = screen.getAllByRole('button', { name: 'Try again' });
    fireEvent.click(buttons[1]!);
    expect(onRetry).toHaveBeenCalledWith(transfer);
  });

  it('says all is well when nothing failed, and disables the button of one being tried', () => {
    const { unmount } = render(<PayoutProblemList problems={[]} onRetry={() => {}} />);
    expect(screen.getByText('Every payout to lenders has gone through.')).toBeTruthy();
    unmount();
    render(<PayoutProblemList problems={[reversal]} pendingId={reversal.id} onRetry={() => {}} />);
    expect((screen.getByRole('button', { name: 'Try again' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
