import type { Message } from '#shared/schemas/chat.ts';

// The open conversation's messages as the chat page keeps them (spec §4 Live chat connection, decision 013):
// confirmed messages in the server's order (`seq`), each once, then one's own messages still on their
// way (temporary ids, spec §5). A message can reach the page three ways: the history over HTTP, the
// live push (newMessage) and, for the sender, the confirmation (messageConfirm); the push may come
// before the confirmation, and neither may show the same message twice.

/** A message as shown: a temporary one (id 'temp-…') has no place in the server's order yet. */
export type ShownMessage = Omit<Message, 'seq'> & { seq?: number };

export const isTemporary = (message: ShownMessage) => message.id.startsWith('temp-');

/** Inserts a confirmed message by its sequence, before the temporary ones; nothing if already there. */
function place(list: ShownMessage[], message: Message): ShownMessage[] {
  if (list.some((m) => m.id === message.id)) return list;
  const at = list.findIndex((m) => isTemporary(m) || (m.seq ?? 0) > message.seq);
  return at < 0 ? [...list, message] : [...list.slice(0, at), message, ...list.slice(at)];
}

/** One's own message, sent now, shown at once until the server confirms it. */
export function withSending(list: ShownMessage[], message: ShownMessage): ShownMessage[] {
  return [...list, message];
}

/**
 * The server confirmed one's message: its temporary bubble (the one with `tempId`; without one, every
 * temporary bubble, as spec §4 says) gives way to the stored message.
 */
export function withConfirmed(list: ShownMessage[], message: Message, tempId?: string): ShownMessage[] {
  const rest = list.filter((m) => (tempId ? m.id !== tempId : !isTemporary(m)));
  return place(rest, message);
}

/**
 * A live push. One's own message can arrive this way before its confirmation: it then takes the place
 * of the oldest temporary bubble with the same text, so the sender never sees it twice.
 */
export function withReceived(list: ShownMessage[], message: Message, currentUserId: string): ShownMessage[] {
  if (list.some((m) => m.id === message.id)) return list;
  let rest = list;
  if (message.senderId === currentUserId) {
    const sending = list.findIndex((m) => isTemporary(m) && m.content === message.content);
    if (sending >= 0) rest = [...list.slice(0, sending), ...list.slice(sending + 1)];
  }
  return place(rest, message);
}

/**
 * The newest page over HTTP replaces the list (spec §4), but keeps what it cannot know yet: messages
 * pushed after the page was read (a higher sequence) and bubbles still being sent, less those the page
 * shows stored already (as a push would).
 */
export function withHistory(list: ShownMessage[], page: Message[], currentUserId: string): ShownMessage[] {
  const newest = page.reduce((max, m) => Math.max(max, m.seq), 0);
  const known = new Set(list.map((m) => m.id));
  let merged = list.filter((m) => isTemporary(m) || (m.seq ?? 0) > newest);
  for (const message of [...page].sort((a, b) => a.seq - b.seq)) {
    merged = known.has(message.id) ? place(merged, message) : withReceived(merged, message, currentUserId);
  }
  return merged;
}

/** Older pages go before everything shown; any already there are not repeated. */
export function withOlder(list: ShownMessage[], page: Message[]): ShownMessage[] {
  return [...page.filter((m) => !list.some((x) => x.id === m.id)), ...list];
}
