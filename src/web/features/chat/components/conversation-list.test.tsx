import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary } from '#shared/schemas/chat.ts';
import { activateLocale } from '../../../lib/i18n.ts';
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

describe('ConversationList in Spanish', () => {
  beforeEach(async () => {
    await activateLocale('es');
  });
  afterEach(async () => {
    await activateLocale('en');
  });

  it('says its states, the unread count and the dates in Spanish', () => {
    const retry = vi.fn();
    const { unmount } = render(
      <ConversationList
        conversations={[]}
        isPending={false}
        failed={{ retry, retrying: false }}
        selectedId={null}
        onSelect={() => {}}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('No se pudieron cargar las conversaciones');
    expect(screen.getByRole('button', { name: 'Intentar de nuevo' })).toBeTruthy();
    unmount();

    const conversation: ConversationSummary = {
      id: '00000000-0000-4000-8000-000000000001',
      itemId: '00000000-0000-4000-8000-000000000002',
      buyerId: '00000000-0000-4000-8000-000000000003',
      sellerId: '00000000-0000-4000-8000-000000000004',
      lastMessageAt: '2026-03-05T20:00:00.000Z',
      createdAt: '2026-03-01T20:00:00.000Z',
      otherUser: {
        id: '00000000-0000-4000-8000-000000000004',
        fullName: '',
        username: '',
        profileImage: null,
      },
      item: null,
      unreadCount: 2,
      lastMessage: null,
    };
    render(
      <ConversationList
        conversations={[conversation]}
        isPending={false}
        selectedId={null}
        onSelect={() => {}}
      />,
    );
    const entry = screen.getByRole('button');
    expect(entry.textContent).toContain('Usuario desconocido');
    expect(entry.textContent).toContain('Artículo no encontrado');
    expect(entry.textContent).toContain('5 mar');
    expect(entry.textContent).toContain('2 sin leer');
    expect(entry.textContent).not.toMatch(/Unknown User|Item not found|Mar 5|unread/);
  });
});
