import { createHash } from 'node:crypto';
import type { CategoryFilter, CategoryKey } from '@poruch/core';
import { count, eq, max, sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { services, settings } from '../db/schema.js';
import { MapIndex, toFeature, type MapFeature, type MapService, type MapView } from './MapIndex.js';
import { publiclyVisible } from '../search/visibility.js';

/** The filters that pick which services an index holds. */
export interface MapFilter {
  country?: string;
  /** A category key, `all` (no filter) or `empty` (no category). Defaults to all. */
  category?: CategoryFilter;
  /** Online services only (true), offline only (false), or both (undefined). */
  online?: boolean;
}

export interface MapCacheOptions {
  /** How often, at most, the catalogue version is asked of the database. Defaults to 1000 ms. */
  checkIntervalMs?: number;
  /**
   * How often, at most, the full fingerprint (count and latest `updated_at` of all services, a
   * scan: about 50 ms at 100k rows) is asked, to catch writes that did not call invalidateMap.
   * Defaults to 30 000 ms.
   */
  fullCheckIntervalMs?: number;
  /** How many filter combinations keep an index. Defaults to 32. */
  maxIndexes?: number;
  /** Where background failures go. Defaults to console.error. */
  onError?: (err: unknown) => void;
}

/** The settings row that writers bump so every instance notices a change at its next check. */
export const MAP_VERSION_KEY = 'map_version';

/** Every visible service, as read at one catalogue version. */
interface Snapshot {
  /** The full version: writers' counter, count and latest update of all services. */
  version: string;
  /** The writers' counter part of it. */
  token: string;
  features: MapFeature[];
  generation: number;
  /** The features by service id, built on first use (a text query's matches pick by id). */
  byId?: Map<string, MapFeature>;
}

interface Entry {
  version: string;
  index: MapIndex;
  filter: MapFilter;
}

let fromIndex = true;
/**
 * Off: a text query's matches are always clustered by an index built for them, as before
 * MapIndex.among (the benchmark's before and after).
 */
export function setMatchesFromIndex(on: boolean): void {
  fromIndex = on;
}

/** The cache key of a filter combination. */
export const filterKey = (f: MapFilter): string =>
  `${f.country ?? '*'}|${f.category ?? 'all'}|${f.online === undefined ? '*' : f.online ? '1' : '0'}`;

const matches = (f: MapFilter) => {
  const category = f.category ?? 'all';
  return (s: MapService) =>
    (f.country === undefined || s.countryCode === f.country) &&
    (category === 'all' ||
      (category === 'empty' ? s.category === null : s.category === category)) &&
    (f.online === undefined || s.isOnline === f.online);
};

/**
 * Map indexes per filter combination, built in memory from one lean SELECT of the visible
 * services and kept in an LRU.
 *
 * Freshness across instances: at most once per `checkIntervalMs` a request triggers a cheap
 * version check (the `map_version` settings row, plus count and latest `updated_at` of all
 * services). The request does not wait for it: it is answered from the index it has while a new
 * snapshot loads in the background (stale-while-revalidate). A change made through another
 * instance therefore shows up after at most checkIntervalMs plus one reload. `invalidate()`
 * (after a write on this instance) drops everything, so the next request waits for fresh data.
 */
export class MapCache {
  private readonly checkIntervalMs: number;
  private readonly fullCheckIntervalMs: number;
  private lastFullCheck = 0;
  private readonly maxIndexes: number;
  private readonly onError: (err: unknown) => void;
  private snapshot: Snapshot | null = null;
  private readonly entries = new Map<string, Entry>();
  /** Indexes of text queries' matches, by filters and the matches' digest (see `matching`). */
  private readonly matches = new Map<string, Entry>();
  private readonly rebuilding = new Set<string>();
  private loading: { generation: number; promise: Promise<void> } | null = null;
  private checking: Promise<void> | null = null;
  private lastCheck = 0;
  private generation = 0;
  private closed = false;
  private readonly timers = new Set<NodeJS.Immediate>();

  constructor(
    private readonly db: Db,
    options: MapCacheOptions = {},
  ) {
    this.checkIntervalMs = options.checkIntervalMs ?? 1000;
    this.fullCheckIntervalMs = options.fullCheckIntervalMs ?? 30_000;
    this.maxIndexes = options.maxIndexes ?? 32;
    this.onError = options.onError ?? ((err) => console.error('[poruch] map cache:', err));
  }

  /** The catalogue version the current snapshot was read at, if any. */
  get version(): string | null {
    return this.snapshot?.version ?? null;
  }

  /** The current snapshot (waits for one when there is none); starts a version check when due. */
  private async current(): Promise<Snapshot> {
    let snap = this.snapshot;
    while (!snap || snap.generation !== this.generation) {
      await this.load();
      snap = this.snapshot;
    }
    if (Date.now() - this.lastCheck >= this.checkIntervalMs) void this.check();
    return snap;
  }

  /** The index for a filter combination: built on first use, then served until it is stale. */
  async get(filter: MapFilter): Promise<{ index: MapIndex; version: string }> {
    const snap = await this.current();

    const key = filterKey(filter);
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      if (entry.version !== snap.version) this.scheduleRebuild(key, filter);
      return entry;
    }
    return this.build(key, filter, snap);
  }

  /**
   * The services among `ids` (a text query's matches, see textMatches) that the filter also
   * picks, answered from the index of every service (MapIndex.among: the matches grouped by its
   * clusters, no index built per query) when that index is of the current snapshot; otherwise
   * (not built yet, or being rebuilt after a write) from an index of the matches alone, built
   * from the snapshot and kept by the filter and a digest of the ids. The version it answers
   * carries the digest, so an ETag changes when the matches do even if the map did not.
   */
  async matching(
    filter: MapFilter,
    ids: readonly string[],
  ): Promise<{ index: MapView; version: string }> {
    const snap = await this.current();
    const digest = createHash('sha1').update(ids.join(',')).digest('base64url').slice(0, 16);
    const version = `${snap.version}~${digest}`;
    const allKey = filterKey({});
    const all = this.entries.get(allKey);
    if (fromIndex && all && all.version === snap.version) {
      return { index: all.index.among(ids, matches(filter)), version };
    }
    // The first text query of a process, or one right after a write: the index of every service
    // is built (again) once this answer has gone.
    this.scheduleRebuild(allKey, {});
    const key = `${filterKey(filter)}|${digest}`;
    const entry = this.matches.get(key);
    this.matches.delete(key);
    if (entry && entry.version === version) {
      this.matches.set(key, entry);
      return entry;
    }
    // By id: the work grows with the matches (at most MAP_TEXT_LIMIT), not with the catalogue.
    snap.byId ??= new Map(snap.features.map((f) => [f.properties.id, f]));
    const picks = matches(filter);
    const features: MapFeature[] = [];
    for (const id of new Set(ids)) {
      const f = snap.byId.get(id);
      if (f && picks(f.properties)) features.push(f);
    }
    const built = { version, index: new MapIndex(features), filter };
    this.matches.set(key, built);
    while (this.matches.size > this.maxIndexes) {
      this.matches.delete(this.matches.keys().next().value!);
    }
    return built;
  }

  /**
   * Applies one service's change written on this instance: `after` is its map row now (null when
   * it is not on the map any more), `token` the `map_version` value the writer bumped to. The
   * snapshot is patched (no SELECT); the indexes of filter combinations the service is in neither
   * before nor after keep their index and just take the new version; the others are dropped and
   * rebuilt from the patched snapshot right after the current request (setImmediate), unless a
   * reader asks first, in which case that reader builds it. So every request that starts after the
   * write sees it (read-your-writes), and the rebuild is off the writer's and usually off every
   * reader's path. Without a current snapshot it falls back to invalidate().
   */
  patch(id: string, after: MapService | null, token: string): void {
    const snap = this.snapshot;
    if (!snap || snap.generation !== this.generation) {
      this.invalidate();
      return;
    }
    const at = snap.features.findIndex((f) => f.properties.id === id);
    const before = at < 0 ? null : snap.features[at]!.properties;
    const moved = !sameService(before, after);
    let features = snap.features;
    if (moved) {
      features = snap.features.slice();
      if (at >= 0 && after) features[at] = toFeature(after);
      else if (at >= 0) features.splice(at, 1);
      else features.push(toFeature(after!));
    }
    // A new generation: a load or check in flight (it may have read the rows before the write)
    // is discarded when it lands.
    this.generation++;
    const version = `${token}${snap.version.slice(snap.version.indexOf('.'))}`;
    this.snapshot = { version, token, features, generation: this.generation };
    for (const [key, entry] of this.entries) {
      const hit = (s: MapService | null) => s !== null && matches(entry.filter)(s);
      if (moved && (hit(before) || hit(after))) {
        this.entries.delete(key);
        this.scheduleRebuild(key, entry.filter);
      } else if (entry.version === snap.version) {
        this.entries.set(key, { ...entry, version });
      } // else already stale (another instance's change): rebuilt after its next use, as before
    }
  }

  /**
   * Forgets every index and snapshot: the next request reads the database again and waits for
   * it. Call it after a write on this instance so the writer sees its change at once.
   */
  invalidate(): void {
    this.generation++;
    this.snapshot = null;
    this.entries.clear();
    this.matches.clear();
  }

  /** Waits for background work and stops scheduling more. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearImmediate(t);
    this.timers.clear();
    await Promise.allSettled([this.loading?.promise, this.checking]);
  }

  /** Builds the index of a combination from the snapshot (synchronous, CPU only). */
  private build(key: string, filter: MapFilter, snap: Snapshot): Entry {
    const all = filterKey({}) === key;
    const features = all
      ? snap.features
      : snap.features.filter((f) => matches(filter)(f.properties));
    const entry = { version: snap.version, index: new MapIndex(features), filter };
    this.entries.set(key, entry);
    // What text queries read of it (MapIndex.among), after the current request.
    if (all && !this.closed) {
      const timer = setImmediate(() => {
        this.timers.delete(timer);
        if (this.entries.get(key) === entry) entry.index.prepare();
      });
      this.timers.add(timer);
    }
    while (this.entries.size > this.maxIndexes) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }

  /** Rebuilds a stale (or dropped) index after the current request has been answered. */
  private scheduleRebuild(key: string, filter: MapFilter) {
    if (this.rebuilding.has(key) || this.closed) return;
    this.rebuilding.add(key);
    const timer = setImmediate(() => {
      this.timers.delete(timer);
      this.rebuilding.delete(key);
      const snap = this.snapshot;
      const entry = this.entries.get(key);
      if (!snap || (entry && entry.version === snap.version)) return;
      try {
        this.build(key, filter, snap);
      } catch (err) {
        this.onError(err);
      }
    });
    this.timers.add(timer);
  }

  /**
   * Asks the database whether the catalogue moved (the writers' counter every time, the full
   * fingerprint now and then); reloads in the background if it did.
   */
  private check(): Promise<void> {
    if (this.checking || this.closed) return this.checking ?? Promise.resolve();
    const now = Date.now();
    this.lastCheck = now;
    const full = now - this.lastFullCheck >= this.fullCheckIntervalMs;
    if (full) this.lastFullCheck = now;
    const generation = this.generation;
    this.checking = (full ? readVersion(this.db) : readVersionToken(this.db))
      .then((value) => {
        if (this.closed || generation !== this.generation || !this.snapshot) return;
        if (value !== (full ? this.snapshot.version : this.snapshot.token)) return this.load();
      })
      .catch(this.onError)
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  /** Reads a new snapshot (once per generation, however many requests wait for it). */
  private load(): Promise<void> {
    const generation = this.generation;
    if (this.loading && this.loading.generation === generation) return this.loading.promise;
    const promise = (async () => {
      // Version first: a write landing between the two reads makes the next check reload again,
      // never hides the write.
      const version = await readVersion(this.db);
      const features = (await readServices(this.db)).map(toFeature);
      this.lastCheck = this.lastFullCheck = Date.now();
      if (generation !== this.generation) return;
      const old = this.snapshot;
      const same = old !== null && sameServices(old.features, features);
      this.snapshot = {
        version,
        token: version.slice(0, version.indexOf('.')),
        // Nothing on the map moved (say, a reload after a change this instance had patched in):
        // the indexes stay, under the new version, instead of being rebuilt.
        features: same ? old.features : features,
        generation,
        ...(same && old.byId ? { byId: old.byId } : {}),
      };
      if (same) {
        for (const [key, entry] of this.entries) {
          if (entry.version === old.version) this.entries.set(key, { ...entry, version });
        }
      }
    })().finally(() => {
      if (this.loading?.promise === promise) this.loading = null;
    });
    this.loading = { generation, promise };
    return promise;
  }
}

/** What puts a service on the map. */
const visible = sql`${publiclyVisible()} and ${services.showOnMap}
      and ${services.lat} is not null and ${services.lng} is not null`;

/**
 * The catalogue version: the writers' counter in settings, and the count and latest update of the
 * services on the map (so direct SQL writes that keep `updated_at` current are seen too, and
 * edits of pending or hidden services, which change nothing there, are not).
 */
export async function readVersion(db: Db): Promise<string> {
  const [row] = await db
    .select({
      n: count(),
      at: max(services.updatedAt),
      v: sql<
        string | null
      >`(select ${settings.value} from ${settings} where ${settings.key} = ${MAP_VERSION_KEY})`,
    })
    .from(services)
    .where(visible);
  const at = row?.at ? new Date(row.at as unknown as string).getTime() : 0;
  return `${row?.v ?? '0'}.${row?.n ?? 0}.${at}`;
}

/**
 * The one lean SELECT: every approved service shown on the map with a position. The rows come back
 * as one JSON array, which both drivers parse about three times faster than 100k result rows.
 */
export async function readServices(db: Db, id?: string): Promise<MapService[]> {
  const result = await db.execute<{ rows: string | null }>(sql`
    select json_agg(json_build_array(${services.id}, ${services.name}, ${services.category},
      ${services.lat}, ${services.lng}, ${services.countryCode}, ${services.isOnline}))::text as rows
    from ${services}
    where ${visible}${id === undefined ? sql`` : sql` and ${services.id} = ${id}`}`);
  const text = (result as unknown as { rows: { rows: string | null }[] }).rows[0]?.rows;
  const tuples = JSON.parse(text ?? '[]') as [
    string,
    string,
    CategoryKey | null,
    number,
    number,
    string,
    boolean,
  ][];
  return tuples.map(([id, name, category, lat, lng, countryCode, isOnline]) => ({
    id,
    name,
    category,
    lat,
    lng,
    countryCode,
    isOnline,
  }));
}

/** The writers' counter alone: one primary-key lookup, cheap enough to ask every second. */
export async function readVersionToken(db: Db): Promise<string> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, MAP_VERSION_KEY));
  return row?.value ?? '0';
}

/** Bumps the settings row every instance compares at its next version check; returns the value. */
export async function bumpMapVersion(db: Db): Promise<string> {
  const value = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  await db
    .insert(settings)
    .values({ key: MAP_VERSION_KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
  return value;
}

/** Whether two map rows show the same thing. */
export const sameService = (a: MapService | null, b: MapService | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.id === b.id &&
    a.name === b.name &&
    a.category === b.category &&
    a.lat === b.lat &&
    a.lng === b.lng &&
    a.countryCode === b.countryCode &&
    a.isOnline === b.isOnline);

/** Whether two snapshots hold the same services, in any order. */
function sameServices(a: MapFeature[], b: MapFeature[]): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(a.map((f) => [f.properties.id, f.properties]));
  return b.every((f) => sameService(byId.get(f.properties.id) ?? null, f.properties));
}
