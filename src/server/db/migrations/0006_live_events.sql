-- Live events: every new notification, every new chat message and every change of an unread
-- count is announced on the channel campusloop_events with pg_notify. PostgreSQL delivers a NOTIFY only
-- when its transaction commits, so nobody hears of a row that was rolled back, and whichever feature or
-- job writes the row, in whichever server instance, the sockets of every instance hear of it.
-- Payload: {"userIds": [...], "event": {...}}, read by src/server/plugins/realtime-hub.ts.

CREATE FUNCTION campusloop_iso(ts timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
CREATE FUNCTION campusloop_publish(user_ids uuid[], event jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('campusloop_events', jsonb_build_object('userIds', to_jsonb(user_ids), 'event', event)::text)
$$;
--> statement-breakpoint
CREATE FUNCTION campusloop_notification_unread(uid uuid) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT count(*)::integer FROM notifications WHERE user_id = uid AND NOT is_read
$$;
--> statement-breakpoint
CREATE FUNCTION campusloop_chat_unread(uid uuid) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT count(*)::integer
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE (c.buyer_id = uid OR c.seller_id = uid) AND m.sender_id <> uid AND NOT m.is_read
$$;
--> statement-breakpoint
CREATE FUNCTION campusloop_notification_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM campusloop_publish(ARRAY[NEW.user_id], jsonb_build_object(
    'type', 'notification',
    'notification', jsonb_build_object(
      'id', NEW.id,
      'type', NEW.type,
      'title', NEW.title,
      'message', NEW.message,
      'relatedReservationId', NEW.related_reservation_id,
      'relatedItemId', NEW.related_item_id,
      'isRead', NEW.is_read,
      'createdAt', campusloop_iso(NEW.created_at)
    ),
    'unreadCount', campusloop_notification_unread(NEW.user_id)
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_live_insert AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION campusloop_notification_inserted();
--> statement-breakpoint
-- One event per person per statement: 'Mark all read' over 200 rows says it once.
CREATE FUNCTION campusloop_notifications_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  uid uuid;
BEGIN
  FOR uid IN SELECT DISTINCT n.user_id FROM changed n JOIN previous o ON o.id = n.id WHERE n.is_read IS DISTINCT FROM o.is_read LOOP
    PERFORM campusloop_publish(ARRAY[uid], jsonb_build_object(
      'type', 'notificationCount',
      'unreadCount', campusloop_notification_unread(uid)
    ));
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_live_update AFTER UPDATE ON notifications
  REFERENCING OLD TABLE AS previous NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_notifications_updated();
--> statement-breakpoint
CREATE FUNCTION campusloop_message_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
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
      'createdAt', campusloop_iso(NEW.created_at)
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
CREATE TRIGGER messages_live_insert AFTER INSERT ON messages
  FOR EACH ROW EXECUTE FUNCTION campusloop_message_inserted();
--> statement-breakpoint
-- Reading a conversation clears the reader's badge in every tab they have open.
CREATE FUNCTION campusloop_messages_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  uid uuid;
BEGIN
  FOR uid IN
    SELECT DISTINCT CASE WHEN n.sender_id = c.buyer_id THEN c.seller_id ELSE c.buyer_id END
    FROM changed n
    JOIN previous o ON o.id = n.id
    JOIN conversations c ON c.id = n.conversation_id
    WHERE n.is_read IS DISTINCT FROM o.is_read
  LOOP
    PERFORM campusloop_publish(ARRAY[uid], jsonb_build_object(
      'type', 'chatUnreadCount',
      'count', campusloop_chat_unread(uid)
    ));
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER messages_live_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS previous NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_messages_updated();
