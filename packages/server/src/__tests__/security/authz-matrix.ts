import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registration } from '../helpers/fixtures.js';
import { PASSWORD, type Actor, type World } from './world.js';

/**
 * THE AUTHORISATION MATRIX: every route of the server (`METHOD url`, as Fastify registered it)
 * and what each actor gets. `allow` means the request succeeds (below 400) with the `call`'s
 * valid input; a number is the exact deny status, with its catalogue key (401 `unauthorized`,
 * 403 `forbidden`, 404 `resource_was_not_found`) and no change in the database.
 *
 * authz.test.ts reads the route table of the running app and fails when a route has no entry
 * here or an entry has no route. A HEAD route that Fastify adds for a GET uses the GET's entry.
 * A new route: add its line here, with the outcome the product wants, not the one it happens to
 * give (docs/security.md, "Authorisation matrix").
 */

export type Outcome = 'allow' | 401 | 403 | 404;
export type Cells = Record<Actor, Outcome>;

/** The input of one request; path params not given default to `{ id: world.serviceId }`. */
export interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Entry {
  cells: Cells;
  call?: (world: World) => Call;
  /** Why the route may be missing from the table (it is then not required). */
  optional?: string;
}

// The rows that repeat.
/** Anyone, logged in or not. */
const PUBLIC: Cells = {
  visitor: 'allow',
  owner: 'allow',
  otherPartner: 'allow',
  client: 'allow',
  admin: 'allow',
  superAdmin: 'allow',
};
/** Any logged-in account, acting on itself. */
const ACCOUNT: Cells = { ...PUBLIC, visitor: 401 };
/**
 * The owner's service or vacancy under my/: everybody else gets 404 (not 403), so an id's
 * existence does not leak. Administrators act on services through admin/ instead.
 */
const OWNER: Cells = {
  visitor: 401,
  owner: 'allow',
  otherPartner: 404,
  client: 404,
  admin: 404,
  superAdmin: 404,
};
/** Administrators. */
const ADMIN: Cells = {
  visitor: 401,
  owner: 403,
  otherPartner: 403,
  client: 403,
  admin: 'allow',
  superAdmin: 'allow',
};
/** No session at all: a bearer token (operators' tools) is the only way in. */
const NOBODY: Cells = {
  visitor: 401,
  owner: 401,
  otherPartner: 401,
  client: 401,
  admin: 401,
  superAdmin: 401,
};
/** Super administrators only. */
const SUPER: Cells = { ...ADMIN, admin: 403 };

const service = () => registration().service;
const vacancy = { name: 'Бариста', salary: '20 €/h', experience: 'any' as const };
const email = (label: string) =>
  `${label}-${Math.random().toString(36).slice(2)}@matrix.example.org`;

/** The widgets' script-tag build, when built: its version for the widget route. */
function widgetsVersion(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const manifest = path.resolve(here, '../../../../widgets/dist/cdn/manifest.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

export const MATRIX: Record<string, Entry> = {
  // Infrastructure and public documents.
  'OPTIONS *': {
    cells: PUBLIC,
    call: () => ({
      params: { '*': '/api/v1/reports' },
      headers: { origin: 'https://elsewhere.example.com', 'access-control-request-method': 'POST' },
    }),
  },
  'GET /healthz': { cells: PUBLIC },
  'GET /readyz': { cells: PUBLIC },
  'GET /env': { cells: PUBLIC },
  'GET /sitemap.xml': { cells: PUBLIC },
  'GET /sitemap-pages.xml': { cells: PUBLIC },
  'GET /sitemap-services-:page.xml': { cells: PUBLIC, call: () => ({ params: { page: '0' } }) },
  'GET /robots.txt': { cells: PUBLIC },
  // Open data and feeds: public documents for everyone (docs/open-data.md).
  'GET /api/v1/open-data/services.csv': { cells: PUBLIC },
  'GET /api/v1/open-data/services.geojson': { cells: PUBLIC },
  'GET /feeds/services.atom': { cells: PUBLIC, call: () => ({ query: { country: 'PL' } }) },
  'GET /feeds/vacancies.atom': { cells: PUBLIC, call: () => ({ query: { lang: 'en_GB' } }) },
  // Prometheus metrics answer only the METRICS_TOKEN bearer (operators), never a session.
  'GET /metrics': { cells: NOBODY },
  // The OpenAPI document and its page are public on purpose: the API is documented for embedders.
  'GET /api/docs': { cells: PUBLIC },
  'GET /api/docs/static/index.html': { cells: PUBLIC },
  'GET /api/docs/static/swagger-initializer.js': { cells: PUBLIC },
  'GET /api/docs/json': { cells: PUBLIC },
  'GET /api/docs/yaml': { cells: PUBLIC },
  'GET /api/docs/static/*': { cells: PUBLIC, call: () => ({ params: { '*': 'index.css' } }) },
  'GET /widgets/:version/*': {
    cells: PUBLIC,
    optional: 'registered only when the widgets build (packages/widgets/dist/cdn) exists',
    call: () => ({ params: { version: widgetsVersion(), '*': 'manifest.json' } }),
  },

  // Auth. Login, registration and reset are open to everyone, logged in or not.
  'GET /api/v1/auth/check': { cells: PUBLIC },
  'POST /api/v1/auth/login': {
    cells: PUBLIC,
    call: (w) => ({ body: { email: w.owner.email, password: PASSWORD } }),
  },
  'GET /api/v1/auth/logout': { cells: PUBLIC },
  'PUT /api/v1/auth/update': { cells: ACCOUNT, call: () => ({ body: { firstName: 'Ірина' } }) },
  'POST /api/v1/auth/reset-password': {
    cells: PUBLIC,
    call: (w) => ({ body: { email: w.owner.email } }),
  },
  'POST /api/v1/auth/register': { cells: PUBLIC, call: () => ({ body: registration() }) },
  'PUT /api/v1/auth/credentials': {
    cells: ACCOUNT,
    call: () => ({ body: { currentPassword: PASSWORD, email: email('moved') } }),
  },
  'POST /api/v1/auth/notifications': {
    cells: ACCOUNT,
    call: () => ({
      body: {
        endpoint: `https://push.example.org/send/${Math.random().toString(36).slice(2)}`,
        keys: { p256dh: 'BNcR', auth: 'tBHI' },
      },
    }),
  },
  'DELETE /api/v1/account': {
    cells: ACCOUNT,
    call: () => ({ body: { currentPassword: PASSWORD } }),
  },
  // The data export: each account gets its own, whoever asks (no id to name another).
  'GET /api/v1/account/export': { cells: ACCOUNT },

  // Public catalogue; anonymous posts (used mark, report) are open to every actor.
  'GET /api/v1/services': { cells: PUBLIC },
  'GET /api/v1/services/:id': { cells: PUBLIC },
  'POST /api/v1/services/:id/used': {
    cells: PUBLIC,
    call: (w) => ({
      params: { id: w.serviceId },
      body: { browserId: `matrix${Math.random().toString(36).slice(2)}xxxxxxxxxx` },
    }),
  },
  'GET /api/v1/vacancies': { cells: PUBLIC },
  'POST /api/v1/reports': {
    cells: PUBLIC,
    call: (w) => ({ body: { serviceId: w.serviceId, reason: 'no_contact' } }),
  },
  'GET /api/v1/map': {
    cells: PUBLIC,
    call: () => ({ query: { bbox: '-10,35,40,70', zoom: '4' } }),
  },
  'GET /api/v1/geocode': {
    cells: PUBLIC,
    call: () => ({ query: { address: 'Warszawa', country: 'PL' } }),
  },
  'GET /api/v1/geocode/suggest': {
    cells: PUBLIC,
    call: () => ({ query: { address: 'Warsz', country: 'PL' } }),
  },
  'GET /api/v1/unsubscribe': {
    cells: PUBLIC,
    call: (w) => ({ query: { token: w.unsubscribeToken } }),
  },
  'POST /api/v1/unsubscribe': {
    cells: PUBLIC,
    call: (w) => ({
      query: { token: w.unsubscribeToken },
      body: { 'List-Unsubscribe': 'One-Click' },
    }),
  },
  // Alerts: no session; the signed token of the mailed link is the authorisation.
  'POST /api/v1/alerts': {
    cells: PUBLIC,
    call: () => ({ body: { email: email('alert'), kind: 'services', filters: {} } }),
  },
  'POST /api/v1/alerts/confirm': {
    cells: PUBLIC,
    call: (w) => ({ body: { token: w.alertTokens.confirm } }),
  },
  'POST /api/v1/alerts/manage': {
    cells: PUBLIC,
    call: (w) => ({ body: { token: w.alertTokens.manage } }),
  },
  'PUT /api/v1/alerts/manage/:id': {
    cells: PUBLIC,
    call: (w) => ({
      params: { id: w.alertId },
      body: { token: w.alertTokens.manage, frequency: 'weekly' },
    }),
  },
  'DELETE /api/v1/alerts/manage/:id': {
    cells: PUBLIC,
    call: (w) => ({ params: { id: w.alertId }, body: { token: w.alertTokens.manage } }),
  },
  'DELETE /api/v1/alerts/manage/:id/push': {
    cells: PUBLIC,
    call: (w) => ({ params: { id: w.alertId }, body: { token: w.alertTokens.manage } }),
  },
  'DELETE /api/v1/alerts/manage': {
    cells: PUBLIC,
    call: (w) => ({ body: { token: w.alertTokens.manage } }),
  },
  'POST /api/v1/alerts/unsubscribe': {
    cells: PUBLIC,
    call: (w) => ({
      query: { token: w.alertTokens.unsubscribe },
      body: { 'List-Unsubscribe': 'One-Click' },
    }),
  },

  // A partner's own services and vacancies. The lists and "add" are any account's own.
  'GET /api/v1/my/services': { cells: ACCOUNT },
  'POST /api/v1/my/services': { cells: ACCOUNT, call: () => ({ body: service() }) },
  'PUT /api/v1/my/services/:id': {
    cells: OWNER,
    call: (w) => ({ params: { id: w.serviceId }, body: service() }),
  },
  'DELETE /api/v1/my/services/:id': { cells: OWNER },
  'POST /api/v1/my/services/:id/confirm': { cells: OWNER },
  'POST /api/v1/reconfirm': {
    cells: PUBLIC,
    call: (w) => ({ body: { token: w.reconfirmToken } }),
  },
  'PUT /api/v1/my/services/:id/map': {
    cells: OWNER,
    call: (w) => ({ params: { id: w.serviceId }, body: { showOnMap: false } }),
  },
  'GET /api/v1/my/services/:id/vacancies': { cells: OWNER },
  'POST /api/v1/my/services/:id/vacancies': {
    cells: OWNER,
    call: (w) => ({ params: { id: w.serviceId }, body: vacancy }),
  },
  'PUT /api/v1/my/vacancies/:id': {
    cells: OWNER,
    call: (w) => ({ params: { id: w.vacancyId }, body: vacancy }),
  },
  'PUT /api/v1/my/vacancies/:id/open': {
    cells: OWNER,
    call: (w) => ({ params: { id: w.vacancyId }, body: { isOpen: false } }),
  },
  'DELETE /api/v1/my/vacancies/:id': {
    cells: OWNER,
    call: (w) => ({ params: { id: w.vacancyId } }),
  },

  // Administration.
  'GET /api/v1/admin/services': { cells: ADMIN },
  'GET /api/v1/admin/services/:id': { cells: ADMIN },
  'POST /api/v1/admin/services/:id/approve': { cells: ADMIN },
  'POST /api/v1/admin/services/:id/decline': {
    cells: ADMIN,
    call: (w) => ({ params: { id: w.serviceId }, body: { reason: 'Адреса не існує' } }),
  },
  'PUT /api/v1/admin/services/:id/partner': {
    cells: ADMIN,
    call: (w) => ({ params: { id: w.serviceId }, body: { isPartner: true } }),
  },
  // Duplicate detection: the check runs before an account exists (registration).
  'POST /api/v1/services/duplicates': {
    cells: PUBLIC,
    call: () => ({ body: { name: 'Калина', lat: 52.2297, lng: 21.0122 } }),
  },
  'GET /api/v1/admin/services/:id/duplicates': { cells: ADMIN },
  'GET /api/v1/admin/claims': { cells: ADMIN },
  'POST /api/v1/admin/claims/:serviceId/:candidateId/approve': {
    cells: ADMIN,
    call: (w) => ({ params: { serviceId: w.claimingServiceId, candidateId: w.serviceId } }),
  },
  'POST /api/v1/admin/claims/:serviceId/:candidateId/decline': {
    cells: ADMIN,
    call: (w) => ({ params: { serviceId: w.claimingServiceId, candidateId: w.serviceId } }),
  },
  'GET /api/v1/admin/reports': { cells: ADMIN },
  'POST /api/v1/admin/reports/:id/resolve': {
    cells: ADMIN,
    call: (w) => ({ params: { id: w.reportId } }),
  },
  'GET /api/v1/admin/audit': { cells: ADMIN },
  'POST /api/v1/admin/campaigns/recipients': {
    cells: ADMIN,
    call: () => ({ body: { statuses: ['approved'], categories: [] } }),
  },
  'POST /api/v1/admin/campaigns': {
    cells: ADMIN,
    call: () => ({ body: { subject: 'Новини', content: 'Привіт', sendToSelf: true } }),
  },
  'GET /api/v1/admin/campaigns': { cells: ADMIN },
  'GET /api/v1/admin/campaigns/:id': {
    cells: ADMIN,
    call: (w) => ({ params: { id: w.campaignId } }),
  },
  'POST /api/v1/admin/administrators': {
    cells: SUPER,
    call: () => ({ body: { email: email('admin'), firstName: 'Адмін' } }),
  },
  'GET /api/v1/admin/administrators': { cells: SUPER },
  // The super administrator keeps their own role (a change that changes nothing).
  'PUT /api/v1/admin/administrators/:id/role': {
    cells: SUPER,
    call: (w) => ({ params: { id: w.actor?.id ?? w.owner.id }, body: { role: 'super' } }),
  },
};

/**
 * State-changing routes that take no anti-forgery token, each with the reason. Every other
 * POST, PUT, PATCH and DELETE must refuse a missing or mismatched token (authz.test.ts).
 */
export const CSRF_EXEMPT: Record<string, string> = {
  'POST /api/v1/reports':
    'anonymous and cookie-less: embedded widgets on other sites post reports; it acts as nobody, ' +
    'is rate-limited per IP and refuses opaque origins',
  'POST /api/v1/services/:id/used':
    'anonymous and cookie-less "I have used this service" from embedded widgets; one mark per ' +
    'browser id, rate-limited per IP',
  'POST /api/v1/unsubscribe':
    'RFC 8058 one-click unsubscribe: the mail client posts without cookies; the signed token in ' +
    'the URL is the authorisation, and it can only unsubscribe its own account',
  'POST /api/v1/reconfirm':
    'the signed token of the re-confirmation mail ("Still active", one click, no login) is the ' +
    'authorisation; it can only confirm that one service for its current yearly cycle',
  'POST /api/v1/alerts':
    'anonymous and cookie-less: the site and embedded widgets subscribe an address; it mails a ' +
    'confirmation only (double opt-in), answers the same for every address, is rate-limited per ' +
    'IP and per address and refuses opaque origins',
  'POST /api/v1/alerts/confirm':
    'the signed token of the confirmation mail is the authorisation; it confirms that one alert',
  'POST /api/v1/alerts/manage':
    "the signed manage token of the alert mails is the authorisation; it reads that address's alerts",
  'PUT /api/v1/alerts/manage/:id':
    "the signed manage token is the authorisation; it changes only that address's alerts",
  'DELETE /api/v1/alerts/manage/:id':
    "the signed manage token is the authorisation; it deletes only that address's alerts",
  'DELETE /api/v1/alerts/manage/:id/push':
    "the signed manage token is the authorisation; it turns off only that address's alert's pushes",
  'DELETE /api/v1/alerts/manage':
    "the signed manage token is the authorisation; it deletes only that address's alerts",
  'POST /api/v1/alerts/unsubscribe':
    'RFC 8058 one-click unsubscribe of alert mails: the signed token in the URL is the ' +
    'authorisation, and it can only delete its own alert',
};
