-- hand-written:
-- A chat message in one round trip. The send counted the sender's messages of the window under a lock
-- on the sender, in a transaction of its own: BEGIN, the lock, the send, COMMIT, four round trips,
-- each waiting its turn on a busy server (about 9 ms each under the campus day's reads). The lock must
-- come before the count, and the count must see every send that held the lock before: a single
-- statement's snapshot is taken before it waits for a lock, so the send is a function, whose statements
-- each take their own snapshot (a VOLATILE function's do). The lock is the transaction's, so it is
-- held to the end of the statement that calls this, or of the transaction around it.
CREATE FUNCTION campusloop_send_message(
  p_conversation uuid, p_sender uuid, p_content text, p_max integer, p_window_seconds integer
) RETURNS TABLE (
  is_party boolean, retry_ms integer, id uuid, conversation_id uuid, sender_id uuid, content text,
  is_read boolean, created_at text, seq bigint, recipient_id uuid
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  -- One send of a person at a time, on every instance (the same key the send used before).
  PERFORM pg_advisory_xact_lock(hashtextextended('chat-send:' || p_sender::text, 0));
  RETURN QUERY
  WITH budget AS (
    SELECT count(*) AS sent,
      ceil(extract(epoch FROM min(m.created_at) + make_interval(secs => p_window_seconds)
        - clock_timestamp()) * 1000)::int AS retry_ms
    FROM messages m
    WHERE m.sender_id = p_sender
      AND m.created_at > clock_timestamp() - make_interval(secs => p_window_seconds)
  ), party AS (
    SELECT c.id,
      CASE WHEN c.buyer_id = p_sender THEN c.seller_id ELSE c.buyer_id END AS recipient_id
    FROM conversations c
    WHERE c.id = p_conversation AND (c.buyer_id = p_sender OR c.seller_id = p_sender)
  ), inserted AS (
    INSERT INTO messages (conversation_id, sender_id, content, created_at)
    SELECT party.id, p_sender, p_content, date_trunc('milliseconds', clock_timestamp())
    FROM party, budget WHERE budget.sent < p_max
    RETURNING messages.id, messages.conversation_id, messages.sender_id, messages.content,
      messages.is_read, messages.created_at, messages.seq
  ), touched AS (
    UPDATE conversations c SET last_message_at = greatest(c.last_message_at, inserted.created_at)
    FROM inserted WHERE c.id = inserted.conversation_id
  )
  SELECT party.id IS NOT NULL, budget.retry_ms, inserted.id, inserted.conversation_id,
    inserted.sender_id, inserted.content, inserted.is_read, campusloop_iso(inserted.created_at),
    inserted.seq, party.recipient_id
  FROM budget LEFT JOIN party ON true LEFT JOIN inserted ON true;
END $$;
