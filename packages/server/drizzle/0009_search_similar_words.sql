-- Typo candidates in one statement (src/search/searchQuery.ts, findCorrections). The trigram
-- threshold of pg_trgm's % operator is a setting; it was set for a transaction of its own
-- (BEGIN, set_config, the lookup, COMMIT: four statements per search). This function sets it
-- with set_config(…, true) and runs the lookup: outside a transaction block the statement is its
-- own transaction, so the setting ends with it.
--
-- wanted: [{t, k, th}] query words, allowed edits, their trigram floor; swaps: [{t, v}] words
-- one transposition away, looked up exactly. Returns (token, word, sim) candidates; the caller
-- checks the edit distance.
CREATE OR REPLACE FUNCTION poruch_similar_words(
  wanted json, swaps json, threshold float8, max_candidates int
) RETURNS TABLE (token text, word text, sim float8) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM set_config('pg_trgm.similarity_threshold', threshold::text, true);
  RETURN QUERY
    SELECT q.t, c.word, c.sim
      FROM json_to_recordset(wanted) AS q(t text, k int, th float8)
      CROSS JOIN LATERAL (
        SELECT w.word, similarity(w.word, q.t)::float8 AS sim
          FROM search_words w
         WHERE w.word % q.t
           AND length(w.word) BETWEEN length(q.t) - q.k - 2 AND length(q.t) + q.k + 2
           AND w.word <> q.t
         ORDER BY 2 DESC
         LIMIT max_candidates
      ) c
     WHERE c.sim >= q.th
    UNION ALL
    SELECT q.t, w.word, 1.0::float8
      FROM json_to_recordset(swaps) AS q(t text, v text)
      JOIN search_words w ON w.word = q.v;
END $$;
