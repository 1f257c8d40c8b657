import { sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';

/**
 * The words whose document count (`search_words.services_n`, migration 0010) differs from a
 * recount over the approved services: empty when the counts are exact.
 */
export async function miscountedWords(
  db: Db,
): Promise<{ word: string; stored: number; actual: number }[]> {
  const res = await db.execute(sql`
    WITH actual AS (
      SELECT w, count(*)::int AS n FROM services, unnest(tsvector_to_array(search_doc)) AS w
       WHERE status = 'approved' AND length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
       GROUP BY w)
    SELECT coalesce(s.word, a.w) AS word, coalesce(s.services_n, 0) AS stored,
           coalesce(a.n, 0) AS actual
      FROM search_words s FULL JOIN actual a ON a.w = s.word
     WHERE coalesce(s.services_n, 0) <> coalesce(a.n, 0) OR s.word IS NULL
     ORDER BY 1 LIMIT 20`);
  return (res as unknown as { rows: { word: string; stored: number; actual: number }[] }).rows;
}
