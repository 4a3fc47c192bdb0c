import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LenderCancellations } from './profile-header.tsx';

describe('a lender’s cancellations on the profile', () => {
  it('says how many approved borrows the lender cancelled', () => {
    render(<LenderCancellations cancelled={1} approved={12} />);
    expect(screen.getByText('Cancelled 1 of 12 borrows')).toBeTruthy();
  });

  it('says one borrow in the singular, and shows a clean record too', () => {
    render(<LenderCancellations cancelled={0} approved={1} />);
    expect(screen.getByText('Cancelled 0 of 1 borrow')).toBeTruthy();
  });

  it('says nothing before the lender has approved a borrow', () => {
    const { container } = render(<LenderCancellations cancelled={0} approved={0} />);
    expect(container.textContent).toBe('');
  });
});
