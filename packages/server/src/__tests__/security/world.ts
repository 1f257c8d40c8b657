import { sql } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { hashPassword } from '../../lib/passwords.js';
import { hashToken, randomToken } from '../../lib/tokens.js';
import { unsubscribeToken } from '../../mail/unsubscribe.js';
import { reconfirmToken } from '../../reconfirm/index.js';
import { alertSubscriptions } from '../../db/schema.js';
import { alertConfirmToken, alertManageToken, alertUnsubscribeToken } from '../../alerts/links.js';
import { TestClient } from '../helpers/client.js';
import { registration } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';

/** The actors of the authorisation matrix. */
export const ACTORS = [
  'visitor',
  'owner',
  'otherPartner',
  'client',
  'admin',
  'superAdmin',
] as const;
export type Actor = (typeof ACTORS)[number];

/** The password of every seeded account. */
export const PASSWORD = 'matrix password 123';
let passwordHash: Promise<string> | undefined;

export interface SeededAccount {
  id: string;
  email: string;
}

/**
 * A fresh, small state for one request: partner A (the owner) with an approved service, a
 * vacancy on it, a new report about it, a campaign, and the acting account.
 */
export interface World {
  owner: SeededAccount;
  /** The account the request is made as (null for the visitor; the owner for `owner`). */
  actor: SeededAccount | null;
  serviceId: string;
  vacancyId: string;
  reportId: string;
  campaignId: string;
  /** A pending service of the owner's that claims `serviceId` as theirs (an open claim). */
  claimingServiceId: string;
  /** The actor's session cookie value (null for the visitor). */
  sessionToken: string | null;
  /** A valid unsubscribe token of the owner. */
  unsubscribeToken: string;
  /** The "Still active" link's token of `serviceId` (its cycle: no confirmation yet). */
  reconfirmToken: string;
  /** An unconfirmed alert of the owner's address, and the tokens of its links. */
  alertId: string;
  alertTokens: { confirm: string; manage: string; unsubscribe: string };
}

let n = 0;
const uniqueEmail = (label: string) => `${label}-${++n}-${Date.now()}@matrix.example.org`;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const ACTOR_ROWS: Record<Actor, { type: string; isSuper: boolean } | null> = {
  visitor: null,
  owner: null,
  otherPartner: { type: 'PARTNER', isSuper: false },
  client: { type: 'CLIENT', isSuper: false },
  admin: { type: 'ADMIN', isSuper: false },
  superAdmin: { type: 'ADMIN', isSuper: true },
};

/**
 * Seeds a world for one cell, and the actor's server-side session (the same row a login makes,
 * without paying scrypt for every cell). One statement: the matrix runs hundreds of cells, and
 * nothing is shared between them.
 */
export async function seedWorld(server: TestServer, actor: Actor): Promise<World> {
  passwordHash ??= hashPassword(PASSWORD);
  const hash = await passwordHash;
  const ownerEmail = uniqueEmail('owner');
  const actorRow = ACTOR_ROWS[actor];
  const actorEmail = uniqueEmail(actor);
  const sessionToken = actor === 'visitor' ? null : randomToken();
  const expiresAt = new Date(Date.now() + server.env.SESSION_DAYS * 86_400_000).toISOString();
  const details = registration().service.addressDetails;
  const result = await server.database.db.execute(sql`
    WITH owner AS (
      INSERT INTO accounts (email, password_hash, type, first_name)
      VALUES (${ownerEmail}, ${hash}, 'PARTNER', 'owner') RETURNING id, email
    ), actor AS (
      INSERT INTO accounts (email, password_hash, type, is_super, first_name)
      SELECT ${actorEmail}, ${hash}, ${actorRow?.type ?? 'PARTNER'}, ${actorRow?.isSuper ?? false}, ${actor}
      WHERE ${actorRow !== null} RETURNING id, email
    ), svc AS (
      INSERT INTO services (owner_id, name, country_code, category, address, address_details,
        lat, lng, website, phone, description_ua, status, have_vacancy)
      SELECT id, 'Перукарня «Калина»', 'PL', 'beauty_and_health', 'ul. Marszałkowska 10, Warszawa',
        ${JSON.stringify(details)}::jsonb, 52.2297, 21.0122, 'https://kalyna.example.org',
        '+48 600 100 200', 'Стрижки та фарбування.', 'approved', true
      FROM owner RETURNING id
    ), claiming AS (
      INSERT INTO services (owner_id, name, country_code, status)
      SELECT id, 'Kalyna', 'PL', 'pending' FROM owner RETURNING id
    ), claim AS (
      INSERT INTO duplicate_answers (service_id, candidate_id, answer, claim_status)
      SELECT claiming.id, svc.id, 'mine', 'open' FROM claiming, svc RETURNING service_id
    ), vac AS (
      INSERT INTO vacancies (service_id, name) SELECT id, 'Barista' FROM svc RETURNING id
    ), rep AS (
      INSERT INTO reports (service_id, reason, description)
      SELECT id, 'other', 'matrix' FROM svc RETURNING id
    ), camp AS (
      INSERT INTO campaigns (subject, content, send_to_self) VALUES ('Matrix', 'Hello', true)
      RETURNING id
    ), sess AS (
      INSERT INTO sessions (token_hash, account_id, expires_at)
      SELECT ${sessionToken ? hashToken(sessionToken) : ''},
        coalesce((SELECT id FROM actor), (SELECT id FROM owner)), ${expiresAt}::timestamptz
      WHERE ${sessionToken !== null} RETURNING token_hash
    )
    SELECT (SELECT id FROM owner) AS owner_id, (SELECT email FROM owner) AS owner_email,
      (SELECT id FROM actor) AS actor_id, (SELECT email FROM actor) AS actor_email,
      (SELECT id FROM svc) AS service_id, (SELECT id FROM vac) AS vacancy_id,
      (SELECT id FROM rep) AS report_id, (SELECT id FROM camp) AS campaign_id,
      (SELECT service_id FROM claim) AS claiming_service_id,
      (SELECT count(*) FROM sess) AS sessions
  `);
  const row = rowsOf<Record<string, string>>(result)[0]!;
  const owner = { id: row.owner_id!, email: row.owner_email! };
  const secret = server.app.mail.unsubscribeSecret;
  const [alert] = await server.database.db
    .insert(alertSubscriptions)
    .values({
      email: owner.email,
      locale: 'ua',
      kind: 'services',
      filters: { category: 'all' },
      frequency: 'daily',
    })
    .returning({ id: alertSubscriptions.id });
  return {
    owner,
    actor:
      actor === 'visitor'
        ? null
        : actor === 'owner'
          ? owner
          : { id: row.actor_id!, email: row.actor_email! },
    sessionToken,
    serviceId: row.service_id!,
    vacancyId: row.vacancy_id!,
    reportId: row.report_id!,
    campaignId: row.campaign_id!,
    claimingServiceId: row.claiming_service_id!,
    unsubscribeToken: unsubscribeToken(server.app.mail.unsubscribeSecret, owner.id),
    reconfirmToken: reconfirmToken(secret, row.service_id!, new Date(0), new Date()),
    alertId: alert!.id,
    alertTokens: {
      confirm: alertConfirmToken(secret, alert!.id),
      manage: alertManageToken(secret, owner.email),
      unsubscribe: alertUnsubscribeToken(secret, alert!.id),
    },
  };
}

/** The anti-forgery cookies of one real browser, shared by every cell (they bind no session). */
const csrfCookies = new WeakMap<TestServer, Promise<Map<string, string>>>();

/** A browser with the world's session cookie and valid anti-forgery cookies. */
export async function browserOf(server: TestServer, world: World) {
  let cookies = csrfCookies.get(server);
  if (!cookies) {
    cookies = (async () => {
      const first = new TestClient(server.url);
      await first.init();
      return first.cookies;
    })();
    csrfCookies.set(server, cookies);
  }
  const client = new TestClient(server.url);
  for (const [name, value] of await cookies) client.cookies.set(name, value);
  if (world.sessionToken) client.cookies.set('poruch_session', world.sessionToken);
  return client;
}

const TABLES = [
  'accounts',
  'services',
  'vacancies',
  'reports',
  'campaigns',
  'sessions',
  'push_subscriptions',
  'audit_log',
  'mail_outbox',
  'used_marks',
  'duplicate_answers',
] as const;

/**
 * What a denied request must not change: the world's rows, compared whole, and the size of every
 * table a route writes to. One statement.
 */
export async function snapshot(server: TestServer, world: World): Promise<string> {
  const actorId = world.actor?.id ?? world.owner.id;
  const sizes = sql.join(
    TABLES.map((t) => sql`(SELECT count(*) FROM ${sql.identifier(t)}) AS ${sql.identifier(t)}`),
    sql`, `,
  );
  const result = await server.database.db.execute(sql`
    SELECT ${sizes},
      (SELECT json_agg(a ORDER BY a.id)::text FROM accounts a
        WHERE a.id IN (${world.owner.id}, ${actorId})) AS account_rows,
      (SELECT row_to_json(s)::text FROM services s WHERE s.id = ${world.serviceId}) AS service_row,
      (SELECT row_to_json(v)::text FROM vacancies v WHERE v.id = ${world.vacancyId}) AS vacancy_row,
      (SELECT row_to_json(r)::text FROM reports r WHERE r.id = ${world.reportId}) AS report_row,
      (SELECT row_to_json(c)::text FROM campaigns c WHERE c.id = ${world.campaignId}) AS campaign_row
  `);
  return JSON.stringify(rowsOf(result)[0]);
}

/** `METHOD url` of every route in the table (a route with several methods gives several keys). */
export function routeKeys(table: RouteOptions[]): { key: string; route: RouteOptions }[] {
  return table.flatMap((route) =>
    [route.method].flat().map((method) => ({ key: `${method} ${route.url}`, route })),
  );
}

/** Fills `:name` and `*` of a route url. */
export function fillPath(url: string, params: Record<string, string>): string {
  return url
    .replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`no value for :${name} in ${url}`);
      return encodeURIComponent(value);
    })
    .replace(/\*$/, () => params['*'] ?? '');
}
