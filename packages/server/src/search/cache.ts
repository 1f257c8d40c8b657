import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/types.js';

/**
 * Search result cache: recent pages keyed by the parsed query, each kept with the JSON bytes
 * the route sends, so a repeated search costs a map lookup.
 *
 * A page is reused only while nothing it could show was written since it was computed. Every
 * write statement to services, vacancies, category terms or search words fires a trigger
 * (migrations 0005, 0007, 0018) that moves a sequence (`poruch_search_generation`) on and sends
 * `NOTIFY poruch_search`, delivered when the transaction commits, with what the statement
 * changed ({@link Change}; migration 0018): a page retires only when the change could show on it
 * ({@link affects}: the page's country, or a page without a country filter; new words retire the
 * pages of text queries), a used mark only updates the count on the pages that show the service
 * ({@link CachedSearchOptions.usedCounts}), and a change of nothing public (a report writes none
 * of these tables; a service that is not approved) retires nothing. A notification without a
 * payload (category terms, truncation, bulk loads, large statements) retires every page.
 *
 * - **Listening** (the normal state, set up on the first search of a database): the database
 *   connection listens, and each notification retires (or updates) the pages it concerns; one
 *   without a payload moves a counter in this process (the epoch) on, which retires every page.
 *   On PGlite the one connection is the database, so a write's
 *   notification arrives before the write's own query returns. On PostgreSQL every pooled
 *   connection listens too (LISTEN when the pool first hands it out), so this process's writes
 *   are seen the same way, before their COMMIT returns; another instance's writes arrive through
 *   a dedicated listening connection, as soon as PostgreSQL delivers the notification (normally
 *   within a millisecond of the commit). A hit costs no query.
 * - **Not listening** (until the PostgreSQL listener is connected, while it is lost, or on a
 *   hot standby, which cannot LISTEN): every lookup reads the generation (one tiny query), as
 *   before migration 0007.
 *
 * - **Read replica** (a pool registered with `followPrimary`, a hot standby): a standby cannot
 *   LISTEN and its generation sequence moves in steps of 32, so its cache follows the primary's
 *   notifications instead (each retires the replica's pages too), and after one a page read from
 *   the replica is kept only once the replica has replayed the WAL the primary had written when
 *   the page was missed (`pg_last_wal_replay_lsn() >= pg_current_wal_lsn()` of the primary, asked
 *   on misses until it holds). Until then pages are computed but not kept, so a write shows in
 *   search as soon as the replica has replayed it. While the primary is not listening, replica
 *   pages are not kept at all.
 *
 * A page computed while a write committed is not kept if the write's change concerns it (the
 * changes seen while it was computed are checked against it: {@link changedSince}). MAX_AGE_MS
 * bounds the life of any page anyway, in case a notification is lost with its connection before
 * the listener notices.
 *
 * For benchmarks, PORUCH_SEARCH_RETIRE_ALL=true restores the earlier rule: every notification,
 * whatever it says, retires every page and profile.
 */

/** The NOTIFY channel of writes to the searched tables (migration 0007). */
export const SEARCH_CHANNEL = 'poruch_search';
/** Pages kept per database. */
const MAX_ENTRIES = 2000;
/** Longest a page is reused, even with no write seen. */
export const MAX_AGE_MS = 30_000;
/** Pause before a lost PostgreSQL listener connects again. */
const RELISTEN_MS = 1000;
/** Changes remembered per database, for pages and profiles computed while they arrived. */
const LOG_SIZE = 1000;

/**
 * What one write statement changed that the public could see (the payload of its notification,
 * migration 0018). Null: anything (every page retires).
 */
export interface Change {
  /** Services changed in anything but the used count (approved before or after). */
  services?: string[];
  /** Services whose vacancies changed (approved services only). */
  vacancies?: string[];
  /** The countries of those services, old and new. */
  countries?: string[];
  /** New used counts by service id: a used mark, the only change of those rows. */
  used?: Record<string, number>;
  /** New search words: a text query may find a correction it did not before. */
  words?: boolean;
}

/** What a cached page could show: which changes retire it. */
export interface Scope {
  /** Its country filter: it can show services of that country only. */
  country?: string;
  /** It has a text query (its corrections come from the search words). */
  text: boolean;
  /** It shows vacancies (services pages do not: their have-vacancy flag is the service's). */
  vacancies: boolean;
  /** The services whose used counts it shows (updated in place by a used mark). */
  ids?: string[];
}

const retireAll = process.env.PORUCH_SEARCH_RETIRE_ALL === 'true';

/** A notification's payload as a change: null for anything (no payload, or not understood). */
export function parseChange(payload: string | undefined): Change | null {
  if (retireAll || !payload) return null;
  try {
    const p = JSON.parse(payload) as {
      s?: string[];
      v?: string[];
      c?: string[];
      u?: Record<string, number>;
      w?: boolean;
    };
    return { services: p.s, vacancies: p.v, countries: p.c, used: p.u, words: p.w };
  } catch {
    return null;
  }
}

/** Whether a page of `scope` (undefined: unknown, anything) could show what `change` changed. */
export function affects(change: Change, scope: Scope | undefined): boolean {
  if (!scope) return true;
  if (change.words && scope.text) return true;
  const inCountry = !scope.country || !!change.countries?.includes(scope.country);
  if (change.services?.length && inCountry) return true;
  if (change.vacancies?.length && scope.vacancies && inCountry) return true;
  return false;
}

/** The services of `change` whose profile (or anything of theirs) it changed. */
export function changedServices(change: Change): string[] {
  return [
    ...(change.services ?? []),
    ...(change.vacancies ?? []),
    ...Object.keys(change.used ?? {}),
  ];
}

interface Stamp {
  /** False: the page may not be kept (nor a kept one used). */
  keep?: boolean;
  epoch: number;
  /** Changes seen when it was read. */
  seq: number;
  /** The generation read from the database, when not listening. */
  generation: string | null;
}

interface Entry extends Stamp {
  at: number;
  value: unknown;
  scope?: Scope;
  /** Sets new used counts in `value`; true if any it shows changed. */
  usedCounts?: (value: unknown, used: Record<string, number>) => boolean;
  /** The response, once a route has serialised the page. */
  json?: JsonBody;
}

/** A replica's cache, following its primary's notifications. */
interface Follow {
  replica: pg.Pool;
  primary: pg.Pool;
  primaryState: State;
  /** The primary's WAL position the replica must have replayed; unknown until a miss asks. */
  target?: string;
  /** The replica has replayed `target`: pages are kept again. */
  caughtUp: boolean;
}

/**
 * The kept pages, least recently used first (at most MAX_ENTRIES), with the pages that show each
 * service's used count, so a used mark finds its few pages without looking at all of them.
 */
class Pages {
  private readonly byKey = new Map<string, Entry>();
  /** Service id → keys of the pages that show it (their scope's `ids`). */
  private readonly byService = new Map<string, Set<string>>();
  /** Keys of pages without a scope: any change may concern them. */
  private readonly unscoped = new Set<string>();

  get(key: string): Entry | undefined {
    return this.byKey.get(key);
  }

  /** Keeps `entry` as the most recently used; drops the least recently used beyond the bound. */
  set(key: string, entry: Entry): void {
    this.delete(key);
    this.byKey.set(key, entry);
    if (!entry.scope) this.unscoped.add(key);
    for (const id of entry.scope?.ids ?? []) {
      let keys = this.byService.get(id);
      if (!keys) this.byService.set(id, (keys = new Set()));
      keys.add(key);
    }
    if (this.byKey.size > MAX_ENTRIES) this.delete(this.byKey.keys().next().value!);
  }

  /** Makes a kept page the most recently used. */
  touch(key: string, entry: Entry): void {
    this.byKey.delete(key);
    this.byKey.set(key, entry);
  }

  delete(key: string): void {
    const entry = this.byKey.get(key);
    if (!entry) return;
    this.byKey.delete(key);
    this.unscoped.delete(key);
    for (const id of entry.scope?.ids ?? []) {
      const keys = this.byService.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.byService.delete(id);
    }
  }

  clear(): void {
    this.byKey.clear();
    this.byService.clear();
    this.unscoped.clear();
  }

  /** Every kept page (deleting while iterating is safe). */
  all(): IterableIterator<[string, Entry]> {
    return this.byKey.entries();
  }

  /** Keys of the pages that show `service`, and of those without a scope (a copy). */
  showing(service: string): string[] {
    return [...(this.byService.get(service) ?? []), ...this.unscoped];
  }
}

interface State {
  pages: Pages;
  epoch: number;
  /** Changes seen (notifications with a payload); the latest LOG_SIZE of them in `log`. */
  seq: number;
  log: { seq: number; change: Change }[];
  listening: boolean;
  /** Read replicas' states, retired with this one. */
  followers?: Set<State>;
  /** Set on a replica's state. */
  follow?: Follow;
  /** Set up the listening (once per client); resolves when it is as far as it gets. */
  watching?: Promise<void>;
  stop?: () => Promise<void>;
  /** Kept beside the cache and told of every change (the word index, wordIndex.ts). */
  follower?: ChangeFollower;
}

/** Something kept per database that follows the writes (the word index). */
export interface ChangeFollower {
  /** A write's change; null: anything may have changed (or a write may have been missed). */
  changed(change: Change | null): void;
}

/** One state per database client (PGlite instance or pg.Pool), whichever Db wraps it. */
const states = new WeakMap<object, State>();
/** Read replica pool → its primary's pool. */
const primaries = new WeakMap<pg.Pool, pg.Pool>();
let cacheEnabled = true;

type Client = PGlite | pg.Pool;
const clientOf = (db: Db) => (db as unknown as { $client: Client }).$client;

/**
 * Declares `replica` (a pool on a hot standby of `primary`): its search cache learns of writes
 * through the primary and keeps pages only once the replica has replayed them.
 */
export function followPrimary(replica: pg.Pool, primary: pg.Pool): void {
  primaries.set(replica, primary);
}

async function stateOf(db: Db): Promise<State> {
  return stateOfClient(clientOf(db));
}

async function stateOfClient(client: Client): Promise<State> {
  let state = states.get(client);
  if (!state) {
    states.set(
      client,
      (state = { pages: new Pages(), epoch: 0, seq: 0, log: [], listening: false }),
    );
    const primary = client instanceof pg.Pool ? primaries.get(client) : undefined;
    state.watching = primary
      ? follow(client as pg.Pool, primary, state)
      : client instanceof pg.Pool
        ? watchPool(client, state)
        : watchPglite(client, state);
  }
  await state.watching;
  return state;
}

/** A replica's state: retired by the primary's notifications, listening while it listens. */
async function follow(replica: pg.Pool, primary: pg.Pool, state: State): Promise<void> {
  const primaryState = await stateOfClient(primary);
  state.follow = { replica, primary, primaryState, caughtUp: false };
  (primaryState.followers ??= new Set()).add(state);
  state.stop = async () => {
    primaryState.followers?.delete(state);
  };
}

const listening = (state: State) =>
  state.follow ? state.follow.primaryState.listening : state.listening;

/** Retires every cached page of this database (and of its replicas). */
function bump(state: State): void {
  state.epoch++;
  state.pages.clear();
  state.follower?.changed(null);
  if (state.follow) {
    state.follow.caughtUp = false;
    state.follow.target = undefined;
  }
  for (const replica of state.followers ?? []) bump(replica);
}

/**
 * A write's change: retires the pages it could show on, sets new used counts in the others that
 * show them (of this database and of its replicas). A change of nothing public does nothing.
 */
function apply(state: State, change: Change): void {
  if (!change.services && !change.vacancies && !change.used && !change.words) return;
  state.follower?.changed(change);
  state.log.push({ seq: ++state.seq, change });
  if (state.log.length > LOG_SIZE) state.log.shift();
  // Pages the change could show on retire (a used mark alone concerns none of them by scope).
  if (change.services?.length || change.vacancies?.length || change.words) {
    for (const [key, entry] of state.pages.all()) {
      if (affects(change, entry.scope)) state.pages.delete(key);
    }
  }
  // New used counts: set in the pages that show them (those without a scope retire).
  for (const id of Object.keys(change.used ?? {})) {
    for (const key of state.pages.showing(id)) {
      const entry = state.pages.get(key);
      if (!entry) continue;
      if (!entry.scope || !entry.usedCounts) state.pages.delete(key);
      else if (entry.usedCounts(entry.value, change.used!)) entry.json = undefined;
    }
  }
  if (state.follow) {
    state.follow.caughtUp = false;
    state.follow.target = undefined;
  }
  for (const replica of state.followers ?? []) apply(replica, change);
}

/** A notification on SEARCH_CHANNEL. */
function notified(state: State, payload: string | undefined): void {
  const change = parseChange(payload);
  if (change) apply(state, change);
  else bump(state);
}

/**
 * The changes seen since `seq` (when a page or profile began to be computed); null when they are
 * no longer all remembered.
 */
function changesSince(state: State, seq: number): Change[] | null {
  if (seq === state.seq) return [];
  const first = state.log[0];
  if (!first || first.seq > seq + 1) return null;
  return state.log.filter((l) => l.seq > seq).map((l) => l.change);
}

/** Whether a change since `seq` concerns a page of `scope` (it may predate it). */
function changedSince(state: State, seq: number, scope: Scope | undefined): boolean {
  const changes = changesSince(state, seq);
  return (
    changes === null ||
    changes.some(
      (c) =>
        affects(c, scope) || (!!c.used && (!scope || !!scope.ids?.some((id) => id in c.used!))),
    )
  );
}

/**
 * A replica: whether it has replayed every write notified so far (then its pages may be kept).
 * Asks the primary's WAL position once per notification and the replica's replay position until
 * it is there. Any failure counts as not yet.
 */
async function replayed(state: State): Promise<boolean> {
  const f = state.follow;
  if (!f || f.caughtUp) return true;
  const epoch = state.epoch;
  try {
    if (f.target === undefined) {
      const res = await f.primary.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l');
      // A notification meanwhile: this position may predate its write.
      if (state.epoch !== epoch) return false;
      f.target = res.rows[0]!.l;
    }
    const res = await f.replica.query<{ ok: boolean }>(
      'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, true) AS ok',
      [f.target],
    );
    const ok = res.rows[0]!.ok;
    if (ok && state.epoch === epoch) f.caughtUp = true;
    return ok;
  } catch {
    return false;
  }
}

/** The generation of the searched tables (migration 0005): moves on with every write. */
async function generation(db: Db): Promise<string> {
  const res = await db.execute(sql`SELECT last_value::text AS g FROM poruch_search_generation`);
  return (res as unknown as { rows: { g: string }[] }).rows[0]!.g;
}

async function stampOf(db: Db, state: State): Promise<Stamp> {
  // A replica's pages are checked through the primary's notifications only.
  const { epoch, seq } = state;
  if (state.follow) return { epoch, seq, generation: null, keep: listening(state) };
  return state.listening
    ? { epoch, seq, generation: null }
    : { epoch, seq, generation: await generation(db) };
}

function valid(entry: Entry | undefined, stamp: Stamp, now: number): entry is Entry {
  return (
    !!entry &&
    stamp.keep !== false &&
    entry.epoch === stamp.epoch &&
    entry.generation === stamp.generation &&
    now - entry.at < MAX_AGE_MS
  );
}

/** How a page is kept: what it could show, and how a used mark updates it. */
interface Keeping<T> {
  scope?: (value: T) => Scope;
  usedCounts?: (value: T, used: Record<string, number>) => boolean;
}

/** The entry of `key`, computed (and kept) unless a valid one is there. */
async function entryOf<T>(
  db: Db,
  key: string,
  compute: () => Promise<T>,
  keeping: Keeping<T> = {},
): Promise<Entry> {
  const state = await stateOf(db);
  const stamp = await stampOf(db, state);
  const now = Date.now();
  const hit = state.pages.get(key);
  if (valid(hit, stamp, now)) {
    // Most recently used last, so eviction drops the least recently used.
    state.pages.touch(key, hit);
    return hit;
  }
  // A replica that has not replayed the latest write: the page is computed, not kept.
  const keep = stamp.keep !== false && (await replayed(state));
  const value = await compute();
  const entry: Entry = {
    ...stamp,
    at: now,
    value: structuredClone(value),
    scope: keeping.scope?.(value),
    usedCounts: keeping.usedCounts as Entry['usedCounts'],
  };
  // A write seen while computing that concerns the page: it may predate it, so it is not kept.
  if (keep && stamp.epoch === state.epoch && !changedSince(state, stamp.seq, entry.scope)) {
    state.pages.set(key, entry);
  }
  return entry;
}

/**
 * A search result, from the cache when the same query ran since the last write to services,
 * vacancies or category terms (and not longer ago than MAX_AGE_MS), else computed and kept.
 * Callers get their own copy.
 */
export async function cached<T>(
  db: Db,
  key: string,
  compute: () => Promise<T>,
  keeping?: Keeping<T>,
): Promise<T> {
  if (!cacheEnabled) return compute();
  const entry = await entryOf(db, key, compute, keeping);
  return structuredClone(entry.value) as T;
}

/** A serialised page: the JSON bytes and their strong ETag. */
export interface JsonBody {
  body: Buffer;
  etag: string;
}

/** `text` as response bytes with their strong ETag. */
export function jsonBody(text: string): JsonBody {
  const body = Buffer.from(text);
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/**
 * Like `cached`, but the response: `serialize` (the route's schema check and JSON.stringify)
 * and the ETag's hash run once per computed page; a hit returns the same bytes.
 */
export async function cachedJson<T>(
  db: Db,
  key: string,
  compute: () => Promise<T>,
  serialize: (value: T) => string,
  keeping?: Keeping<T>,
): Promise<JsonBody> {
  if (!cacheEnabled) return jsonBody(serialize(await compute()));
  const entry = await entryOf(db, key, compute, keeping);
  return (entry.json ??= jsonBody(serialize(entry.value as T)));
}

/** How a search's pages are retired and updated (see {@link Scope}). */
export interface CachedSearchOptions<Q, T> {
  /** What a page of `query` could show. */
  scope: (query: Q, page: T) => Scope;
  /** Sets new used counts in a page; true if any it shows changed (its JSON is made again). */
  usedCounts?: (page: T, used: Record<string, number>) => boolean;
}

/** A page's items' used counts set from `used`; true if any of them changed. */
export function setUsedCounts(
  page: { items: { id: string; usedCount: number }[] },
  used: Record<string, number>,
): boolean {
  let shown = false;
  for (const item of page.items) {
    const n = used[item.id];
    if (n !== undefined && n !== item.usedCount) {
      item.usedCount = n;
      shown = true;
    }
  }
  return shown;
}

/**
 * A search through the cache, keyed by `prefix` and the query: `page` gives the result, `json`
 * the route's response (checked against `schema` and serialised once per computed page).
 */
export function cachedSearch<Q, T>(
  prefix: string,
  search: (db: Db, query: Q) => Promise<T>,
  schema: { parse(value: unknown): unknown },
  options: CachedSearchOptions<Q, T>,
) {
  const key = (query: Q) => `${prefix}${JSON.stringify(query)}`;
  const keeping = (query: Q): Keeping<T> => ({
    scope: (page) => options.scope(query, page),
    usedCounts: options.usedCounts,
  });
  return {
    page: (db: Db, query: Q): Promise<T> =>
      cached(db, key(query), () => search(db, query), keeping(query)),
    json: (db: Db, query: Q): Promise<JsonBody> =>
      cachedJson(
        db,
        key(query),
        () => search(db, query),
        (page) => JSON.stringify(schema.parse(page)),
        keeping(query),
      ),
  };
}

/** Turns the cache off (benchmarks measure the search itself) or back on. */
export function setSearchCache(enabled: boolean): void {
  cacheEnabled = enabled;
}

/** Retires every cached page of `db` (what a write notification does). */
export async function invalidateSearchCache(db: Db): Promise<void> {
  bump(await stateOf(db));
}

/** Whether `db`'s cache learns of writes by notification (else it reads the generation). */
export async function searchCacheListening(db: Db): Promise<boolean> {
  return listening(await stateOf(db));
}

/**
 * The follower of `db`'s writes (made by `make` the first time, or after the cache was stopped),
 * and whether it sees every write now: the database listens and is not a replica.
 */
export async function followSearchChanges<F extends ChangeFollower>(
  db: Db,
  make: () => F,
): Promise<{ follower: F; created: boolean; listening: boolean }> {
  const state = await stateOf(db);
  const created = !state.follower;
  if (created) state.follower = make();
  return {
    follower: state.follower as F,
    created,
    listening: !state.follow && state.listening,
  };
}

/** A number per state, so a stamp never repeats after `stopSearchCache` starts a new state. */
const serials = new WeakMap<State, number>();
let nextSerial = 0;

/** What another cache of these tables' reads (profiles) needs to follow the writes. */
export interface SearchCacheView {
  /**
   * Changes whenever every kept value must retire: a notification without a payload (or, when
   * not listening, the generation: then reading it costs that one query). Null when nothing may
   * be kept now: the cache is off, or `db` is a replica whose primary is not listening or which
   * has not replayed the latest notified write.
   */
  stamp: string | null;
  /** Changes seen so far. */
  seq: number;
  /** The changes seen since `seq` up to now; null when they are no longer all remembered. */
  since(seq: number): Change[] | null;
}

/**
 * For another cache of reads of services or vacancies (profiles), so it is retired as search
 * pages are: keep a value under the view read before computing it; use it only while the stamp
 * is the same, no change since concerns it, and for less than MAX_AGE_MS.
 */
export async function searchCacheView(db: Db): Promise<SearchCacheView> {
  const state = await stateOf(db);
  const view = { seq: state.seq, since: (seq: number) => changesSince(state, seq) };
  if (!cacheEnabled) return { stamp: null, ...view };
  const stamp = await stampOf(db, state);
  if (stamp.keep === false || !(await replayed(state))) return { stamp: null, ...view };
  let serial = serials.get(state);
  if (serial === undefined) serials.set(state, (serial = nextSerial++));
  return { stamp: `${serial}:${stamp.epoch}:${stamp.generation ?? ''}`, ...view };
}

/** A token that changes with every notification that changes anything (tests wait on it). */
export async function searchCacheStamp(db: Db): Promise<string | null> {
  const view = await searchCacheView(db);
  return view.stamp && `${view.stamp}:${view.seq}`;
}

/** Stops listening for `db`'s client (its pages are dropped); the next search listens again. */
export async function stopSearchCache(db: Db): Promise<void> {
  const client = clientOf(db);
  const state = states.get(client);
  if (!state) return;
  states.delete(client);
  state.listening = false;
  bump(state);
  await state.watching;
  await state.stop?.();
}

/** PGlite: its one connection listens. */
async function watchPglite(client: PGlite, state: State): Promise<void> {
  try {
    const unlisten = await client.listen(SEARCH_CHANNEL, (payload) => notified(state, payload));
    state.stop = () => unlisten().catch(() => {});
    state.listening = true;
  } catch {
    // Not listening (a closed database): the generation is read instead.
  }
}

/** Pooled connections that LISTEN already (listenForSearch, or the acquire fallback). */
const listeningClients = new WeakSet<pg.ClientBase>();

/**
 * Per pool, the server processes (backend pids) of its connections that LISTEN. PostgreSQL
 * delivers a notification to every listening session: to each pooled connection and to the
 * dedicated listener of every instance. Each is handled once: a write of this pool's own
 * connections by the connection that made it (before the write returns), any other write by the
 * dedicated listener.
 */
const ownBackends = new WeakMap<pg.Pool, Set<number>>();
const backendsOf = (pool: pg.Pool) => {
  let pids = ownBackends.get(pool);
  if (!pids) ownBackends.set(pool, (pids = new Set()));
  return pids;
};
const backendOf = (client: pg.ClientBase) =>
  (client as unknown as { processID: number | null }).processID;

/** A pooled connection starts listening: it handles the notifications of its own writes. */
async function listenOnPooled(
  pool: pg.Pool,
  client: pg.ClientBase,
  handle: (msg: pg.Notification) => void,
): Promise<void> {
  listeningClients.add(client);
  const pid = backendOf(client);
  client.on('notification', (msg: pg.Notification) => {
    if (msg.channel === SEARCH_CHANNEL && msg.processId === pid) handle(msg);
  });
  client.once('end', () => {
    if (pid !== null) backendsOf(pool).delete(pid);
  });
  // A primary that cannot LISTEN (a standby by mistake) still serves: the generation is read.
  await client.query(`LISTEN ${SEARCH_CHANNEL}`).then(
    () => {
      if (pid !== null) backendsOf(pool).add(pid);
    },
    () => {},
  );
}

/**
 * The primary pool's `onConnect` hook (db/index.ts): a new connection LISTENs before the pool
 * hands it out, so the notification of a write made on it arrives before the write returns.
 * A notification retires the pool's cached pages once the cache watches that pool.
 */
export async function listenForSearch(pool: pg.Pool, client: pg.ClientBase): Promise<void> {
  await listenOnPooled(pool, client, (msg) => {
    const state = states.get(pool);
    if (state) notified(state, msg.payload);
  });
}

/**
 * PostgreSQL: each pooled connection LISTENs the first time the pool hands it out (before the
 * query it was taken for, so this process's own writes are seen before they return), and a
 * dedicated connection listens for the other instances' writes; it reconnects when lost, with
 * the generation read meanwhile. Does not wait for the dedicated connection.
 */
async function watchPool(pool: pg.Pool, state: State): Promise<void> {
  const handle = (msg: pg.Notification) => notified(state, msg.payload);
  // The dedicated listener: the writes of other instances (this pool's are its connections').
  const onNotification = (msg: pg.Notification) => {
    if (msg.channel === SEARCH_CHANNEL && !backendsOf(pool).has(msg.processId)) handle(msg);
  };
  const onAcquire = (client: pg.PoolClient) => {
    if (listeningClients.has(client)) return;
    // A pool opened without listenForSearch: queued before the caller's query (pg 8 queues; a
    // deprecated use). On a hot standby it fails: nothing to listen to there.
    void listenOnPooled(pool, client, handle);
  };
  pool.on('acquire', onAcquire);

  let listener: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = RELISTEN_MS;
  const lost = (client: pg.Client) => {
    if (listener !== client) return;
    listener = undefined;
    state.listening = false;
    bump(state);
    client.end().catch(() => {});
    if (stopped) return;
    timer = setTimeout(() => void connect(), delay).unref();
    delay = Math.min(delay * 2, MAX_AGE_MS);
  };
  const connect = async () => {
    const client = new pg.Client(pool.options as pg.ClientConfig);
    listener = client;
    client.on('notification', onNotification);
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${SEARCH_CHANNEL}`);
      if (listener !== client || stopped) return;
      // Writes made before the listening started may not have been seen.
      bump(state);
      state.listening = true;
      delay = RELISTEN_MS;
    } catch {
      lost(client);
    }
  };
  state.stop = async () => {
    stopped = true;
    clearTimeout(timer);
    pool.off('acquire', onAcquire);
    const client = listener;
    listener = undefined;
    await client?.end().catch(() => {});
  };
  // pg.Pool.end() does not know this connection: end it with the pool.
  const end = pool.end.bind(pool);
  pool.end = (async (cb?: () => void) => {
    await state.stop?.();
    return end(cb as never);
  }) as typeof pool.end;
  void connect();
}
