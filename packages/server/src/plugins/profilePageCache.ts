import type { Db } from '../db/index.js';
import { changedServices, MAX_AGE_MS, searchCacheView, type Change } from '../search/cache.js';

/** Pages kept: the most viewed profiles; each is a few kilobytes (plus its compressed forms). */
const MAX_ENTRIES = 300;

interface Kept<T> {
  at: number;
  page: T;
  /** The service it shows. */
  service: string;
}

/**
 * Recent profile pages (the server-drawn first screen of `/services/:id`, and the JSON of
 * `GET /api/v1/services/:id`), so a repeated view costs a map lookup instead of two queries and
 * a render (and, for the page, a compression). Retired by the notifications that retire search
 * pages (`searchCacheView`, search/cache.ts), but only the profiles of the services a write
 * changed: the service itself, its vacancies or its used count (a used mark retires that one
 * profile). A report writes none of these tables and retires nothing. This process sees its own
 * writes' notification before the write returns, so no page shown after a write through this
 * server predates it. Only found pages are kept: an unapproved or missing id reads the database
 * every time, and random ids cannot push real pages out.
 */
export class ProfilePageCache<T extends object> {
  private readonly entries = new Map<string, Kept<T>>();
  /** The stamp every kept page was computed under; a different one retires them all. */
  private stamp: string | null = null;
  /** The changes seen when the pages were last checked against them. */
  private seq = 0;

  /**
   * @param serviceOf The service a key's page shows: only changes of it retire the page.
   * @param max Pages kept, least recently used dropped first. Defaults to 300.
   */
  constructor(
    private readonly serviceOf: (key: string) => string,
    private readonly max = MAX_ENTRIES,
  ) {}

  /** The services whose pages `changes` could change. */
  private static touched(changes: Change[]): Set<string> {
    return new Set(changes.flatMap(changedServices));
  }

  /** The page of `key`, kept from an earlier view unless a write changed it since. */
  async get(db: Db, key: string, compute: () => Promise<T | null>): Promise<T | null> {
    const view = await searchCacheView(db);
    const { stamp, seq } = view;
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    } else if (seq !== this.seq) {
      const changes = view.since(this.seq);
      if (!changes) this.entries.clear();
      else {
        const touched = ProfilePageCache.touched(changes);
        if (touched.size)
          for (const [k, kept] of this.entries)
            if (touched.has(kept.service)) this.entries.delete(k);
      }
    }
    this.seq = seq;
    const hit = stamp === null ? undefined : this.entries.get(key);
    if (hit && Date.now() - hit.at < MAX_AGE_MS) {
      // Most recently used last, so eviction drops the least recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.page;
    }
    const at = Date.now();
    const page = await compute();
    // Kept under the view read before the reads: not if a lookup has seen a newer stamp already,
    // or a change that concerns it arrived meanwhile (the page may predate it).
    const service = this.serviceOf(key);
    const since = view.since(seq);
    if (
      page !== null &&
      stamp !== null &&
      this.stamp === stamp &&
      since !== null &&
      !ProfilePageCache.touched(since).has(service)
    ) {
      this.entries.delete(key);
      this.entries.set(key, { at, page, service });
      if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return page;
  }

  /** Pages kept now (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}
