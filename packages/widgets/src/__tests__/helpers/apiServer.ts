/**
 * The real Poruch server for widget behaviour suites (`@poruch/server/testing`): a fresh
 * database on a loopback port, seeded with approved services and vacancies. The widgets then call
 * it with the page's fetch, across origins, as on a partner's site. The server is imported when a
 * suite starts it, so suites that only use the helpers below do not load it.
 */

import type { ServiceInput } from '@poruch/core';
import { afterAll, beforeAll } from 'vitest';

const PASSWORD = 'test password 123';

export interface SeededService {
  id: string;
  name: string;
  /** The partner's session, for the dashboard suites. */
  session: Session;
}

export interface Session {
  cookie: string;
  xsrf: string;
}

export interface ApiServer {
  url: string;
  app: any;
  database: any;
  /** A partner with one service, approved unless `pending`. */
  addService(
    overrides?: Record<string, unknown>,
    options?: { pending?: boolean },
  ): Promise<SeededService>;
  /** A vacancy of a service, posted by its owner. */
  addVacancy(service: SeededService, vacancy: Record<string, unknown>): Promise<{ id: string }>;
  /** `inject` with a session: cookies and the anti-forgery header. */
  call(
    session: Session | null,
    method: string,
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * The address fields of a service input for a point in a city, as the gazetteer places it
 * (approximate), with the service's country set to the city's.
 */
export function cityAddress(lat: number, lng: number, city: string, countryCode: string) {
  return {
    countryCode,
    address: city,
    addressDetails: {
      lat,
      lng,
      displayName: city,
      city,
      countryCode,
      approximate: true,
      source: 'gazetteer',
    },
  };
}

const cookieHeader = (setCookie: string | string[] | undefined, into: Map<string, string>) => {
  for (const c of [setCookie ?? []].flat()) {
    const [pair] = c.split(';');
    const eq = pair!.indexOf('=');
    into.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
  }
};

export async function startApiServer(env: Record<string, string> = {}): Promise<ApiServer> {
  const { registration, seedPartnerService, startTestServer } =
    await import('@poruch/server/testing');
  const server = await startTestServer({
    RATE_LOGIN_PER_IP: '10000',
    ...env,
  });
  // Untyped like ApiServer.app: the suites inject with the methods and bodies they test.
  const app: ApiServer['app'] = server.app;

  const newSession = async (): Promise<Map<string, string>> => {
    const jar = new Map<string, string>();
    const res = await app.inject({ method: 'GET', url: '/api/v1/auth/check' });
    cookieHeader(res.headers['set-cookie'], jar);
    return jar;
  };
  const toSession = (jar: Map<string, string>): Session => ({
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    xsrf: decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
  });

  const call: ApiServer['call'] = async (session, method, url, payload) => {
    const res = await app.inject({
      method,
      url,
      headers: session
        ? { cookie: session.cookie, 'x-xsrf-token': session.xsrf, origin: server.env.PUBLIC_URL }
        : {},
      ...(payload !== undefined ? { payload } : {}),
    });
    let body: any;
    try {
      body = res.json();
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body };
  };

  return {
    url: server.url,
    app,
    database: server.database,
    async addService(overrides = {}, options = {}) {
      // Straight into the database, then a real login: the suites do not depend on the
      // registration route and its welcome mail.
      const body = registration();
      const row = await seedPartnerService(
        server.database.db,
        { email: body.account.email, password: PASSWORD, firstName: body.account.firstName },
        { ...body.service, ...overrides } as ServiceInput,
        options.pending ? 'pending' : 'approved',
      );
      const jar = await newSession();
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { cookie: toSession(jar).cookie, 'x-xsrf-token': toSession(jar).xsrf },
        payload: { email: body.account.email, password: PASSWORD },
      });
      if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
      cookieHeader(login.headers['set-cookie'], jar);
      // A GET after the login hands out a fresh anti-forgery token for the new session.
      const check = await app.inject({
        method: 'GET',
        url: '/api/v1/auth/check',
        headers: { cookie: toSession(jar).cookie },
      });
      cookieHeader(check.headers['set-cookie'], jar);
      return { id: row.id, name: row.name, session: toSession(jar) };
    },
    async addVacancy(service, vacancy) {
      const res = await call(
        service.session,
        'POST',
        `/api/v1/my/services/${service.id}/vacancies`,
        vacancy,
      );
      if (res.status !== 201) throw new Error(`vacancy: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.id };
    },
    call,
    close: () => server.close(),
  };
}

/**
 * The real API for the suite that calls it (at its top level): started before its tests, with
 * the page made same-origin with it (see useOrigin), and closed after them. Seed it in the
 * suite's own `beforeAll`, which runs after this one. The server does not exist until then, so
 * reading it at the top level throws rather than handing out `undefined`.
 *
 * @param env Server environment on top of the test defaults.
 */
export function apiServerForSuite(env: Record<string, string> = {}): ApiServer {
  let server: ApiServer | undefined;
  beforeAll(async () => {
    server = await startApiServer(env);
    useOrigin(server.url);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });
  return new Proxy({} as ApiServer, {
    get(_target, key) {
      if (!server)
        throw new Error(`[poruch] api.${String(key)}: the API server starts in beforeAll`);
      return Reflect.get(server, key);
    },
  });
}

/**
 * Makes the test page same-origin with the API. happy-dom preflights even simple cross-origin
 * GETs (browsers do not), which the server rightly does not answer; the cross-origin path is
 * covered by the Playwright suites in real Chromium.
 */
export function useOrigin(url: string): void {
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(url);
}

/**
 * An API that is down: every call answers 503 with the catalogue body, as a proxy in front of a
 * stopped server would. Returns its URL and a close function.
 */
export async function startOutage(): Promise<{ url: string; close(): Promise<void> }> {
  const http = await import('node:http');
  const server = http.createServer((req, res) => {
    res.writeHead(503, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'content-type',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
    });
    res.end(
      req.method === 'OPTIONS'
        ? ''
        : JSON.stringify({ statusCode: 503, errors: { message: 'service_unavailable' } }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * Runs `test` with the API down (startOutage) and the page same-origin with the outage, then
 * points the page back at `api` and stops the outage, whether `test` passed or not.
 */
export async function withOutage(
  api: ApiServer,
  test: (outage: { url: string }) => Promise<void>,
): Promise<void> {
  const outage = await startOutage();
  useOrigin(outage.url);
  try {
    await test(outage);
  } finally {
    useOrigin(api.url);
    await outage.close();
  }
}

/** A proxy in front of the API that holds back the answers of some requests (see withGate). */
export interface Gate {
  url: string;
  /** Resolves when the first held request has come in. */
  held: Promise<void>;
  /** Lets the held requests through to the API; resolves once their answers have been sent. */
  release(): Promise<void>;
}

/**
 * Runs `test` with the page same-origin with a proxy in front of `api` that passes every request
 * through, except that the answers of requests for which `hold(url)` is true wait until
 * `gate.release()`: an answer that comes late, deterministically. Then points the page back at
 * `api` and stops the proxy.
 */
export async function withGate(
  api: ApiServer,
  hold: (url: URL) => boolean,
  test: (gate: Gate) => Promise<void>,
): Promise<void> {
  const http = await import('node:http');
  let arrived!: () => void;
  const held = new Promise<void>((r) => (arrived = r));
  const waiting: (() => Promise<void>)[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', api.url);
    const answer = async () => {
      const headers: Record<string, string> = { accept: 'application/json' };
      const language = req.headers['accept-language'];
      if (typeof language === 'string') headers['accept-language'] = language;
      const upstream = await fetch(url, { headers });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (res.destroyed) return; // the page gave up on it (aborted)
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      await new Promise<void>((r) => res.end(body, () => r()));
    };
    if (hold(url)) {
      waiting.push(answer);
      arrived();
    } else {
      void answer();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  useOrigin(url);
  try {
    await test({
      url,
      held,
      release: async () => {
        await Promise.all(waiting.splice(0).map((answer) => answer()));
      },
    });
  } finally {
    useOrigin(api.url);
    server.closeAllConnections();
    await new Promise((r) => server.close(() => r(undefined)));
  }
}
