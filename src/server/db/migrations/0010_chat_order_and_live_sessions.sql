-- Chat keeps order, one chat limit per person, and signing out closes that session's sockets.

-- rate-limiter-flexible's Drizzle store: counters shared by every server instance.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
-- Messages are ordered by a server sequence, not by their clock times. Existing messages are numbered
-- in the order they were listed until now (time, then id); new ones take the next numbers.
DROP INDEX "messages_conversation_created_idx";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "seq" bigint;--> statement-breakpoint
UPDATE "messages" m SET "seq" = o.n
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM "messages") o
  WHERE o.id = m.id;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('messages_seq_seq', coalesce((SELECT max("seq") FROM "messages"), 0) + 1, false);--> statement-breakpoint
CREATE INDEX "messages_conversation_seq_idx" ON "messages" USING btree ("conversation_id","seq" DESC NULLS LAST);--> statement-breakpoint
-- The live newMessage event (migration 0006) carries the sequence, so a client can place a message.
CREATE OR REPLACE FUNCTION campusloop_message_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buyer uuid;
  seller uuid;
  recipient uuid;
BEGIN
  SELECT c.buyer_id, c.seller_id INTO buyer, seller FROM conversations c WHERE c.id = NEW.conversation_id;
  recipient := CASE WHEN NEW.sender_id = buyer THEN seller ELSE buyer END;
  -- Both people (every tab of the sender too) get the message itself.
  PERFORM campusloop_publish(ARRAY[buyer, seller], jsonb_build_object(
    'type', 'newMessage',
    'conversationId', NEW.conversation_id,
    'message', jsonb_build_object(
      'id', NEW.id,
      'conversationId', NEW.conversation_id,
      'senderId', NEW.sender_id,
      'content', NEW.content,
      'isRead', NEW.is_read,
      'createdAt', campusloop_iso(NEW.created_at),
      'seq', NEW.seq
    )
  ));
  PERFORM campusloop_publish(ARRAY[recipient], jsonb_build_object(
    'type', 'chatUnreadCount',
    'count', campusloop_chat_unread(recipient)
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A session that ends (sign-out, suspension, expiry) closes the live sockets opened with it, on every
-- server instance, when the deleting transaction commits; the person's other sessions stay connected.
-- One event per session keeps each payload far below NOTIFY's 8000-byte limit.
CREATE FUNCTION campusloop_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM campusloop_publish(ARRAY[OLD.user_id], jsonb_build_object('type', 'sessionEnded', 'session', OLD.token_hash));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_live_ended AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION campusloop_session_ended();
