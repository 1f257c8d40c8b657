import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/types.js';
import type { Count } from './pages.js';
import type { TextQuery } from './searchQuery.js';
import type { IndexFilter, IndexView } from './wordIndex.js';

/**
 * A text query's page through the word index (wordIndex.ts): the index finds every match (the
 * total) and ranks them all with its port of ts_rank; the best candidates go to one statement
 * that ranks them again with the search's own rank expression and returns the page's rows in
 * the final order. So the order is PostgreSQL's, over all matches (the SQL path ranks a bounded
 * sample of a frequent word's matches, see rankedPage).
 */

/**
 * Candidates past the page that SQL ranks too when the index's rank of them is within
 * RANK_MARGIN of the page's last one (float rounding could order them either way).
 */
const BAND = 100;
/** Relative rank difference within which the index's order is not trusted. */
const RANK_MARGIN = 1e-4;

export interface IndexedOptions {
  index: IndexView;
  tq: TextQuery;
  filter: IndexFilter;
  /** By rank (relevance), else newest first. */
  byRank: boolean;
  page: number;
  pageSize: number;
  /** Totals are counted up to this many matches. */
  cap: number;
  /** The page's rows from `ids` (a uuid[] of the candidates) in the page's order, with `ord`. */
  rows: (ids: SQL, order: 'rank' | 'newest') => SQL;
}

/** The page's rows and the count (the map takes its ids from `IndexView.match` itself). */
export async function indexedPage<R>(
  db: Db,
  o: IndexedOptions,
): Promise<{ rows: R[]; count: Count }> {
  const { index, tq } = o;
  const slots = index.match(tq, o.filter);
  const n = slots.length;
  const count: Count = n > o.cap ? { n: o.cap, capped: true } : { n, capped: false };
  const want = o.page * o.pageSize;
  const offset = want - o.pageSize;
  if (offset >= n) return { rows: [], count };
  const rank = o.byRank ? index.rank(tq, slots) : undefined;
  // The search's order over the matches' numbers (i into slots): demoted last, then rank,
  // newest, id.
  const before = (i: number, j: number): number => {
    const a = slots[i]!;
    const b = slots[j]!;
    const d = Number(index.demoted(a)) - Number(index.demoted(b));
    if (d) return d;
    if (rank) {
      const r = rank[j]! - rank[i]!;
      if (r) return r;
    }
    const c = index.created(b) - index.created(a);
    if (c) return c;
    const ia = index.id(a);
    const ib = index.id(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };
  const all = Array.from({ length: n }, (_, i) => i);
  const best = top(all, want + (rank ? BAND : 0), before);
  let chosen = best.slice(0, want);
  if (rank && best.length > want) {
    const last = best[want - 1]!;
    const r = rank[last]!;
    const margin = Math.abs(r) * RANK_MARGIN;
    const demoted = index.demoted(slots[last]!);
    chosen = chosen.concat(
      best
        .slice(want)
        .filter((i) => index.demoted(slots[i]!) === demoted && rank[i]! >= r - margin),
    );
  }
  const candidates = chosen.map((i) => slots[i]!);
  const ids = sql`${`{${candidates.map((s) => index.id(s)).join(',')}}`}::uuid[]`;
  const res = await db.execute(o.rows(ids, rank ? 'rank' : 'newest'));
  const rows = (res as unknown as { rows: (R & { ord: unknown })[] }).rows.map(
    ({ ord: _ord, ...row }) => row as unknown as R,
  );
  return { rows, count };
}

/** The first `k` of `items` in the order of `before` (a bounded insertion into a sorted buffer). */
function top(items: number[], k: number, before: (a: number, b: number) => number): number[] {
  if (items.length <= k * 4) return [...items].sort(before).slice(0, k);
  const buf: number[] = [];
  for (const s of items) {
    if (buf.length === k && before(s, buf[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(buf[mid]!, s) <= 0) lo = mid + 1;
      else hi = mid;
    }
    buf.splice(lo, 0, s);
    if (buf.length > k) buf.pop();
  }
  return buf;
}
