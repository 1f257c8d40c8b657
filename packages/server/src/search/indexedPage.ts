import type { Count } from './pages.js';
import type { TextQuery } from './searchQuery.js';
import type { SummaryRow } from './summary.js';
import type { IndexFilter, IndexView } from './wordIndex.js';

/**
 * A text query's page through the word index (wordIndex.ts), without a statement: the index finds
 * every match (the total), ranks them all with its port of ts_rank (bit-exact: the same float4
 * steps), orders them as the search does (demoted last, rank, newest, id) and gives the page's
 * rows from the summaries it keeps. So the order is PostgreSQL's, over all matches (the SQL path
 * ranks a bounded sample of a frequent word's matches, see rankedPage).
 */

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
  /** The distances of the page's services (by id), when the search has a point. */
  distances?: (ids: string[]) => Promise<Map<string, number | null>>;
}

/** The page's rows and the count (the map takes its ids from `IndexView.match` itself). */
export async function indexedPage(
  o: IndexedOptions,
): Promise<{ rows: SummaryRow[]; count: Count }> {
  const { index, tq } = o;
  const want = o.page * o.pageSize;
  const offset = want - o.pageSize;
  const listed = o.byRank ? index.prefixPage(tq, o.filter, want, o.cap) : undefined;
  if (listed) {
    const n = listed.n;
    const count: Count = n > o.cap ? { n: o.cap, capped: true } : { n, capped: false };
    return { rows: await rowsOf(o, listed.slots.slice(offset)), count };
  }
  const slots = index.match(tq, o.filter);
  const n = slots.length;
  const count: Count = n > o.cap ? { n: o.cap, capped: true } : { n, capped: false };
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
  const page = top(all, want, before)
    .slice(offset)
    .map((i) => slots[i]!);
  return { rows: await rowsOf(o, page), count };
}

/** The rows of a page's slots, with their distances when the search has a point. */
async function rowsOf({ index, distances }: IndexedOptions, page: number[]): Promise<SummaryRow[]> {
  const km = page.length ? await distances?.(page.map((s) => index.id(s))) : undefined;
  return page.map((s) => ({ ...index.summary(s), distanceKm: km?.get(index.id(s)) ?? null }));
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
