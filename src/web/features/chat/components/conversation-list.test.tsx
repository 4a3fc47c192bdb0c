import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConversationList } from './conversation-list.tsx';

afterEach(cleanup);

describe('ConversationList', () => {
  it("says 'Failed to fetch conversations' with Try again, not 'No conversations yet', when the list failed", () => {
    const retry = vi.fn();
    render(
      <ConversationList
        conversations={[]}
        isPending={false}
        failed={{ retry, retrying: false }}
        selectedId={null}
        onSelect={() => {}}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Failed to fetch conversations');
    expect(screen.queryByText('No conversations yet')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('says there are none when the list loaded empty', () => {
    render(<ConversationList conversations={[]} isPending={false} selectedId={null} onSelect={() => {}} />);
    expect(screen.getByText('No conversations yet')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
