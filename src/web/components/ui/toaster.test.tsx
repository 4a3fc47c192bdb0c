import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismiss, toast } from '../../lib/toast.ts';
import { Toaster } from './toaster.tsx';

describe('Toaster', () => {
  afterEach(() => {
    act(() => dismiss());
    cleanup();
  });

  it('shows a toast’s action, which runs and closes the toast', async () => {
    const onClick = vi.fn();
    render(<Toaster />);
    act(() => {
      toast({
        title: 'Reservation created!',
        description: 'Your reservation request has been sent to the item owner.',
        action: { label: 'View', altText: 'Open My Reservations', onClick },
      });
    });
    const action = await screen.findByRole('button', { name: 'View' });
    fireEvent.click(action);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('sits at the bottom edge when nothing is in the way', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Hello' });
    });
    await screen.findByText('Hello');
    expect(document.querySelector('[data-placement]')?.getAttribute('data-placement')).toBe('bottom');
  });
});
