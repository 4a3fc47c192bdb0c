import { msg } from '@lingui/core/macro';
import { DEFAULT_LOCALE, type Locale } from '#shared/i18n.ts';
import {
  type ConversationSummary,
  conversationIdParams,
  type Message,
  type MessagesPageQuery,
  messageInput,
} from '#shared/schemas/chat.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { inLocale, translate } from '../../i18n.ts';
import * as queries from './queries.ts';
import { CHAT_SEND_LIMIT, SendingTooFast } from './send-limit.ts';

// Chat over HTTP. Only a conversation's two people may see or write into it; anyone
// else gets the same 404 as for a missing one. `sendMessage` is shared with the WebSocket handler.

type MessageRow = Awaited<ReturnType<typeof queries.listPage>>[number];

/** A stored message, and the other person of its conversation (whose unread count it raised). */
export interface SentMessage {
  message: Message;
  recipientId: string;
}

function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    conversationId: row.conversationId,
    senderId: row.senderId,
    content: row.content,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
    seq: row.seq,
  };
}

function toSummary(row: queries.SummaryRow): ConversationSummary {
  return {
    ...row,
    lastMessageAt: row.lastMessageAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    lastMessage: row.lastMessage && {
      ...row.lastMessage,
      createdAt: new Date(row.lastMessage.createdAt).toISOString(),
    },
  };
}

/** A dispute's chat as the moderator reads it: the newest this many messages. */
const MODERATOR_CHAT_LIMIT = 200;

const conversationNotFound = () => notFound(msg`Conversation not found.`);

async function requireParty(db: Db, conversationId: string, userId: string) {
  const conversation = await queries.findForParty(db, conversationId, userId);
  if (!conversation) throw conversationNotFound();
  return conversation;
}

export const conversationService = {
  async list(db: Db, userId: string): Promise<ConversationSummary[]> {
    return (await queries.listSummaries(db, userId)).map(toSummary);
  },

  unreadCount: (db: Db, userId: string) => queries.countUnread(db, userId),

  /** The caller (buyer) and the item's owner (seller) share one conversation per item; it is reused. */
  async start(db: Db, userId: string, itemId: string): Promise<ConversationSummary> {
    const item = await queries.findItemOwner(db, itemId);
    // Deleted, hidden by a moderator or of a suspended owner: nothing to chat about.
    if (!item || item.deletedAt || item.hiddenAt || item.ownerSuspendedAt)
      throw notFound(msg`Item not found.`);
    if (item.userId === userId) throw badRequest(msg`You cannot start a chat about your own item.`);
    const id = await queries.findOrCreate(db, { itemId, buyerId: userId, sellerId: item.userId });
    const [row] = await queries.listSummaries(db, userId, id);
    if (!row) throw conversationNotFound();
    return toSummary(row);
  },

  /**
   * The chat of a reservation's borrower (buyer) and lender (seller) about its item, for either of
   * them: the lender can write first too. Anyone else gets the same 404 as for a missing reservation.
   */
  async startForReservation(db: Db, userId: string, reservationId: string): Promise<ConversationSummary> {
    const parties = await queries.findReservationParties(db, reservationId);
    if (!parties || (parties.borrowerId !== userId && parties.providerId !== userId)) {
      throw notFound(msg`Reservation not found.`);
    }
    const id = await queries.findOrCreate(db, {
      itemId: parties.itemId,
      buyerId: parties.borrowerId,
      sellerId: parties.providerId,
    });
    const [row] = await queries.listSummaries(db, userId, id);
    if (!row) throw conversationNotFound();
    return toSummary(row);
  },

  /**
   * Says something in the chat of a borrower (buyer) and a lender (seller) about the lender's item,
   * opening it if they have none: an offer made on the "Asked for" board is said there, in the offer's
   * transaction. Answers the conversation and the recipient.
   */
  async sayInItemChat(
    tx: Db,
    chat: { itemId: string; buyerId: string; sellerId: string },
    senderId: string,
    content: string,
  ): Promise<{ conversationId: string; recipientId: string }> {
    const conversationId = await queries.findOrCreate(tx, chat);
    // An offer is limited by the asks' own rules: its message is never refused by the chat's budget
    // (though it counts in the sender's next ten seconds of chat).
    const { row } = await queries.insertMessageAsParty(
      tx,
      { conversationId, senderId, content },
      { max: 2_147_483_647, windowSeconds: CHAT_SEND_LIMIT.windowSeconds },
    );
    if (!row) throw conversationNotFound();
    return { conversationId, recipientId: row.recipientId };
  },

  /** Marks the other person's messages read (a message that arrived while the chat was open). */
  async markRead(db: Db, userId: string, conversationId: string): Promise<void> {
    if (!(await queries.markReadAsParty(db, conversationId, userId))) throw conversationNotFound();
  },

  /**
   * A page of messages, chronological within the page. The newest page (no `before`) also marks the
   * other person's messages read, in the same transaction as the read.
   */
  async messages(
    db: Db,
    userId: string,
    conversationId: string,
    { before, limit }: MessagesPageQuery,
  ): Promise<{ messages: Message[]; hasMore: boolean }> {
    return transaction(db, async (tx) => {
      await requireParty(tx, conversationId, userId);
      if (!before) await queries.markReadFromOthers(tx, conversationId, userId);
      const rows = await queries.listPage(tx, conversationId, limit, before);
      const hasMore = rows.length > limit;
      return { messages: rows.slice(0, limit).reverse().map(toMessage), hasMore };
    });
  },

  /**
   * The newest messages of a reservation's borrower (buyer) and lender (seller) about its item, read
   * without marking anything read: for the moderator of a dispute, who checks access (decision 033).
   */
  async messagesBetween(
    db: Db,
    key: { itemId: string; buyerId: string; sellerId: string },
    limit = MODERATOR_CHAT_LIMIT,
  ): Promise<{ messages: Message[]; hasMore: boolean }> {
    const conversation = await queries.findBetween(db, key);
    if (!conversation) return { messages: [], hasMore: false };
    const rows = await queries.listPage(db, conversation.id, limit);
    return { messages: rows.slice(0, limit).reverse().map(toMessage), hasMore: rows.length > limit };
  },

  /**
   * Validates (trims) the text, stores it and moves the conversation's last-message time, atomically.
   * A refusal of the text is written in `locale`, the sender's.
   */
  async sendMessage(
    db: Db,
    userId: string,
    conversationId: string,
    content: unknown,
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<SentMessage> {
    // The socket hands over whatever the client sent; a malformed id is a missing conversation.
    if (!conversationIdParams.safeParse({ id: conversationId }).success) throw conversationNotFound();
    // zod writes its messages when the error is first read: read it in the sender's language.
    const parsed = inLocale(locale, () => {
      const result = messageInput.safeParse({ content });
      return result.success
        ? result
        : {
            success: false as const,
            message: result.error.issues[0]?.message ?? translate(locale, msg`Message cannot be empty`),
          };
    });
    if (!parsed.success) {
      const { message } = parsed;
      throw badRequest(message, [{ path: 'content', message }]);
    }
    // The lock on the sender and the send are one statement: one checkout, one round trip.
    const { row, refusedForMs } = await queries.insertMessageAsParty(
      db,
      { conversationId, senderId: userId, content: parsed.data.content },
      { max: CHAT_SEND_LIMIT.messages, windowSeconds: CHAT_SEND_LIMIT.windowSeconds },
    );
    if (refusedForMs !== undefined) throw new SendingTooFast(refusedForMs);
    if (!row) throw conversationNotFound();
    return { message: toMessage(row), recipientId: row.recipientId };
  },
};
