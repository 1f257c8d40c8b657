import { API_PREFIX, XSRF_COOKIE, XSRF_HEADER } from '../constants.js';
import {
  ApiError,
  NETWORK_ERROR_KEY,
  TIMEOUT_ERROR_KEY,
  UNKNOWN_ERROR_KEY,
  errorKey,
} from './ApiError.js';
import { readCookie } from './cookies.js';

/** Query parameters; `undefined`, `null` and `''` values are left out. */
export type Query = Record<string, string | number | boolean | null | undefined> | URLSearchParams;

/** Methods that change state: they carry the anti-forgery header when cookies go with them. */
export type SendMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Paths (under api/v1) whose failures are never reported: an error there means "logged out". */
export const SILENT_PATHS: readonly string[] = ['auth/check'];

export interface ApiOptions {
  /**
   * The site root the API lives under, e.g. `https://poruch.org`: calls go to
   * `<baseUrl>/api/v1/…`, the runtime configuration to `<baseUrl>/env`. Defaults to `/` (the
   * page's own origin); must be absolute outside a browser.
   */
  baseUrl?: string;
  /**
   * Whether cookies go with the calls. Embedded widgets read public data and post anonymously:
   * `omit`. The site: `same-origin`; the dashboard on the site's own origin: `include`.
   * Defaults to `same-origin`.
   */
  credentials?: RequestCredentials;
  /**
   * Credentials of `GET`s only (the site's profile widget uses `same-origin`, so that its call
   * matches the page's `Link` preload, which cannot be made with `omit`). Defaults to
   * `credentials`.
   */
  readCredentials?: RequestCredentials;
  /** Milliseconds before a call gives up with `request_timeout`, or false. Defaults to 10000. */
  timeout?: number | false;
  /** The fetch to use. Defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * Reads a cookie by name; the anti-forgery token comes from cookie `XSRF-TOKEN`. Defaults to
   * `document.cookie` (nothing outside a browser).
   */
  getCookie?: (name: string) => string | undefined;
  /**
   * Called with every failure before the call rejects with it, except aborts, `auth/check` and
   * silent calls. The site shows a toast here; the widgets show their error state instead.
   */
  onError?: (error: ApiError) => void;
}

export interface CallOptions {
  /** Query parameters. */
  query?: Query;
  /** Aborts the call; the promise then rejects with an `AbortError`, not an ApiError. */
  signal?: AbortSignal;
  /** Call `path` at the site root (`env`) instead of under `api/v1`. Defaults to false. */
  root?: boolean;
  /** Do not report the failure to `onError`. Defaults to false. */
  silent?: boolean;
}

/**
 * The API client of the site and the widgets: fetch, no schema on the answers (the server
 * checked them; the types say what they are). Failures reject with an {@link ApiError}.
 */
export interface Api {
  /** The site root, with a trailing slash. */
  readonly base: string;
  /** Absolute URL of a path under `api/v1` (or the root with `root: true`), with a query. */
  url(path: string, options?: { query?: Query; root?: boolean }): string;
  /** `GET`s the JSON answer. */
  get<T>(path: string, options?: CallOptions): Promise<T>;
  /** Sends `json` with a state-changing method; resolves to the JSON answer, or undefined. */
  send<T = unknown>(
    method: SendMethod,
    path: string,
    json?: unknown,
    options?: CallOptions,
  ): Promise<T>;
}

/**
 * Creates the API client (docs/product.md, API calls): every path is under `api/v1/` except
 * `env`; a state-changing call that sends cookies carries `x-xsrf-token` from cookie
 * `XSRF-TOKEN`; a GET sends no header (a simple request: no CORS preflight); failures become
 * {@link ApiError}s with a key of the error catalogue.
 */
export function createApi(options: ApiOptions = {}): Api {
  const base = (options.baseUrl || '/').replace(/\/+$/, '') + '/';
  const credentials = options.credentials ?? 'same-origin';
  const readCredentials = options.readCredentials ?? credentials;
  const timeout = options.timeout ?? 10_000;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const getCookie = options.getCookie ?? readCookie;

  const url = (path: string, o: { query?: Query; root?: boolean } = {}) => {
    const clean = path.replace(/^\/+/, '');
    const origin = typeof location === 'undefined' ? 'http://localhost' : location.href;
    const u = new URL(`${base}${o.root ? '' : `${API_PREFIX}/`}${clean}`, origin);
    const query =
      o.query instanceof URLSearchParams ? o.query.entries() : Object.entries(o.query ?? {});
    for (const [k, v] of query) {
      if (v !== undefined && v !== null && v !== '') u.searchParams.append(k, String(v));
    }
    return u.href;
  };

  async function call<T>(method: string, path: string, json: unknown, o: CallOptions = {}) {
    const silent =
      o.silent === true || (!o.root && SILENT_PATHS.includes(path.replace(/^\/+/, '')));
    const fail = (error: ApiError) => {
      if (!silent) options.onError?.(error);
      return error;
    };
    const controller = new AbortController();
    const onAbort = () => controller.abort(o.signal?.reason);
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer =
      timeout === false
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeout);
    try {
      const headers: Record<string, string> = {};
      if (json !== undefined) headers['content-type'] = 'application/json';
      const token = method !== 'GET' && credentials !== 'omit' ? getCookie(XSRF_COOKIE) : undefined;
      if (token) headers[XSRF_HEADER] = token;
      let response: Response;
      let text: string;
      try {
        response = await doFetch(url(path, o), {
          method,
          credentials: method === 'GET' ? readCredentials : credentials,
          mode: 'cors',
          signal: controller.signal,
          headers,
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        });
        text = await response.text();
      } catch (e) {
        if (o.signal?.aborted) throw o.signal.reason ?? e;
        const key = timedOut ? TIMEOUT_ERROR_KEY : NETWORK_ERROR_KEY;
        throw fail(new ApiError(0, key, undefined, { cause: e }));
      }
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      if (!response.ok) {
        throw fail(
          new ApiError(response.status, errorKey(response.status, response.statusText, body), body),
        );
      }
      if (text && body === undefined) throw fail(new ApiError(response.status, UNKNOWN_ERROR_KEY));
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
