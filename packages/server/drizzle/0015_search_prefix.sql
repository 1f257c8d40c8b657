-- Search as you type (src/search/searchQuery.ts, pages.ts; docs/performance.md § Search): every
-- prefix a visitor types is a search no one asked before. poruch_query_words() (migration 0010)
-- now also answers, per counted query word, the sum of the counts of the words it starts: the
-- services it matches are at most that many (with its corrections' counts). A query whose words
-- are rare by that bound reads its matches through the GIN index of the documents instead of
-- reading the table in order until enough match, which for a rare prefix meant reading it all.
DROP FUNCTION poruch_query_words(json, json, float8, int, json);
--> statement-breakpoint
-- As in migration 0010, plus `docs_sum`: on the row of a counted word (NULL word), the sum of the
-- counts of the words it starts; on the other rows, NULL.
CREATE FUNCTION poruch_query_words(
  wanted json, swaps json, threshold float8, max_candidates int, prefixes json
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
         ORDER BY 2 DESC
         LIMIT max_candidates
      ) c
     WHERE c.sim >= q.th
    UNION ALL
    SELECT q.t, w.word, 1.0::float8, w.services_n, NULL::bigint
      FROM json_to_recordset(swaps) AS q(t text, v text)
      JOIN search_words w ON w.word = q.v
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
