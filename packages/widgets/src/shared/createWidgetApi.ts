import { API_PREFIX } from '@poruch/core/lite';
import { NETWORK_ERROR, TIMEOUT_ERROR, UNKNOWN_ERROR, WidgetError } from './WidgetError.js';

/** Query parameters; `undefined`, `null` and `''` values are left out. */
export type Query = Record<string, string | number | boolean | null | undefined>;

export interface WidgetApiOptions {
  /**
   * The Poruch site the API lives under, e.g. `https://poruch.org`. Calls go to
   * `<apiBase>/api/v1/…`. Defaults to `/` (the page's own origin).
   */
  apiBase?: string;
  /**
   * Whether cookies go with the calls. Embedded widgets read public data and post anonymously,
   * so they never need a (third-party) cookie. Only the dashboard on the site's own origin sends
   * `include`. Defaults to `omit`.
   */
  credentials?: RequestCredentials;
  /**
   * Credentials of `GET`s only (the site's profile uses `same-origin`, so that its call matches
   * the page's `Link` preload, which cannot be made with `omit`). Defaults to `credentials`.
   */
  readCredentials?: RequestCredentials;
  /** Milliseconds before a call gives up with `request_timeout`. Defaults to 10000. */
  timeout?: number;
  /** The fetch to use. Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Query parameters. */
  query?: Query;
  /** Aborts the call; the promise then rejects with an `AbortError`, not a WidgetError. */
  signal?: AbortSignal;
  /** Call `path` at the site root (`/env`) instead of under `api/v1`. Defaults to false. */
  root?: boolean;
}

/** The small API client every widget gets from its context. */
export interface WidgetApi {
  /** The site root, with a trailing slash. */
  readonly base: string;
  /** Absolute URL of a path under `api/v1` (or the root with `root: true`), with a query. */
  url(path: string, options?: { query?: Query; root?: boolean }): string;
  /** `GET` a JSON answer. Rejects with a {@link WidgetError}, or an AbortError when aborted. */
  get<T>(path: string, options?: CallOptions): Promise<T>;
  /** Sends `json` with `POST`, `PUT` or `DELETE`; resolves to the JSON answer or undefined. */
  send<T = unknown>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    json?: unknown,
    options?: CallOptions,
  ): Promise<T>;
}

/** Keys of statuses without a status text (HTTP/2 sends none); as core's ApiError. */
const STATUS_KEYS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  429: 'too_many_requests',
  500: 'internal_server_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * An API client over `fetch` for the widgets. It is not core's `createApiClient` because that
 * one brings ky, zod and the toast store (about 130 KB gzip), far over the script-tag budgets.
 * It keeps core's rules where they matter: paths under `api/v1`, and failures carry a key of
 * the error catalogue (the body's `errors.message`, else the status text as a key).
 */
export function createWidgetApi(options: WidgetApiOptions = {}): WidgetApi {
  const raw = options.apiBase || '/';
  const base = raw.replace(/\/+$/, '') + '/';
  const credentials = options.credentials ?? 'omit';
  const readCredentials = options.readCredentials ?? credentials;
  const timeout = options.timeout ?? 10_000;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  const url = (path: string, o: { query?: Query; root?: boolean } = {}) => {
    const clean = path.replace(/^\/+/, '');
    const origin = typeof location === 'undefined' ? 'http://localhost' : location.href;
    const u = new URL(`${base}${o.root ? '' : `${API_PREFIX}/`}${clean}`, origin);
    for (const [k, v] of Object.entries(o.query ?? {})) {
      if (v !== undefined && v !== null && v !== '') u.searchParams.set(k, String(v));
    }
    return u.href;
  };

  async function call<T>(method: string, path: string, json: unknown, o: CallOptions = {}) {
    const controller = new AbortController();
    const onAbort = () => controller.abort(o.signal?.reason);
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    try {
      let response: Response;
      try {
        response = await doFetch(url(path, o), {
          method,
          credentials: method === 'GET' ? readCredentials : credentials,
          mode: 'cors',
          signal: controller.signal,
          // A GET sends no header at all, so it is a simple request: no CORS preflight.
          ...(json === undefined
            ? {}
            : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }),
        });
      } catch (e) {
        if (timedOut) throw new WidgetError(0, TIMEOUT_ERROR, undefined, { cause: e });
        if (o.signal?.aborted) throw e;
        throw new WidgetError(0, NETWORK_ERROR, undefined, { cause: e });
      }
      const text = await response.text().catch(() => '');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      if (!response.ok) {
        const message =
          isRecord(body) && isRecord(body.errors) && typeof body.errors.message === 'string'
            ? body.errors.message
            : response.statusText.trim().toLowerCase().replace(/\s+/g, '_') ||
              STATUS_KEYS[response.status] ||
              UNKNOWN_ERROR;
        throw new WidgetError(response.status, message, body);
      }
      if (text && body === undefined) throw new WidgetError(response.status, UNKNOWN_ERROR);
      return body as T;
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    base,
    url,
    get: (path, o) => call('GET', path, undefined, o),
    send: (method, path, json, o) => call(method, path, json, o),
  };
}
