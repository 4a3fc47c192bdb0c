import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdatePromptView } from './update-prompt-view.tsx';

describe('the update prompt', () => {
  afterEach(cleanup);

  it('announces the new version and reloads only when asked', () => {
    const onReload = vi.fn();
    const onDismiss = vi.fn();
    render(<UpdatePromptView onReload={onReload} onDismiss={onDismiss} />);
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('A new version of CampusLoop is available');
    expect(onReload).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledOnce();
    expect(onDismiss).not.toHaveBeenCalled();
  });

  it('can be put off, by Later or by closing it', () => {
    const onReload = vi.fn();
    const onDismiss = vi.fn();
    render(<UpdatePromptView onReload={onReload} onDismiss={onDismiss} />);
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close the update message' }));
    expect(onDismiss).toHaveBeenCalledTimes(2);
    expect(onReload).not.toHaveBeenCalled();
  });
});
