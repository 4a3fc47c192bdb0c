import { describe, expect, it } from 'vitest';
import type { Message } from '#shared/schemas/chat.ts';
import {
  type ShownMessage,
  withConfirmed,
  withHistory,
  withOlder,
  withReceived,
  withSending,
} from './message-timeline.ts';

// The chat page's list: each message once, in the server's order, whatever order the history, the
// live push and the sender's confirmation arrive in (decision 013).

const me = 'user-me';
const them = 'user-them';

function stored(seq: number, content: string, senderId = me): Message {
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    conversationId: 'c1',
    senderId,
    content,
    isRead: false,
    createdAt: '2026-01-01T10:00:00.000Z',
    seq,
  };
}

function sending(tempId: string, content: string): ShownMessage {
  return { id: tempId, conversationId: 'c1', senderId: me, content, isRead: false, createdAt: '' };
}

const contents = (list: ShownMessage[]) =>
  list.map((m) => `${m.id.startsWith('temp-') ? '…' : ''}${m.content}`);

describe('the chat page’s messages', () => {
  it('shows one’s own message once when the push arrives before the confirmation', () => {
    let list = withSending([stored(1, 'Hi', them)], sending('temp-a', 'Is it free?'));
    list = withReceived(list, stored(2, 'Is it free?'), me);
    expect(contents(list)).toEqual(['Hi', 'Is it free?']);
    list = withConfirmed(list, stored(2, 'Is it free?'), 'temp-a');
    expect(contents(list)).toEqual(['Hi', 'Is it free?']);
  });

  it('shows it once when the confirmation arrives first, and ignores the late push', () => {
    let list = withSending([], sending('temp-a', 'Hello'));
    list = withConfirmed(list, stored(1, 'Hello'), 'temp-a');
    list = withReceived(list, stored(1, 'Hello'), me);
    expect(contents(list)).toEqual(['Hello']);
  });

  it('keeps two identical messages apart, each replacing one bubble', () => {
    let list = withSending(withSending([], sending('temp-a', 'ok')), sending('temp-b', 'ok'));
    list = withReceived(list, stored(1, 'ok'), me);
    expect(contents(list)).toEqual(['ok', '…ok']);
    list = withConfirmed(list, stored(1, 'ok'), 'temp-a');
    list = withConfirmed(list, stored(2, 'ok'), 'temp-b');
    list = withReceived(list, stored(2, 'ok'), me);
    expect(contents(list)).toEqual(['ok', 'ok']);
  });

  it('places messages by the server’s sequence, with bubbles being sent last', () => {
    let list = withSending([], sending('temp-a', 'mine'));
    list = withReceived(list, stored(5, 'later', them), me);
    list = withReceived(list, stored(3, 'earlier', them), me);
    expect(contents(list)).toEqual(['earlier', 'later', '…mine']);
    list = withConfirmed(list, stored(4, 'mine'), 'temp-a');
    expect(contents(list)).toEqual(['earlier', 'mine', 'later']);
  });

  it('takes the history, keeping newer pushes and bubbles still being sent', () => {
    let list = withReceived([], stored(9, 'pushed after the page was read', them), me);
    list = withSending(list, sending('temp-a', 'typing'));
    list = withSending(list, sending('temp-b', 'already stored'));
    list = withHistory(list, [stored(7, 'seven', them), stored(8, 'already stored')], me);
    expect(contents(list)).toEqual(['seven', 'already stored', 'pushed after the page was read', '…typing']);
    // The same page again changes nothing, and does not eat a bubble with the same text.
    list = withSending(list, sending('temp-c', 'already stored'));
    list = withHistory(list, [stored(7, 'seven', them), stored(8, 'already stored')], me);
    expect(contents(list)).toEqual([
      'seven',
      'already stored',
      'pushed after the page was read',
      '…typing',
      '…already stored',
    ]);
  });

  it('puts older pages first without repeating any', () => {
    const list = withOlder([stored(3, 'three'), stored(4, 'four')], [stored(2, 'two'), stored(3, 'three')]);
    expect(contents(list)).toEqual(['two', 'three', 'four']);
  });
});
