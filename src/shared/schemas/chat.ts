import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { instant, plainText } from './fields.ts';

// Chat (spec §3 conversations and messages, §5 Message, §7 conversation calls).

export const MESSAGE_MAX_LENGTH = 1000;
export const MESSAGES_PAGE_DEFAULT = 50;
export const MESSAGES_PAGE_MAX = 100;

/** Spec §5: chat text is trimmed, then 1 to 1000 characters. The socket handler uses it too. */
export const messageInput = z.object({
  content: plainText(() => t`Message cannot be empty`)
    .trim()
    .min(1, { error: () => t`Message cannot be empty` })
    .max(MESSAGE_MAX_LENGTH, { error: () => t`Message too long` }),
});
export type MessageInput = z.input<typeof messageInput>;

export const message = z.object({
  id: z.uuid(),
  conversationId: z.uuid(),
  senderId: z.uuid(),
  content: z.string(),
  isRead: z.boolean(),
  createdAt: z.string(),
  /** The server's order of messages: lists and live pushes are placed by it, never by time. */
  seq: z.number().int(),
});
export type Message = z.infer<typeof message>;

export const conversationSummary = z.object({
  id: z.uuid(),
  itemId: z.uuid(),
  buyerId: z.uuid(),
  sellerId: z.uuid(),
  lastMessageAt: z.string(),
  createdAt: z.string(),
  otherUser: z.object({
    id: z.uuid(),
    fullName: z.string(),
    username: z.string(),
    profileImage: z.string().nullable(),
  }),
  /** Null when the item has been deleted (the chat shows 'Item not found'). */
  item: z.object({ id: z.uuid(), title: z.string(), images: z.array(z.string()) }).nullable(),
  /** The other person's messages the caller has not read yet. */
  unreadCount: z.number().int(),
  lastMessage: z.object({ content: z.string(), senderId: z.uuid(), createdAt: z.string() }).nullable(),
});
export type ConversationSummary = z.infer<typeof conversationSummary>;

export const conversationList = z.object({ conversations: z.array(conversationSummary) });
export const conversationResponse = z.object({ conversation: conversationSummary });
export const unreadCountResponse = z.object({ count: z.number().int() });

export const startConversationInput = z.object({ itemId: z.uuid({ error: () => t`Item not found.` }) });
export const conversationIdParams = z.object({ id: z.uuid({ error: () => t`Conversation not found.` }) });

/**
 * Newest page when `before` is absent. `before` loads older ones: the id of the oldest message one has
 * (exact, by the server's order), or an ISO instant (the messages written before it).
 */
export const messagesPageQuery = z.object({
  before: z
    .union([z.uuid(), instant(() => t`Invalid cursor: a message id or a date`)], {
      error: () => t`Invalid cursor: a message id or a date`,
    })
    .optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGES_PAGE_MAX).default(MESSAGES_PAGE_DEFAULT),
});
export type MessagesPageQuery = z.infer<typeof messagesPageQuery>;

export const messagesPage = z.object({ messages: z.array(message), hasMore: z.boolean() });
export const messageResponse = z.object({ message });
