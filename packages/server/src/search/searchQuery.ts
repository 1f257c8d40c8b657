import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { editDistance } from './editDistance.js';
import { queryTokens } from './normalize.js';

/** Edits a query word may be away from a stored word: 1 from 4 letters, 2 from 8. */
export function allowedEdits(word: string): number {
  if (/^[0-9]+$/.test(word)) return 0;
  if (word.length >= 8) return 2;
  if (word.length >= 4) return 1;
  return 0;
}

/**
 * The trigram similarity below which a word `n` letters long is surely more than `k` edits away,
 * so pg_trgm can skip it. Of its n + 1 padded trigrams, a transposition breaks at most four and a
 * substitution three; this allows one transposition for k = 1 and two substitutions for k = 2.
 * Never below 0.2, or short words would scan half the index.
 */
function trigramFloor(n: number, k: number): number {
  const broken = k === 1 ? 4 : 6;
  return Math.max(0.2, (n + 1 - broken) / (n + 1 + broken) - 0.01);
}

/** How many corrections one query word may bring in. */
const MAX_CORRECTIONS = 6;
/** Trigram candidates looked at per query word before the edit-distance check. */
const MAX_CANDIDATES = 60;

/**
 * Stored words within the allowed edit distance of each query word: pg_trgm finds candidates
 * in `search_words` through its trigram index, then the exact distance is checked here. The
 * similarity threshold is set for this transaction only (`set_config(…, true)`).
 */
export async function findCorrections(db: Db, tokens: string[]): Promise<Map<string, string[]>> {
  const wanted = tokens
    .map((t) => ({ t, k: allowedEdits(t) }))
    .filter((w) => w.k > 0)
    .map((w) => ({ ...w, th: trigramFloor(w.t.length, w.k) }));
  const result = new Map<string, string[]>();
  if (!wanted.length) return result;
  const threshold = Math.min(...wanted.map((w) => w.th));
  const rows = await db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT set_config('pg_trgm.similarity_threshold', ${String(threshold)}, true)`,
    );
    const res = await tx.execute(sql`
      SELECT q.t AS token, c.word, c.sim
        FROM json_to_recordset(${JSON.stringify(wanted)}::json) AS q(t text, k int, th float8)
        CROSS JOIN LATERAL (
          SELECT w.word, similarity(w.word, q.t) AS sim
            FROM search_words w
           WHERE w.word % q.t
             AND length(w.word) BETWEEN length(q.t) - q.k AND length(q.t) + q.k
             AND w.word <> q.t
           ORDER BY sim DESC
           LIMIT ${MAX_CANDIDATES}
        ) c
       WHERE c.sim >= q.th`);
    return (res as unknown as { rows: { token: string; word: string; sim: number }[] }).rows;
  });
  for (const { t, k } of wanted) {
    const found = rows
      .filter((r) => r.token === t)
      .map((r) => ({ word: r.word, sim: Number(r.sim), d: editDistance(t, r.word, k) }))
      .filter((c) => c.d <= k)
      .sort((a, b) => a.d - b.d || b.sim - a.sim)
      .slice(0, MAX_CORRECTIONS)
      .map((c) => c.word);
    if (found.length) result.set(t, found);
  }
  return result;
}

/** The text-search queries of one user query (`to_tsquery('simple', …)` syntax). */
export interface TextQuery {
  /** The query words, as search keys. */
  tokens: string[];
  /** Every word, each as itself, a prefix or a correction: what a result must match. */
  match: string;
  /** Any word, whole: ranks whole-word hits first. */
  exact: string;
  /** Any word as a prefix: ranks prefix hits above corrections. */
  prefix: string;
  corrections: Map<string, string[]>;
}

/**
 * Turns what the user typed into text-search queries: normalised, transliterated words; each
 * matches itself, any word it starts (results as you type) and stored words within the allowed
 * typo distance; all words must match. Null when the query has no searchable word.
 */
export async function buildTextQuery(db: Db, q: string | undefined): Promise<TextQuery | null> {
  const tokens = q ? queryTokens(q) : [];
  if (!tokens.length) return null;
  const corrections = await findCorrections(db, tokens);
  const match = tokens
    .map((t) => `(${[`${t}:*`, ...(corrections.get(t) ?? [])].join(' | ')})`)
    .join(' & ');
  return {
    tokens,
    match,
    exact: tokens.join(' | '),
    prefix: tokens.map((t) => `${t}:*`).join(' | '),
    corrections,
  };
}

/**
 * The relevance of a document: whole words count most, then prefixes, then corrections; within
 * each, ts_rank's weights put the name (A) over descriptions (B) over address, city and
 * category labels (C).
 */
export function rankExpression(doc: ReturnType<typeof sql>, tq: TextQuery) {
  return sql`(ts_rank(${doc}, to_tsquery('simple', ${tq.exact}))
    + 0.5 * ts_rank(${doc}, to_tsquery('simple', ${tq.prefix}))
    + 0.2 * ts_rank(${doc}, to_tsquery('simple', ${tq.match})))`;
}
