-- drizzle-kit does not write CREATE EXTENSION; later migrations need these.
-- pg_trgm: typo-tolerant search. btree_gist: the no-overlap constraint on approved reservations.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gist;
