import type { Db } from '../db/index.js';
import { services } from '../db/schema.js';
import { cachedSearch } from '../search/cache.js';
import { TOTAL_CAP } from '../search/pages.js';
import { serviceMatch } from '../search/services.js';
import { indexedQuery } from '../search/wordIndex.js';
import type { MapFilter } from './MapCache.js';

/**
 * Most matches of a text query the map shows: as many as the services search counts (beyond it
 * the search says "1000+").
 */
export const MAP_TEXT_LIMIT = TOTAL_CAP;

interface TextQuery extends MapFilter {
  q: string;
}

/**
 * The ids, joined by commas, of the services the services search matches for the query with
 * `onMap` (its text and filters: through the search's word index, else the search's own SQL
 * conditions), at most MAP_TEXT_LIMIT;
 * null when the text has no word to match. Kept in the search cache, so retired by the same
 * writes as search pages.
 */
const cachedIds = cachedSearch(
  'map',
  async (db: Db, query: TextQuery): Promise<string | null> => {
    // The word index's matches (the search's own, see wordIndex.ts) when it is there.
    const indexed = await indexedQuery(db, query.q);
    if (indexed) {
      if (!indexed.tq) return null;
      const slots = indexed.index.match(indexed.tq, {
        country: query.country,
        category: query.category ?? 'all',
        online: query.online,
        onMap: true,
      });
      return slots
        .slice(0, MAP_TEXT_LIMIT)
        .map((s) => indexed.index.id(s))
        .join(',');
    }
    const { tq, where } = await serviceMatch(db, {
      q: query.q,
      country: query.country,
      category: query.category ?? 'all',
      online: query.online,
      onMap: true,
    });
    if (!tq) return null;
    const rows = await db
      .select({ id: services.id })
      .from(services)
      .where(where)
      .limit(MAP_TEXT_LIMIT);
    return rows.map((r) => r.id).join(',');
  },
  { parse: (value) => value },
  { scope: (query) => ({ country: query.country, text: true, vacancies: false }) },
);

/**
 * The ids of the services a text query picks on the map (see cachedIds); null when it picks by
 * the filters alone (no `q`, or a `q` without a word to match, as the search treats it).
 */
export async function textMatches(db: Db, filter: MapFilter, q?: string): Promise<string[] | null> {
  if (!q) return null;
  const ids = await cachedIds.page(db, {
    q,
    country: filter.country,
    category: filter.category,
    online: filter.online,
  });
  if (ids === null) return null;
  return ids ? ids.split(',') : [];
}
