import type pg from 'pg';

/**
 * Whether the read replica serves public reads now: `ok`; `unavailable` (a connection to it
 * failed or timed out: the circuit is open, reads go to the primary until a probe succeeds);
 * `lagging` (its replay is more than REPLICA_MAX_LAG_MS behind: reads go to the primary until it
 * has caught up).
 */
export type ReplicaState = 'ok' | 'unavailable' | 'lagging';

/** Errors raised by the read pool (tagged there, so a primary failure does not open the circuit). */
const replicaErrors = new WeakSet<object>();

/** Marks the errors of the read pool's queries and connections as the replica's. */
export function tagReplicaErrors(pool: pg.Pool): void {
  const tag = (err: unknown) => {
    if (err && typeof err === 'object') replicaErrors.add(err);
    throw err;
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const result = query(...args);
    return result instanceof Promise ? result.catch(tag) : result;
  }) as typeof pool.query;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    const result = connect(...args);
    return result instanceof Promise ? result.catch(tag) : result;
  }) as typeof pool.connect;
}

/** The error and its causes (Drizzle wraps the driver's error in `DrizzleQueryError.cause`). */
function* chain(err: unknown): Generator<Record<string, unknown>> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e as Record<string, unknown>;
    e = (e as { cause?: unknown }).cause;
  }
}

/** True when the error, or one of its causes, came from the read pool. */
export function fromReplica(err: unknown): boolean {
  for (const e of chain(err)) if (replicaErrors.has(e)) return true;
  return false;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** SQLSTATEs of a server that is going away or not accepting connections. */
const DOWN_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const DOWN_MESSAGE =
  /connection terminated|timeout exceeded when trying to connect|connection timeout|connection error|ended unexpectedly|not queryable|query read timeout/i;

/**
 * Why a read failed, when trying it on the primary may help: `down` (no connection, or the
 * connection broke: the server is down, unreachable or shutting down) or `conflict` (a hot
 * standby cancelled the statement because of replay, SQLSTATE 40001). Else null: a bug or a bad
 * query fails the same on the primary.
 */
export function readFailure(err: unknown): 'down' | 'conflict' | null {
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (NETWORK_CODES.has(code) || code.startsWith('08') || DOWN_STATES.has(code)) return 'down';
    if (code === '40001' && /recovery/i.test(String(e.message))) return 'conflict';
    if (!code && DOWN_MESSAGE.test(String(e.message))) return 'down';
  }
  return null;
}

export interface ReplicaHealthOptions {
  /** The read pool. */
  replica: pg.Pool;
  /** The primary's pool (its WAL position, for the lag). */
  primary: pg.Pool;
  /** How long reads stay on the primary after the replica failed, before a probe. */
  retryMs: number;
  /** Route reads to the primary while the replica's replay is further behind; 0: no lag check. */
  maxLagMs: number;
  /** How often the lag is measured. */
  checkMs: number;
  /** Log (rate-limited by the caller's choice of function). */
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** A pg_lsn ('16/B374D848') as a number. */
function lsn(text: string): bigint {
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

/** Longest silence between two warnings about the replica. */
const WARN_EVERY_MS = 60_000;

/**
 * Circuit breaker of the read replica. A failed connection opens it (`unavailable`): reads go to
 * the primary, and after `retryMs` a probe (`SELECT 1`, within the pool's connection timeout)
 * closes it again or waits another `retryMs`. With `maxLagMs`, the replay lag is measured every
 * `checkMs` (not per request) and a replica further behind is `lagging` until it catches up.
 * Warnings are logged at most once a minute.
 */
export class ReplicaHealth {
  state: ReplicaState = 'ok';
  /** The replay lag at the last check (ms), null before one or without lag checks. */
  lagMs: number | null = null;
  /** Public reads answered by the primary because of the replica (retried or routed there). */
  fallbacks = 0;
  /** Times the circuit opened. */
  trips = 0;
  private lastWarn = -Infinity;
  private lastInfo = -Infinity;
  /** The primary's WAL positions at past checks that the replica had not replayed yet. */
  private samples: { at: number; lsn: bigint }[] = [];
  private probeTimer: NodeJS.Timeout | undefined;
  private lagTimer: NodeJS.Timeout | undefined;
  private checking = false;
  private closed = false;

  constructor(private readonly options: ReplicaHealthOptions) {
    if (options.maxLagMs > 0) {
      this.lagTimer = setInterval(() => void this.checkLag(), options.checkMs).unref();
    }
  }

  /** Whether reads may go to the replica now. */
  get usable(): boolean {
    return this.state === 'ok';
  }

  /** A read on the replica failed for want of a connection: open the circuit. */
  failed(err: unknown): void {
    if (this.closed || this.state === 'unavailable') return;
    this.state = 'unavailable';
    this.trips++;
    this.warn(
      { err: err instanceof Error ? err.message : String(err) },
      `read replica unavailable: public reads go to the primary (next probe in ${this.options.retryMs} ms)`,
    );
    this.scheduleProbe();
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.probeTimer);
    clearInterval(this.lagTimer);
  }

  private warn(obj: object, msg: string) {
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.lastWarn = now;
    this.options.log.warn(obj, msg);
  }

  private info(obj: object, msg: string) {
    const now = Date.now();
    if (now - this.lastInfo < WARN_EVERY_MS) return;
    this.lastInfo = now;
    this.options.log.info(obj, msg);
  }

  private scheduleProbe() {
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => void this.probe(), this.options.retryMs).unref();
  }

  private async probe() {
    if (this.closed) return;
    try {
      await this.options.replica.query('SELECT 1');
      if (this.closed) return;
      this.state = 'ok';
      this.info({}, 'read replica answers again: public reads go back to it');
      if (this.options.maxLagMs > 0) await this.checkLag();
    } catch {
      this.scheduleProbe();
    }
  }

  /**
   * Replay lag: how long ago the primary had written WAL that the replica has not replayed yet.
   * Each check notes the primary's `pg_current_wal_lsn()` with the time; the lag is the age of
   * the oldest noted position beyond the replica's `pg_last_wal_replay_lsn()`, 0 when it has
   * replayed them all. (`now() - pg_last_xact_replay_timestamp()` alone would count the idle time
   * before a write as lag.) Resolution: the check interval.
   */
  private async checkLag() {
    if (this.closed || this.checking || this.state === 'unavailable') return;
    this.checking = true;
    try {
      const primary = await this.options.primary.query<{ l: string }>(
        'SELECT pg_current_wal_lsn()::text AS l',
      );
      const at = Date.now();
      const res = await this.options.replica.query<{ r: string | null }>(
        'SELECT pg_last_wal_replay_lsn()::text AS r',
      );
      const replayed = res.rows[0]!.r;
      // Not a standby (no replay position): no lag.
      const r = replayed === null ? null : lsn(replayed);
      this.samples.push({ at, lsn: lsn(primary.rows[0]!.l) });
      this.samples = r === null ? [] : this.samples.filter((p) => p.lsn > r);
      // Bounded: a replica stuck for hours keeps the oldest position and the latest ones.
      if (this.samples.length > 1000) this.samples.splice(1, this.samples.length - 1000);
      const lag = this.samples.length > 0 ? Date.now() - this.samples[0]!.at : 0;
      this.lagMs = lag;
      if (this.closed || (this.state as ReplicaState) === 'unavailable') return;
      if (lag > this.options.maxLagMs && this.state === 'ok') {
        this.state = 'lagging';
        this.warn(
          { lagMs: lag, maxLagMs: this.options.maxLagMs },
          'read replica lags: public reads go to the primary until it catches up',
        );
      } else if (lag <= this.options.maxLagMs && this.state === 'lagging') {
        this.state = 'ok';
        this.info({ lagMs: lag }, 'read replica caught up: public reads go back to it');
      }
    } catch (err) {
      if (fromReplica(err) && readFailure(err) === 'down') this.failed(err);
    } finally {
      this.checking = false;
    }
  }
}
