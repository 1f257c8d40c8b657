-- Document counts of the search words (src/search/searchQuery.ts, docs/performance.md § Search).
--
-- search_words.services_n: how many approved services have the word in their search document,
-- kept exact by statement triggers on services (insert, update, delete, truncate) and by
-- poruch_rebuild_search_words(). A query of one word matches at least as many services as its
-- most frequent word (the word itself, a word it starts, or a correction): when that is more
-- than the total cap of a page, the page says "1000+" without counting the matches, which was
-- the largest part of a frequent word's search (a scan of about 1000 / frequency rows).
--
-- poruch_query_words() replaces poruch_similar_words() (migration 0009): the same typo
-- candidates, each with its count, and the largest count of the words a query word starts, in
-- one statement.
ALTER TABLE search_words ADD COLUMN services_n integer NOT NULL DEFAULT 0;
--> statement-breakpoint
-- Byte-wise order: the words a query word starts are one range (~>=~ and ~<=~), whatever the
-- database's collation.
CREATE INDEX search_words_prefix_idx ON search_words (word text_pattern_ops) INCLUDE (services_n);
--> statement-breakpoint
-- The change of the counts by a statement: +1 per approved new row, -1 per approved old row, for
-- each word of the row's document (only the words search_words keeps), zero changes dropped.
-- Upserted in word order, so two writers lock the rows they share in the same order.
CREATE OR REPLACE FUNCTION poruch_count_service_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF poruch_search_bulk() THEN RETURN NULL; END IF;
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE search_words SET services_n = 0 WHERE services_n <> 0;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO search_words AS s (word, services_n)
    SELECT w, count(*)::int FROM new_rows, unnest(tsvector_to_array(new_rows.search_doc)) AS w
     WHERE new_rows.status = 'approved' AND length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
     GROUP BY w ORDER BY w
    ON CONFLICT (word) DO UPDATE SET services_n = s.services_n + excluded.services_n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO search_words AS s (word, services_n)
    SELECT w, -count(*)::int FROM old_rows, unnest(tsvector_to_array(old_rows.search_doc)) AS w
     WHERE old_rows.status = 'approved' AND length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
     GROUP BY w ORDER BY w
    ON CONFLICT (word) DO UPDATE SET services_n = s.services_n + excluded.services_n;
  ELSE
    -- Most updates change neither the document nor whether the service is approved (a "used"
    -- mark, a map toggle): nothing to count.
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
       WHERE (n.status = 'approved') <> (o.status = 'approved')
          OR (n.status = 'approved' AND n.search_doc IS DISTINCT FROM o.search_doc)) THEN
      RETURN NULL;
    END IF;
    INSERT INTO search_words AS s (word, services_n)
    SELECT w, sum(d)::int FROM (
      SELECT w, 1 AS d FROM new_rows, unnest(tsvector_to_array(new_rows.search_doc)) AS w
       WHERE new_rows.status = 'approved'
      UNION ALL
      SELECT w, -1 FROM old_rows, unnest(tsvector_to_array(old_rows.search_doc)) AS w
       WHERE old_rows.status = 'approved'
    ) x WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
     GROUP BY w HAVING sum(d) <> 0 ORDER BY w
    ON CONFLICT (word) DO UPDATE SET services_n = s.services_n + excluded.services_n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER services_word_counts_insert AFTER INSERT ON services
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_count_service_words();
--> statement-breakpoint
CREATE TRIGGER services_word_counts_update AFTER UPDATE ON services
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_count_service_words();
--> statement-breakpoint
CREATE TRIGGER services_word_counts_delete AFTER DELETE ON services
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_count_service_words();
--> statement-breakpoint
CREATE TRIGGER services_word_counts_truncate AFTER TRUNCATE ON services
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_count_service_words();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_rebuild_search_words() RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_words;
  INSERT INTO search_words (word, services_n)
  SELECT w, count(*) FILTER (WHERE approved)::int FROM (
    SELECT unnest(tsvector_to_array(search_doc)) AS w, status = 'approved' AS approved
      FROM services
    UNION ALL SELECT unnest(tsvector_to_array(search_doc)), false FROM vacancies
  ) t WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  GROUP BY w;
$$;
--> statement-breakpoint
UPDATE search_words s SET services_n = c.n
  FROM (SELECT w, count(*)::int AS n FROM services, unnest(tsvector_to_array(search_doc)) AS w
         WHERE status = 'approved' GROUP BY w) c
 WHERE s.word = c.w;
--> statement-breakpoint
DROP FUNCTION poruch_similar_words(json, json, float8, int);
--> statement-breakpoint
-- wanted: [{t, k, th}] query words, allowed edits, their trigram floor; swaps: [{t, v}] words one
-- transposition away, looked up exactly; prefixes: query words whose largest count is wanted.
-- Returns (token, word, sim, docs): typo candidates with their counts (the caller checks the
-- edit distance), per prefix one row with a NULL word and the largest count of the words it
-- starts, and with prefixes one row with a NULL token and the planner's estimate of the number
-- of services (pg_class.reltuples; 0 before the first ANALYZE). Sets the trigram threshold for itself only (outside a transaction block the
-- statement is its own transaction).
CREATE OR REPLACE FUNCTION poruch_query_words(
  wanted json, swaps json, threshold float8, max_candidates int, prefixes json
) RETURNS TABLE (token text, word text, sim float8, docs integer) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM set_config('pg_trgm.similarity_threshold', threshold::text, true);
  RETURN QUERY
    SELECT q.t, c.word, c.sim, c.services_n
      FROM json_to_recordset(wanted) AS q(t text, k int, th float8)
      CROSS JOIN LATERAL (
        SELECT w.word, similarity(w.word, q.t)::float8 AS sim, w.services_n
          FROM search_words w
         WHERE w.word % q.t
           AND length(w.word) BETWEEN length(q.t) - q.k - 2 AND length(q.t) + q.k + 2
           AND w.word <> q.t
         ORDER BY 2 DESC
         LIMIT max_candidates
      ) c
     WHERE c.sim >= q.th
    UNION ALL
    SELECT q.t, w.word, 1.0::float8, w.services_n
      FROM json_to_recordset(swaps) AS q(t text, v text)
      JOIN search_words w ON w.word = q.v
    UNION ALL
    SELECT p.t, NULL::text, NULL::float8,
           (SELECT coalesce(max(w.services_n), 0) FROM search_words w
             WHERE w.word ~>=~ p.t AND w.word ~<=~ (p.t || chr(1114111)))
      FROM json_array_elements_text(prefixes) AS p(t)
    UNION ALL
    SELECT NULL::text, NULL::text, NULL::float8, greatest(c.reltuples, 0)::int
      FROM pg_class c WHERE c.oid = 'services'::regclass AND json_array_length(prefixes) > 0;
END $$;
--> statement-breakpoint
-- The first `n` matches of a text query over all approved services, read through the GIN index
-- of the documents (src/search/index.ts, rankedPage: used for a word in few services). The
-- planner often estimates a word's or a prefix's matches 2 to 4 times too high and would read
-- the table in order until n rows match; the function's own setting rules that plan out, for
-- its statement only.
CREATE OR REPLACE FUNCTION poruch_first_service_matches(q tsquery, n int)
RETURNS TABLE (id uuid, doc tsvector, created_at timestamptz, lat float8, lng float8)
LANGUAGE sql STABLE SET enable_seqscan = off AS $$
  SELECT s.id, s.search_doc, s.created_at, s.lat, s.lng FROM services s
   WHERE s.search_doc @@ q AND s.status = 'approved'
   LIMIT n
$$;
