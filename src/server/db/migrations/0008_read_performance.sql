DROP INDEX "items_campus_created_idx";--> statement-breakpoint
DROP INDEX "items_created_idx";--> statement-breakpoint
DROP INDEX "items_available_created_idx";--> statement-breakpoint
CREATE INDEX "items_campus_created_idx" ON "items" USING btree ("campus","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "items_created_idx" ON "items" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "items_available_created_idx" ON "items" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "items"."deleted_at" is null and "items"."is_available";--> statement-breakpoint
-- Read caches (src/server/cache): every server instance keeps recent answers of the public catalogue
-- (lists, search, item pages, profiles), of sessions, and of unread polls in memory. Any change to a
-- table they are built from is announced on the channel campusloop_cache with the table's name, when
-- the writing transaction commits, whichever instance, job or script wrote it; each instance drops
-- what depends on that table. One announcement per statement, and PostgreSQL folds identical ones in a
-- transaction into one, so a bulk write costs a single NOTIFY.
CREATE FUNCTION campusloop_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('campusloop_cache', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER items_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
CREATE TRIGGER reservations_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reservations
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
CREATE TRIGGER users_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
CREATE TRIGGER reviews_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reviews
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
CREATE TRIGGER user_badges_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_badges
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
-- A new session is never in a cache; an ended or changed one must leave it.
CREATE TRIGGER sessions_cache AFTER UPDATE OR DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
-- New rows and read marks reach the unread caches person by person through the live events (0006);
-- a deletion has no live event, so it empties those caches.
CREATE TRIGGER notifications_cache AFTER DELETE OR TRUNCATE ON notifications
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
CREATE TRIGGER messages_cache AFTER DELETE OR TRUNCATE ON messages
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
--> statement-breakpoint
CREATE TRIGGER conversations_cache AFTER DELETE OR TRUNCATE ON conversations
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_table_changed();
