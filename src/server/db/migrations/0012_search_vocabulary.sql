-- The catalogue's vocabulary for correcting misspelt searches (features/items/vocabulary.ts).
-- Search used to OR the full-text match with trigram word similarity over every item's whole text and
-- rank by it: ~70 ms for a two-word search on 10,000 items, most of it in pg_trgm. Now a misspelt word
-- is corrected against this small table of distinct words first, and one indexed tsquery does the rest.
-- "C" collation: `word LIKE 'calc%'` reads the primary key's btree.
CREATE TABLE "search_words" (
	"word" text COLLATE "C" PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "items_search_text_trgm_idx";--> statement-breakpoint
DROP INDEX "items_title_trgm_idx";--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint

-- The words of a set of items' search text, 2 to 40 characters (longer ones are noise: serial numbers,
-- URLs). Sorted, so two transactions learning the same new words lock them in the same order and
-- cannot deadlock.
CREATE FUNCTION campusloop_learn_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT lexeme
  FROM new_rows, unnest(tsvector_to_array(to_tsvector('simple', new_rows.search_text))) AS lexeme
  WHERE length(lexeme) BETWEEN 2 AND 40
  ORDER BY lexeme
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER items_learn_words_insert AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_learn_words();--> statement-breakpoint
CREATE TRIGGER items_learn_words_update AFTER UPDATE ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_learn_words();--> statement-breakpoint

-- The words of the items that exist already.
INSERT INTO search_words (word)
SELECT DISTINCT lexeme
FROM items, unnest(tsvector_to_array(to_tsvector('simple', items.search_text))) AS lexeme
WHERE length(lexeme) BETWEEN 2 AND 40
ON CONFLICT DO NOTHING;
