import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  createApi,
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
  'GET /api/v1/not-json': (_q, _b, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html></html>');
  },
  'GET /api/v1/empty': (_q, _b, res) => {
    res.writeHead(204);
    res.end();
  },
  /** Answers after `?ms=` milliseconds. */
  'GET /api/v1/slow': (q, _b, res) => {
    const ms = Number(new URL(q.url!, 'http://x').searchParams.get('ms'));
    setTimeout(() => json(res, 200, { status: true }), ms);
  },
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

  it('url(), get() and send() for other calls, with query parameters', async () => {
    const { api } = client();
    expect(api.url('services/1')).toBe(`${base}/api/v1/services/1`);
    expect(api.url('/env', { root: true })).toBe(`${base}/env`);
    expect(api.url('services', { query: { q: 'a b', country: '', page: 2, x: undefined } })).toBe(
      `${base}/api/v1/services?q=a+b&page=2`,
    );
    await expect(
      api.get('auth/check', { query: { q: 'київ', page: 2, online: null } }),
    ).resolves.toEqual({ status: true, account });
    expect(last().url).toBe(`/api/v1/auth/check?q=${encodeURIComponent('київ')}&page=2`);
    await api.get('auth/check', {
      query: new URLSearchParams([
        ['c', 'PL'],
        ['c', 'CZ'],
      ]),
    });
    expect(last().url).toBe('/api/v1/auth/check?c=PL&c=CZ');
    await expect(api.send('DELETE', 'account')).resolves.toEqual({ status: true });
    expect(last()).toMatchObject({ method: 'DELETE', url: '/api/v1/account', body: '' });
    expect(last().headers['content-type']).toBeUndefined();
  });

  it('answers are typed, not parsed: the JSON as sent, undefined when empty', async () => {
    const { api } = client();
    await expect(api.get('wrong-shape')).resolves.toEqual({ status: 'yes' });
    await expect(api.get('empty')).resolves.toBeUndefined();
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

  it('is left out when no cookies go with the call (a widget on a foreign page)', async () => {
    const { api } = client({ credentials: 'omit' });
    await api.resetPassword({ email: 'a@b.co' });
    expect(last().headers['x-xsrf-token']).toBeUndefined();
    expect(JSON.parse(last().body)).toEqual({ email: 'a@b.co' });
  });
});

describe('credentials', () => {
  /** The credentials mode of each fetch the client makes (the real fetch still runs). */
  function recording(options: ApiClientOptions) {
    const modes: string[] = [];
    const { api } = client({
      ...options,
      fetch: (input, init) => {
        modes.push(`${init?.method} ${init?.credentials}`);
        return fetch(input, init);
      },
    });
    return { api, modes };
  }

  it('same-origin by default; a GET sends no header at all (no CORS preflight)', async () => {
    const { api, modes } = recording({});
    await api.authCheck();
    await api.resetPassword({ email: 'a@b.co' });
    expect(modes).toEqual(['GET same-origin', 'POST same-origin']);
    expect(seen[0]!.headers['content-type']).toBeUndefined();
    expect(seen[0]!.headers['x-xsrf-token']).toBeUndefined();
  });

  it('readCredentials applies to GETs only', async () => {
    const { api, modes } = recording({ credentials: 'omit', readCredentials: 'same-origin' });
    await api.authCheck();
    await api.resetPassword({ email: 'a@b.co' });
    expect(modes).toEqual(['GET same-origin', 'POST omit']);
  });
});

describe('errors', () => {
  it('a failed call rejects with an ApiError and raises an error toast', async () => {
    const { api, toasts } = client();
    const error = await api.login({ email: 'a@b.co', password: 'wrong' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, key: 'wrong_user_or_password' });
    expect(toasts.getState().toasts).toMatchObject([
      { severity: 'error', summary: 'Wrong e-mail or password' },
    ]);
  });

  it('without a catalogue body the status text gives the key; the detail comes from error.message', async () => {
    const { api, toasts } = client();
    await expect(api.get('broken')).rejects.toMatchObject({
      status: 500,
      key: 'internal_server_error',
    });
    await expect(api.get('detail')).rejects.toMatchObject({
      key: 'not_found',
      detailKey: 'resource_was_not_found',
    });
    await expect(api.get('no/such/route')).rejects.toMatchObject({
      status: 404,
      key: 'not_found',
    });
    expect(toasts.getState().toasts.map((x) => [x.summary, x.detail])).toEqual([
      ['System error', undefined],
      ['Not found', 'Contact the administrator'],
      ['Not found', undefined],
    ]);
  });

  it('auth/check and /env never raise a toast; silent calls neither', async () => {
    checkFails = true;
    const { api, toasts } = client();
    await expect(api.authCheck()).rejects.toMatchObject({
      status: 500,
      key: 'internal_server_error',
    });
    await expect(api.get('auth/check')).rejects.toBeInstanceOf(ApiError);
    await expect(api.get('/auth/check')).rejects.toBeInstanceOf(ApiError);
    await expect(api.get('broken', { silent: true })).rejects.toBeInstanceOf(ApiError);
    const offline = client({ baseUrl: 'http://127.0.0.1:1' });
    await expect(offline.api.getEnv()).rejects.toMatchObject({ key: 'network_error' });
    expect(toasts.getState().toasts).toEqual([]);
    expect(offline.toasts.getState().toasts).toEqual([]);
  });

  it('onError replaces the toast', async () => {
    const reported: ApiError[] = [];
    const { api, toasts } = client({ onError: (e) => reported.push(e) });
    await expect(api.get('broken')).rejects.toBeInstanceOf(ApiError);
    expect(reported.map((e) => e.key)).toEqual(['internal_server_error']);
    expect(toasts.getState().toasts).toEqual([]);
  });

  it('no answer at all is a network_error with status 0', async () => {
    const { api, toasts } = client({ baseUrl: 'http://127.0.0.1:1' });
    await expect(api.logout()).rejects.toMatchObject({ status: 0, key: 'network_error' });
    expect(toasts.getState().toasts[0]?.summary).toMatch(/No connection/);
  });

  it('a call that runs out of time is a request_timeout with status 0', async () => {
    const { api, toasts } = client({ timeout: 50 });
    await expect(api.get('slow', { query: { ms: 1000 } })).rejects.toMatchObject({
      status: 0,
      key: 'request_timeout',
    });
    expect(toasts.getState().toasts).toHaveLength(1);
    // In time, the same call answers.
    await expect(api.get('slow', { query: { ms: 0 } })).resolves.toEqual({ status: true });
  });

  it("the caller's abort rejects with the AbortError itself and shows no toast", async () => {
    const { api, toasts } = client();
    const controller = new AbortController();
    const call = api.get('slow', { query: { ms: 1000 }, signal: controller.signal });
    controller.abort();
    const error = await call.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
    // Aborted before it starts: the same.
    await expect(api.get('auth/check', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(toasts.getState().toasts).toEqual([]);
  });

  it('an answer that is not JSON is an unknown_error', async () => {
    const { api, toasts } = client();
    await expect(api.get('not-json')).rejects.toMatchObject({ status: 200, key: 'unknown_error' });
    expect(toasts.getState().toasts).toHaveLength(1);
  });
});

describe('one table of error keys', () => {
  it("the widgets' client (no cookies, no toasts) and the site's give the same key", async () => {
    // The widgets' configuration, as WidgetShell makes it.
    const widget = createApi({ baseUrl: base, credentials: 'omit' });
    const { api: site, toasts } = client();
    const cases: Array<[string, string]> = [
      ['broken', 'internal_server_error'],
      ['detail', 'not_found'],
      ['no/such/route', 'not_found'],
      ['not-json', 'unknown_error'],
    ];
    for (const [path, key] of cases) {
      const fromWidget = await widget.get(path).catch((e: unknown) => e);
      const fromSite = await site.get(path).catch((e: unknown) => e);
      expect(fromWidget, path).toBeInstanceOf(ApiError);
      expect(fromWidget, path).toMatchObject({ key, status: (fromSite as ApiError).status });
      expect(fromSite, path).toMatchObject({ key });
    }
    expect(toasts.getState().toasts.map((x) => x.summary)).toEqual(
      cases.map(([, key]) => t(`error.${key}`)),
    );
  });
});

describe('no zod on the first screen', () => {
  it("the clients' and ApiError's static imports reach no zod and no schema module", async () => {
    const { readFile } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const staticImports = async (file: string) => {
      const text = await readFile(fileURLToPath(new URL(file, import.meta.url)), 'utf8');
      return [...text.matchAll(/^import (?!type )[^;]*? from '([^']+)'/gms)].map((m) => m[1]);
    };
    const files = ['../createApi.ts', '../createApiClient.ts', '../ApiError.ts'];
    for (const file of [...files, '../../stores/authStore.ts']) {
      const imports = await staticImports(file);
      expect(imports.length, file).toBeGreaterThan(0);
      expect(
        imports.filter((i) => i === 'zod' || /schemas|errors|validation/.test(i!)),
        file,
      ).toEqual([]);
    }
  });
});
