import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createApiClient,
  createAuthStore,
  createI18n,
  createToastStore,
  selectIsAdmin,
  selectIsLoggedIn,
  selectIsPartner,
  selectIsSuperAdmin,
  translator,
  type Account,
} from '../../index.js';

const partner: Account = {
  id: 'a1',
  email: 'olena@example.com',
  type: 'PARTNER',
  isSuper: false,
  firstName: 'Олена',
  lastName: '',
  phone: '',
  locale: 'ua',
  marketingConsent: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const admin: Account = { ...partner, id: 'a2', type: 'ADMIN', isSuper: true };

/** A tiny auth server: one session flag, a check that can fail. */
let loggedIn = false;
let checkStatus = 200;
let logoutStatus = 200;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/api/v1/auth/check') {
        if (checkStatus !== 200)
          return send(checkStatus, {
            statusCode: checkStatus,
            errors: { message: 'internal_server_error' },
          });
        return send(200, { status: loggedIn, account: loggedIn ? partner : null });
      }
      if (req.url === '/api/v1/auth/login') {
        loggedIn = true;
        return send(200, partner);
      }
      if (req.url === '/api/v1/auth/update') return send(200, { ...partner, firstName: 'Оля' });
      if (req.url === '/api/v1/auth/logout') {
        loggedIn = false;
        if (logoutStatus !== 200)
          return send(logoutStatus, {
            statusCode: logoutStatus,
            errors: { message: 'internal_server_error' },
          });
        return send(200, { status: false });
      }
      send(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function setup() {
  const toasts = createToastStore();
  const client = createApiClient({ baseUrl: base, t: translator(createI18n('ua')), toasts });
  return { store: createAuthStore(client), toasts };
}

describe('auth store', () => {
  it('starts unknown; check when logged out gives logged_out', async () => {
    loggedIn = false;
    checkStatus = 200;
    const { store } = setup();
    expect(store.getState()).toMatchObject({ status: 'unknown', account: null });
    await expect(store.getState().check()).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ status: 'logged_out', account: null });
  });

  it('check keeps the account when logged in', async () => {
    loggedIn = true;
    checkStatus = 200;
    const { store } = setup();
    await expect(store.getState().check()).resolves.toBe(true);
    expect(store.getState()).toMatchObject({ status: 'logged_in', account: partner });
    expect(selectIsLoggedIn(store.getState())).toBe(true);
  });

  it('an error of auth/check counts as logged out and shows no toast', async () => {
    loggedIn = true;
    checkStatus = 500;
    const { store, toasts } = setup();
    await expect(store.getState().check()).resolves.toBe(false);
    expect(store.getState().status).toBe('logged_out');
    expect(toasts.getState().toasts).toEqual([]);
    checkStatus = 200;
  });

  it('login keeps the account, update replaces it, logout clears it', async () => {
    const { store } = setup();
    await store.getState().login({ email: 'olena@example.com', password: 'x' });
    expect(store.getState()).toMatchObject({ status: 'logged_in', account: partner });
    await store.getState().update({ firstName: 'Оля' });
    expect(store.getState().account?.firstName).toBe('Оля');
    await store.getState().logout();
    expect(store.getState()).toMatchObject({ status: 'logged_out', account: null });
  });

  it('logout clears the account even when the call fails, and passes the error on with a toast', async () => {
    const { store, toasts } = setup();
    store.getState().setAccount(partner);
    logoutStatus = 500;
    await expect(store.getState().logout()).rejects.toBeInstanceOf(ApiError);
    logoutStatus = 200;
    expect(store.getState()).toMatchObject({ status: 'logged_out', account: null });
    expect(toasts.getState().toasts[0]?.summary).toBe('Системна помилка');
  });

  it('setAccount, clear and the role selectors', () => {
    const { store } = setup();
    store.getState().setAccount(admin);
    expect(selectIsAdmin(store.getState())).toBe(true);
    expect(selectIsSuperAdmin(store.getState())).toBe(true);
    expect(selectIsPartner(store.getState())).toBe(false);
    store.getState().setAccount(partner);
    expect(selectIsAdmin(store.getState())).toBe(false);
    expect(selectIsSuperAdmin(store.getState())).toBe(false);
    expect(selectIsPartner(store.getState())).toBe(true);
    store.getState().setAccount(null);
    expect(store.getState().status).toBe('logged_out');
    store.getState().setAccount(partner);
    store.getState().clear();
    expect(store.getState()).toMatchObject({ status: 'logged_out', account: null });
    expect(selectIsPartner(store.getState())).toBe(false);
  });
});
