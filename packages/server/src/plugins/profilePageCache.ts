import type { Db } from '../db/index.js';
import { MAX_AGE_MS, searchCacheStamp } from '../search/cache.js';

/** Pages kept: the most viewed profiles; each is a few kilobytes (plus its compressed forms). */
const MAX_ENTRIES = 300;

/**
 * Recent profile pages (the server-drawn first screen of `/services/:id`, and the JSON of
 * `GET /api/v1/services/:id`), so a repeated view costs a map lookup instead of two queries and
 * a render (and, for the page, a compression). Retired as search pages
 * are (`searchCacheStamp`, search/cache.ts): every write to services or vacancies (approval,
 * decline, edit, map visibility, deletion, a vacancy, a used mark) notifies `poruch_search`, and
 * this process sees its own writes' notification before the write returns, so no page shown
 * after a write through this server predates it. Only found pages are kept: an unapproved or
 * missing id reads the database every time, and random ids cannot push real pages out.
 */
export class ProfilePageCache<T extends object> {
  private readonly entries = new Map<string, { at: number; page: T }>();
  /** The stamp every kept page was computed under; a different one retires them all. */
  private stamp: string | null = null;

  /** @param max Pages kept, least recently used dropped first. Defaults to 300. */
  constructor(private readonly max = MAX_ENTRIES) {}

  /** The page of `key`, kept from an earlier view unless anything was written since. */
  async get(db: Db, key: string, compute: () => Promise<T | null>): Promise<T | null> {
    const stamp = await searchCacheStamp(db);
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    }
    const hit = stamp === null ? undefined : this.entries.get(key);
    if (hit && Date.now() - hit.at < MAX_AGE_MS) {
      // Most recently used last, so eviction drops the least recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.page;
    }
    const at = Date.now();
    const page = await compute();
    // Kept under the stamp read before the reads: a write committed meanwhile changes the stamp,
    // which retires this page at the next lookup. If a lookup has seen a newer stamp already,
    // the page may predate it and is not kept.
    if (page !== null && stamp !== null && this.stamp === stamp) {
      this.entries.delete(key);
      this.entries.set(key, { at, page });
      if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return page;
  }

  /** Pages kept now (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}
