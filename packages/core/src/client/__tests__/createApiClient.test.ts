import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  createApiClient,
  createI18n,
  createToastStore,
  translator,
  type Account,
  type ApiClientOptions,
} from '../../index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const account: Account = {
  id: 'a1',
  email: 'olena@example.com',
  type: 'PARTNER',
  isSuper: false,
  firstName: 'Олена',
  lastName: 'Шевченко',
  phone: '',
  locale: 'ua',
  marketingConsent: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const service = {
  id: 's1',
  ownerId: 'a1',
  name: 'Перукарня',
  countryCode: 'PL',
  category: 'beauty_and_health',
  address: '',
  addressDetails: null,
  website: '',
  phone: '',
  descriptionUa: '',
  descriptionOther: '',
  isOnline: false,
  haveVacancy: false,
  showOnMap: true,
  isPartner: false,
  status: 'pending',
  declineReason: null,
  usedCount: 0,
  originalPlace: '',
  marketingConsent: false,
  createdAt: account.createdAt,
  updatedAt: account.createdAt,
};
const env = {
  analyticsId: null,
  tagManagerId: null,
  errorReporting: { enabled: false, version: '0.1.0' },
  vapidPublicKey: null,
  apiBase: '/api/v1',
  tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
};

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const json = (res: ServerResponse, status: number, data: unknown, statusText?: string) => {
  res.writeHead(status, statusText ?? '', { 'content-type': 'application/json' });
  res.end(JSON.stringify(data));
};

const accountExport = {
  version: 1,
  exportedAt: account.createdAt,
  account: { ...account, unsubscribed: false, termsAgreedAt: null, updatedAt: account.createdAt },
  services: [service],
  vacancies: [],
  reports: [],
  usedMarks: [{ serviceId: 's1', createdAt: account.createdAt }],
  pushSubscriptions: [],
  mail: [],
};

/** Routes of the tiny server: method and path → handler. */
const routes: Record<string, Handler> = {
  'GET /env': (_q, _b, res) => json(res, 200, env),
  'GET /api/v1/auth/check': (_q, _b, res) => json(res, 200, { status: true, account }),
  'POST /api/v1/auth/login': (_q, body, res) => {
    const { password } = JSON.parse(body) as { password: string };
    if (password === 'right') return json(res, 200, account);
    json(
      res,
      401,
      { statusCode: 401, errors: { message: 'wrong_user_or_password' } },
      'Unauthorized',
    );
  },
  'PUT /api/v1/auth/update': (_q, body, res) => json(res, 200, { ...account, ...JSON.parse(body) }),
  'GET /api/v1/auth/logout': (_q, _b, res) => json(res, 200, { status: false }),
  'POST /api/v1/auth/reset-password': (_q, _b, res) => json(res, 200, { status: true }),
  'POST /api/v1/auth/notifications': (_q, _b, res) => json(res, 200, { status: true }),
  'POST /api/v1/auth/register': (_q, _b, res) => json(res, 201, { account, service }),
  'PUT /api/v1/auth/credentials': (_q, _b, res) => json(res, 200, account),
  'DELETE /api/v1/account': (_q, _b, res) => json(res, 200, { status: true }),
  'GET /api/v1/account/export': (_q, _b, res) => json(res, 200, accountExport),
  'GET /api/v1/broken': (_q, _b, res) => {
    res.writeHead(500, 'Internal Server Error');
    res.end('oops');
  },
  'GET /api/v1/detail': (_q, _b, res) =>
    json(
      res,
      404,
      {
        statusCode: 404,
        errors: { message: 'not_found' },
        error: { message: 'resource_was_not_found' },
      },
      'Not Found',
    ),
  'GET /api/v1/wrong-shape': (_q, _b, res) => json(res, 200, { status: 'yes' }),
};

let server: Server;
let base: string;
const seen: Seen[] = [];
let checkFails = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const path = new URL(req.url!, 'http://x').pathname;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (checkFails && path === '/api/v1/auth/check') {
        return json(
          res,
          500,
          { statusCode: 500, errors: { message: 'internal_server_error' } },
          'Internal Server Error',
        );
      }
      const handler = routes[`${req.method} ${path}`];
      if (handler) return handler(req, body, res);
      res.writeHead(404, 'Not Found');
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  checkFails = false;
});

const t = translator(createI18n('en_GB'));
function client(extra: ApiClientOptions = {}) {
  const toasts = createToastStore();
  const api = createApiClient({
    baseUrl: base,
    t,
    toasts,
    getCookie: (n) => (n === 'XSRF-TOKEN' ? 'tok-123' : undefined),
    ...extra,
  });
  return { api, toasts };
}
const last = () => seen[seen.length - 1]!;

describe('paths', () => {
  it('GET /env is at the site root, everything else under api/v1', async () => {
    const { api } = client({ baseUrl: `${base}/` });
    expect(await api.getEnv()).toEqual(env);
    expect(last().url).toBe('/env');
    expect(await api.authCheck()).toEqual({ status: true, account });
    expect(last().url).toBe('/api/v1/auth/check');
    await api.logout();
    expect(last()).toMatchObject({ method: 'GET', url: '/api/v1/auth/logout' });
  });

  it('every API call of the client hits its method and path with its body', async () => {
    const { api } = client();
    expect(await api.login({ email: 'olena@example.com', password: 'right' })).toEqual(account);
    expect(last()).toMatchObject({ method: 'POST', url: '/api/v1/auth/login' });
    expect(JSON.parse(last().body)).toEqual({ email: 'olena@example.com', password: 'right' });
    expect(last().headers['content-type']).toMatch(/application\/json/);

    expect((await api.update({ firstName: 'Оля' })).firstName).toBe('Оля');
    expect(last()).toMatchObject({ method: 'PUT', url: '/api/v1/auth/update' });

    await expect(api.resetPassword({ email: 'olena@example.com' })).resolves.toBeUndefined();
    expect(last()).toMatchObject({ method: 'POST', url: '/api/v1/auth/reset-password' });

    const subscription = {
      endpoint: 'https://push.example.com/1',
      keys: { p256dh: 'p', auth: 'a' },
    };
    await api.notifications({ toJSON: () => subscription });
    expect(last()).toMatchObject({ method: 'POST', url: '/api/v1/auth/notifications' });
    expect(JSON.parse(last().body)).toEqual(subscription);

    const result = await api.register({} as never);
    expect(result.service.id).toBe('s1');
    expect(last()).toMatchObject({ method: 'POST', url: '/api/v1/auth/register' });

    expect(await api.changeCredentials({ currentPassword: 'x', email: 'new@example.com' })).toEqual(
      account,
    );
    expect(last()).toMatchObject({ method: 'PUT', url: '/api/v1/auth/credentials' });

    await api.deleteAccount({ currentPassword: 'x' });
    expect(last()).toMatchObject({ method: 'DELETE', url: '/api/v1/account' });
    expect(JSON.parse(last().body)).toEqual({ currentPassword: 'x' });

    expect(await api.exportAccount()).toEqual(accountExport);
    expect(last()).toMatchObject({ method: 'GET', url: '/api/v1/account/export' });
  });

  it('url() and request() for other calls, with query parameters', async () => {
    const { api } = client();
    expect(api.url('services/1')).toBe(`${base}/api/v1/services/1`);
    expect(api.url('/env', { root: true })).toBe(`${base}/env`);
    await expect(
      api.request('GET', 'auth/check', { searchParams: { q: 'київ', page: 2 } }),
    ).resolves.toBeUndefined();
    expect(last().url).toBe(`/api/v1/auth/check?q=${encodeURIComponent('київ')}&page=2`);
  });
});

describe('anti-forgery header', () => {
  it('is sent on POST, PUT and DELETE with the XSRF-TOKEN cookie value', async () => {
    const { api } = client();
    await api.login({ email: 'a@b.co', password: 'right' });
    expect(last().headers['x-xsrf-token']).toBe('tok-123');
    await api.update({ phone: '' });
    expect(last().headers['x-xsrf-token']).toBe('tok-123');
    await api.deleteAccount({ currentPassword: 'x' });
    expect(last().headers['x-xsrf-token']).toBe('tok-123');
  });

  it('is not sent on GET', async () => {
    const { api } = client();
    await api.authCheck();
    await api.getEnv();
    await api.logout();
    expect(seen).toHaveLength(3);
    for (const s of seen) expect(s.headers['x-xsrf-token']).toBeUndefined();
  });

  it('is left out when there is no cookie (no document in Node)', async () => {
    const { api } = client({ getCookie: undefined });
    await api.resetPassword({ email: 'a@b.co' });
    expect(last().headers['x-xsrf-token']).toBeUndefined();
  });
});

describe('errors', () => {
  it('a failed call rejects with an ApiError and raises an error toast', async () => {
    const { api, toasts } = client();
    const error = await api.login({ email: 'a@b.co', password: 'wrong' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      key: 'wrong_user_or_password',
      summary: 'Wrong e-mail or password',
    });
    expect(toasts.getState().toasts).toMatchObject([
      { severity: 'error', summary: 'Wrong e-mail or password' },
    ]);
  });

  it('without a catalogue body the status text gives the key; the detail comes from error.message', async () => {
    const { api, toasts } = client();
    await expect(api.request('GET', 'broken')).rejects.toMatchObject({
      status: 500,
      key: 'internal_server_error',
    });
    await expect(api.request('GET', 'detail')).rejects.toMatchObject({
      key: 'not_found',
      summary: 'Request not found',
      detail: 'Contact the administrator',
    });
    await expect(api.request('GET', 'no/such/route')).rejects.toMatchObject({
      status: 404,
      key: 'not_found',
    });
    expect(toasts.getState().toasts.map((x) => [x.summary, x.detail])).toEqual([
      ['System error', undefined],
      ['Request not found', 'Contact the administrator'],
      ['Request not found', undefined],
    ]);
  });

  it('auth/check never raises a toast; silent calls neither', async () => {
    checkFails = true;
    const { api, toasts } = client();
    await expect(api.authCheck()).rejects.toMatchObject({
      status: 500,
      key: 'internal_server_error',
    });
    await expect(api.request('GET', 'auth/check')).rejects.toBeInstanceOf(ApiError);
    await expect(api.request('GET', 'broken', { silent: true })).rejects.toBeInstanceOf(ApiError);
    await expect(api.ky.get('auth/check')).rejects.toThrow();
    expect(toasts.getState().toasts).toEqual([]);
  });

  it('failures through the raw ky instance toast too', async () => {
    const { api, toasts } = client();
    await expect(api.ky.get('broken')).rejects.toThrow();
    expect(toasts.getState().toasts).toHaveLength(1);
  });

  it('onError replaces the toast', async () => {
    const reported: ApiError[] = [];
    const { api, toasts } = client({ onError: (e) => reported.push(e) });
    await expect(api.request('GET', 'broken')).rejects.toBeInstanceOf(ApiError);
    expect(reported.map((e) => e.key)).toEqual(['internal_server_error']);
    expect(toasts.getState().toasts).toEqual([]);
  });

  it('no answer at all is a network_error with status 0', async () => {
    const { api, toasts } = client({ baseUrl: 'http://127.0.0.1:1' });
    await expect(api.getEnv()).rejects.toMatchObject({ status: 0, key: 'network_error' });
    expect(toasts.getState().toasts[0]?.summary).toMatch(/No connection/);
  });

  it('an answer of the wrong shape is an unknown_error', async () => {
    const { api } = client();
    const { authCheckSchema } = await import('../../index.js');
    await expect(
      api.request('GET', 'wrong-shape', { schema: authCheckSchema }),
    ).rejects.toMatchObject({
      key: 'unknown_error',
    });
  });

  it('loadSchema: the schema is loaded with the answer and checks it like schema does', async () => {
    const { api } = client();
    let loads = 0;
    const loadSchema = async () => {
      loads++;
      return (await import('../../schemas/index.js')).authCheckSchema;
    };
    await expect(api.request('GET', 'wrong-shape', { loadSchema })).rejects.toMatchObject({
      key: 'unknown_error',
    });
    await expect(api.request('GET', 'auth/check', { loadSchema })).resolves.toEqual({
      status: true,
      account,
    });
    expect(loads).toBe(2);
    // Without a schema of either kind nothing is loaded or parsed.
    await expect(api.request('GET', 'wrong-shape')).resolves.toBeUndefined();
  });
});

describe('no zod on the first screen', () => {
  it("the client's and ApiError's static imports reach no zod and no schema module", async () => {
    const { readFile } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const staticImports = async (file: string) => {
      const text = await readFile(fileURLToPath(new URL(file, import.meta.url)), 'utf8');
      return [...text.matchAll(/^import (?!type )[^;]*? from '([^']+)'/gms)].map((m) => m[1]);
    };
    for (const file of ['../createApiClient.ts', '../ApiError.ts', '../../stores/authStore.ts']) {
      const imports = await staticImports(file);
      expect(imports.length, file).toBeGreaterThan(0);
      expect(
        imports.filter((i) => i === 'zod' || /schemas|errors|validation/.test(i!)),
        file,
      ).toEqual([]);
    }
  });
});
