-- Typo corrections found in memory (src/search/wordIndex.ts) and by this function are the same
-- (src/search/searchQuery.ts, WordSource):
--
-- * candidates of equal similarity are taken in word order (byte order), so which of them the
--   limit keeps no longer depends on the plan;
-- * `min_services`: only words of at least that many approved services (search_words.services_n,
--   migration 0010). A services search asks for 1 (a correction to a word no approved service has
--   matches nothing and took a correction's place); vacancies and alerts ask for 0, as before.
DROP FUNCTION poruch_query_words(json, json, float8, int, json);
--> statement-breakpoint
CREATE FUNCTION poruch_query_words(
  wanted json, swaps json, threshold float8, max_candidates int, prefixes json, min_services int
) RETURNS TABLE (token text, word text, sim float8, docs integer, docs_sum bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM set_config('pg_trgm.similarity_threshold', threshold::text, true);
  RETURN QUERY
    SELECT q.t, c.word, c.sim, c.services_n, NULL::bigint
      FROM json_to_recordset(wanted) AS q(t text, k int, th float8)
      CROSS JOIN LATERAL (
        SELECT w.word, similarity(w.word, q.t)::float8 AS sim, w.services_n
          FROM search_words w
         WHERE w.word % q.t
           AND length(w.word) BETWEEN length(q.t) - q.k - 2 AND length(q.t) + q.k + 2
           AND w.word <> q.t
           AND w.services_n >= min_services
         ORDER BY 2 DESC, w.word COLLATE "C"
         LIMIT max_candidates
      ) c
     WHERE c.sim >= q.th
    UNION ALL
    SELECT q.t, w.word, 1.0::float8, w.services_n, NULL::bigint
      FROM json_to_recordset(swaps) AS q(t text, v text)
      JOIN search_words w ON w.word = q.v AND w.services_n >= min_services
    UNION ALL
    SELECT p.t, NULL::text, NULL::float8, coalesce(max(w.services_n), 0)::int,
           coalesce(sum(w.services_n), 0)::bigint
      FROM json_array_elements_text(prefixes) AS p(t)
      LEFT JOIN search_words w ON w.word ~>=~ p.t AND w.word ~<=~ (p.t || chr(1114111))
     GROUP BY p.t
    UNION ALL
    SELECT NULL::text, NULL::text, NULL::float8, greatest(c.reltuples, 0)::int, NULL::bigint
      FROM pg_class c WHERE c.oid = 'services'::regclass AND json_array_length(prefixes) > 0;
END $$;
