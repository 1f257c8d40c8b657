import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from './paths.js';

const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');
const positiveInt = z.coerce.number().int().positive();

/** Named ranges Fastify's trustProxy (@fastify/proxy-addr) expands. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Why one TRUST_PROXY entry is not an address, a CIDR range or a range name; null when it is. */
function proxyEntryProblem(entry: string): string | null {
  if (PROXY_RANGE_NAMES.has(entry)) return null;
  const [address = '', range, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return `"${entry}" is not an IP address or CIDR range`;
  if (range === undefined) return null;
  // As @fastify/proxy-addr reads them: a prefix of 1 to 32 (IPv4) or 128 (IPv6, mapped
  // addresses included). A netmask (10.0.0.0/255.0.0.0) is refused: give the prefix length.
  const max = family === 4 ? 32 : 128;
  if (/^\d{1,3}$/.test(range) && Number(range) >= 1 && Number(range) <= max) return null;
  return `"${entry}" needs a prefix length of 1-${max} after the /`;
}

/**
 * TRUST_PROXY: the addresses of the reverse proxies whose X-Forwarded-For/-Proto/-Host are
 * believed, as a list of IPs and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`, or
 * the names loopback, linklocal, uniquelocal), comma separated. `false` (the default) believes
 * none. `true` believes any peer: only for a server no client can reach except through the
 * proxy, since anyone who reaches its port directly can then claim any address.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((value, ctx): boolean | string[] => {
    const v = value.trim().toLowerCase();
    if (v === 'false' || v === '0' || v === '') return false;
    if (v === 'true' || v === '1') return true;
    const entries = value.split(',').map((e) => e.trim());
    const problems = entries.map((e) => (e ? proxyEntryProblem(e) : 'an empty entry'));
    const first = problems.find((p) => p !== null);
    if (first) {
      ctx.addIssue({
        code: 'custom',
        message:
          `${first}. Give the reverse proxy's addresses or CIDR ranges, comma separated ` +
          '(e.g. 127.0.0.1 or 172.16.0.0/12,::1), or false. (A hop count is not supported.)',
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * Every environment variable the server reads, validated at start. docs/operations.md lists them.
 */
export const envSchema = z.object({
  /** production serves the built site; test and development do not. Defaults to development. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Port of the HTTP server. Defaults to 8080. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Interface to listen on. Defaults to 0.0.0.0. */
  HOST: z.string().default('0.0.0.0'),
  /** Data directory: the embedded database, mail files. Defaults to data/ at the repository root. */
  DATA_DIR: z.string().optional(),
  /** A PostgreSQL URL switches from the embedded database to a server. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * A PostgreSQL URL of a read replica (a streaming hot standby). Public reads (search, map,
   * profiles, sitemap) go there; everything else stays on DATABASE_URL. Needs DATABASE_URL.
   */
  DATABASE_READ_URL: z.string().url().optional(),
  /** Most connections of each PostgreSQL pool (primary and replica), per process. Defaults to 10. */
  DATABASE_POOL_SIZE: positiveInt.default(10),
  /**
   * With a replica: longest wait for a replica connection before a public read goes to the
   * primary instead, in ms. Defaults to 1000.
   */
  REPLICA_CONNECT_TIMEOUT_MS: positiveInt.default(1000),
  /**
   * With a replica: longest a replica query may go unanswered before it fails and the public read
   * goes to the primary, in ms (a connection to a host that vanished hangs otherwise). Keep it
   * above the slowest public read. Defaults to 10000.
   */
  REPLICA_QUERY_TIMEOUT_MS: positiveInt.default(10_000),
  /**
   * With a replica: after a replica connection failed, public reads go to the primary for this
   * long (ms) before a probe tries the replica again. Defaults to 5000.
   */
  REPLICA_RETRY_MS: positiveInt.default(5000),
  /**
   * With a replica: public reads go to the primary while the replica's replay is further behind
   * than this (ms), measured every second. 0 turns the check off. Defaults to 30000.
   */
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).default(30_000),
  /**
   * Apply pending migrations at start. Defaults to true; instances take a PostgreSQL advisory lock,
   * so several starting at once migrate one after the other. With false, /readyz answers 503 until
   * someone else has applied them.
   */
  MIGRATE_ON_START: bool.default(true),
  /**
   * Redis URL (redis://host:6379/0). Rate limits are then counted in Redis and shared by every
   * instance; without it each process counts in memory.
   */
  REDIS_URL: z.string().url().optional(),
  /** Public URL of the site, used in mails and for CORS. Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** Further origins allowed to make credentialed calls, comma separated. */
  ALLOWED_ORIGINS: z.string().default(''),
  /** SMTP server URL (smtp://user:pass@host:port). Without it mail is written to DATA_DIR/mail. */
  SMTP_URL: z.string().optional(),
  /** Sender of every mail. Defaults to "Poruch <no-reply@poruch.local>". */
  MAIL_FROM: z.string().default('Poruch <no-reply@poruch.local>'),
  /** Most mails the outbox worker hands to SMTP per minute (per process). Defaults to 600. */
  MAIL_RATE_PER_MINUTE: positiveInt.default(600),
  /** How often the outbox worker looks for due mail, in ms. Defaults to 1000. */
  MAIL_POLL_MS: positiveInt.default(1000),
  /** Delivery attempts before a mail is marked failed. Defaults to 8. */
  MAIL_MAX_ATTEMPTS: positiveInt.default(8),
  /** First retry delay in ms; each further retry doubles it (capped at 6 h). Defaults to 60000. */
  MAIL_RETRY_BASE_MS: positiveInt.default(60_000),
  /**
   * How long a claimed mail stays reserved for the worker that claimed it, in seconds. A row left
   * in `sending` by a dead process is claimed again after this. Defaults to 120.
   */
  MAIL_LEASE_SECONDS: positiveInt.default(120),
  /**
   * Allow push subscriptions whose endpoint is on a private, loopback or link-local address (a
   * push service on the same network, or tests). Off, the server never sends a push there, so a
   * subscription cannot make it request internal hosts. Defaults to false.
   */
  PUSH_ALLOW_PRIVATE_ENDPOINTS: bool.default(false),
  /** Run the outbox worker in this process. Defaults to true. */
  MAIL_WORKER: bool.default(true),
  /** Run the alert digests in this process (docs/mail.md § Alert digests). Defaults to true. */
  ALERT_DIGESTS: bool.default(true),
  /** Pause between two alert digest runs, in ms. Defaults to 60000. */
  ALERT_DIGEST_INTERVAL_MS: positiveInt.default(60_000),
  /** Alert subscriptions claimed per digest transaction (kept short). Defaults to 100. */
  ALERT_DIGEST_BATCH: positiveInt.default(100),
  /** Run the yearly re-confirmation job in this process (docs/product.md). Defaults to true. */
  RECONFIRM_JOB: bool.default(true),
  /** Pause between two re-confirmation runs, in ms. Defaults to 600000 (10 minutes). */
  RECONFIRM_INTERVAL_MS: positiveInt.default(600_000),
  /** HMAC secret of unsubscribe links. Defaults to one generated on first start and kept in settings. */
  UNSUBSCRIBE_SECRET: z.string().min(16).optional(),
  /** VAPID public key (base64url). Without both keys a pair is generated on first start and kept. */
  VAPID_PUBLIC_KEY: z.string().optional(),
  /** VAPID private key (base64url). */
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** VAPID subject, an https: or mailto: URL. Defaults to mailto: the address of MAIL_FROM. */
  VAPID_SUBJECT: z.string().optional(),
  /** A Nominatim-compatible geocoder (https://nominatim.example.org). Without it the offline gazetteer answers. */
  GEOCODER_URL: z.string().url().optional(),
  /**
   * Map tile URL template (`{z}`, `{x}`, `{y}`) given to the site and the map widget by /env, or
   * `none` for the offline base layer only. Defaults to OpenStreetMap's tile server.
   */
  TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /**
   * Embedded database only: minutes between two online snapshots into DATA_DIR/backups
   * (docs/operations.md § Snapshots and recovery). 0 turns them off. Fractions are allowed
   * (tests use seconds). Defaults to 360.
   */
  BACKUP_INTERVAL_MINUTES: z.coerce.number().min(0).default(360),
  /** Good snapshots kept in DATA_DIR/backups; older ones are deleted. Defaults to 14. */
  BACKUP_KEEP: positiveInt.default(14),
  /**
   * A shell command run after each good snapshot with the snapshot's path as "$1" (appended
   * when the command does not use it), e.g. `rclone copy "$1" offsite:poruch/`. Defaults to none.
   */
  BACKUP_COMMAND: z.string().trim().min(1).optional(),
  /** Longest BACKUP_COMMAND may run before it is killed, in seconds. Defaults to 600. */
  BACKUP_COMMAND_TIMEOUT_SECONDS: positiveInt.default(600),
  /** Seed the demo catalogue on first start. Defaults to true. */
  SEED_DEMO: bool.default(true),
  /** Log level. Defaults to info (warn in tests). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /**
   * The reverse proxies whose X-Forwarded-* headers are believed: IPs and CIDR ranges, comma
   * separated (see trustProxy above). Defaults to false (none).
   */
  TRUST_PROXY: trustProxy,
  /** Google Analytics id given to the site by /env. */
  ANALYTICS_ID: z.string().optional(),
  /** Tag-manager id given to the site by /env. */
  TAG_MANAGER_ID: z.string().optional(),
  /** Error reporting on the client. Defaults to false. */
  ERROR_REPORTING: bool.default(false),
  /** Absolute session lifetime in days, however active the session. Defaults to 30. */
  SESSION_DAYS: positiveInt.default(30),
  /**
   * Idle session lifetime in hours: a session unused this long ends. Each use extends it (written
   * at most once per half window). Defaults to 168 (7 days).
   */
  SESSION_IDLE_HOURS: positiveInt.default(168),
  /** Temporary password lifetime in minutes. Defaults to 60. */
  RESET_PASSWORD_MINUTES: positiveInt.default(60),
  /** Login attempts per IP per minute. Defaults to 20. */
  RATE_LOGIN_PER_IP: positiveInt.default(20),
  /**
   * Password checks per account per 15 minutes, right or wrong: login, credentials change and
   * account deletion count together. Defaults to 10.
   */
  RATE_LOGIN_PER_ACCOUNT: positiveInt.default(10),
  /** Reset and registration requests per IP per hour. Defaults to 10. */
  RATE_SIGNUP_PER_IP: positiveInt.default(10),
  /** Alert subscriptions (`POST alerts`) per IP per hour. Defaults to 20. */
  RATE_ALERT_PER_IP: positiveInt.default(20),
  /** Alert subscriptions (`POST alerts`) per e-mail address per hour. Defaults to 5. */
  RATE_ALERT_PER_EMAIL: positiveInt.default(5),
  /** Largest request body in bytes. Defaults to 262144. */
  BODY_LIMIT: positiveInt.default(256 * 1024),
  /**
   * Bearer token of GET /metrics (Prometheus). Without it /metrics answers 404 and no metrics are
   * collected.
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * On SIGTERM/SIGINT, the most time in ms to finish in-flight requests and the outbox batch before
   * the process exits anyway (with code 1). Defaults to 25000 (inside systemd's and Kubernetes' 30 s).
   */
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(25_000),
  /** Directory of the built site. Defaults to packages/site/dist. */
  SITE_DIR: z.string().optional(),
  /**
   * Folder of earlier widget releases (`release/widgets/<version>/` of `pnpm release`), served at
   * `/widgets/<version>/` beside the build, so pinned pages keep working. Defaults to none.
   */
  WIDGETS_RELEASES_DIR: z.string().optional(),
});

export type Env = z.infer<typeof envSchema> & {
  DATA_DIR: string;
  PUBLIC_URL: string;
  SITE_DIR: string;
};

/** Thrown when the environment is invalid; main prints it and exits with code 1. */
export class EnvError extends Error {
  override readonly name = 'EnvError';
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`[poruch] invalid environment:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
    throw new EnvError(
      '[poruch] invalid environment:\n  DATABASE_READ_URL: needs DATABASE_URL (a replica of what?)',
    );
  }
  return {
    ...env,
    // pnpm runs scripts inside the package; a relative path means the caller's folder (INIT_CWD).
    DATA_DIR: env.DATA_DIR
      ? path.resolve(source.INIT_CWD ?? process.cwd(), env.DATA_DIR)
      : path.join(REPO_ROOT, 'data'),
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    SITE_DIR: path.resolve(env.SITE_DIR ?? path.join(REPO_ROOT, 'packages/site/dist')),
  };
}
