import ky, { HTTPError, TimeoutError, type KyInstance, type Options as KyOptions } from 'ky';
import type { z } from 'zod';
import { API_PREFIX, ENV_PATH, XSRF_COOKIE, XSRF_HEADER } from '../constants.js';
import { translator } from '../i18n/instance.js';
import type { Translate } from '../i18n/translate.js';
// Types only: the schemas (and zod) load on the first call that checks an answer (`loadSchema`),
// so the client costs the site's first screen no zod.
import type {
  Account,
  AccountDeletion,
  AuthCheck,
  Credentials,
  CredentialsChange,
  PersonalDataUpdate,
  ResetPassword,
} from '../schemas/account.js';
import type { AccountExport } from '../schemas/accountExport.js';
import type { PushSubscriptionInput, RuntimeConfig } from '../schemas/options.js';
import type { Registration, RegistrationResult } from '../schemas/registration.js';
import { toastStore as defaultToastStore, type ToastStore } from '../stores/toastStore.js';
import {
  ApiError,
  NETWORK_ERROR_KEY,
  TIMEOUT_ERROR_KEY,
  UNKNOWN_ERROR_KEY,
  normalizeError,
} from './ApiError.js';
import { readCookie } from './cookies.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods that change state: they carry the anti-forgery header. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
]);

/** Paths (under api/v1) whose failures show no toast: an error there means "logged out". */
export const SILENT_PATHS: readonly string[] = ['auth/check'];

export interface ApiClientOptions {
  /**
   * The site root the API lives under: calls go to `<baseUrl>/api/v1/…`, the runtime
   * configuration to `<baseUrl>/env`. Must be absolute outside a browser.
   * Defaults to `/` (the page's own origin).
   */
  baseUrl?: string;
  /** The fetch to use. Defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * Whether cookies go with the calls. Use `include` when the site and the API share a site
   * but not an origin. Defaults to `same-origin`.
   */
  credentials?: RequestCredentials;
  /**
   * Reads a cookie by name; the anti-forgery token comes from cookie `XSRF-TOKEN`.
   * Defaults to reading `document.cookie` (nothing outside a browser).
   */
  getCookie?: (name: string) => string | undefined;
  /** Translates the error keys. Defaults to the shared i18n instance (`initI18n` / `loadI18n`). */
  t?: Translate;
  /** Where error toasts go. Defaults to the page's {@link toastStore}. */
  toasts?: ToastStore;
  /**
   * Called with every failed call's error, except `auth/check` and calls made with
   * `silent: true`, before the error is passed on to the caller.
   * Defaults to showing a sticky-free error toast (summary and detail) in `toasts`.
   */
  onError?: (error: ApiError) => void;
  /** Retries of a failed idempotent call (ky's retry). Defaults to 0. */
  retry?: number;
  /** Milliseconds before a call gives up, or false for never. Defaults to 10000. */
  timeout?: number | false;
  /** Headers sent with every call. Defaults to none. */
  headers?: Record<string, string>;
}

export interface RequestOptions<S extends z.ZodType | undefined = undefined> {
  /** The JSON body. Defaults to none. */
  json?: unknown;
  /** Query parameters. Defaults to none. */
  searchParams?: Record<string, string | number | boolean> | URLSearchParams;
  /** Parses the answer; without it the answer is ignored and the call resolves to undefined. */
  schema?: S;
  /**
   * Like `schema`, loaded when the answer arrives (`() => import('@poruch/core/schemas')
   * .then((m) => m.servicePageSchema)`): code that must start without zod passes this instead.
   */
  loadSchema?: () => Promise<S>;
  /** Show no error toast when the call fails. Defaults to false. */
  silent?: boolean;
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Call `path` at the site root instead of under api/v1. Defaults to false. */
  root?: boolean;
}

type Answer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ApiClient {
  /** The ky instance under api/v1, with the anti-forgery and error hooks installed. */
  readonly ky: KyInstance;
  /** Absolute or root-relative URL of an API path: `url('auth/check')`. */
  url(path: string, options?: { root?: boolean }): string;
  /**
   * Any call. Rejects with an {@link ApiError}; every failure except `auth/check` and silent
   * calls is reported through `onError` first.
   */
  request<S extends z.ZodType | undefined = undefined>(
    method: HttpMethod,
    path: string,
    options?: RequestOptions<S>,
  ): Promise<Answer<S>>;
  /** `GET /env`: the runtime configuration. The app should start even when it fails. */
  getEnv(): Promise<RuntimeConfig>;
  /** `GET auth/check`: login status and account. Never shows a toast. */
  authCheck(): Promise<AuthCheck>;
  /** `POST auth/login`: the logged-in account. */
  login(credentials: Credentials): Promise<Account>;
  /** `PUT auth/update`: changes personal data; the updated account. */
  update(changes: PersonalDataUpdate): Promise<Account>;
  /** `GET auth/logout`. */
  logout(): Promise<void>;
  /** `POST auth/reset-password`: a temporary password is e-mailed. */
  resetPassword(body: ResetPassword): Promise<void>;
  /** `POST auth/notifications`: registers the browser's push subscription. */
  notifications(subscription: PushSubscriptionInput | { toJSON(): unknown }): Promise<void>;
  /** `POST auth/register`: the new partner's account and first service. */
  register(registration: Registration): Promise<RegistrationResult>;
  /** `PUT auth/credentials`: changes e-mail or password; the updated account. */
  changeCredentials(change: CredentialsChange): Promise<Account>;
  /** `DELETE account`: deletes the logged-in account, confirmed by its current password. */
  deleteAccount(body: AccountDeletion): Promise<void>;
  /**
   * `GET account/export`: everything Poruch keeps about the logged-in account (checked against
   * core's accountExportSchema). To offer it as a file, serialise it into a Blob and download it.
   */
  exportAccount(): Promise<AccountExport>;
}

/** The built-in calls' schemas, imported on first use (a separate chunk in a bundle). */
const account$ = {
  authCheck: () => import('../schemas/account.js').then((m) => m.authCheckSchema),
  account: () => import('../schemas/account.js').then((m) => m.accountSchema),
};
const options$ = {
  runtimeConfig: () => import('../schemas/options.js').then((m) => m.runtimeConfigSchema),
};

const API_ERROR = Symbol('poruch.apiError');
type TaggedHTTPError = HTTPError & { [API_ERROR]?: ApiError };

const trimSlashes = (s: string) => s.replace(/^\/+|\/+$/g, '');

async function readBody(response: Response): Promise<unknown> {
  try {
    const text = await response.clone().text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The API client over ky (docs/product.md, API calls). Every path is under `api/v1/` except `env`;
 * state-changing calls carry `x-xsrf-token` from cookie `XSRF-TOKEN`; failures become
 * {@link ApiError}s, normalised by normalizeError, and show an error toast unless the call is
 * `auth/check`.
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const root = (options.baseUrl ?? '/').replace(/\/+$/, '') + '/';
  const apiRoot = `${root}${API_PREFIX}/`;
  const getCookie = options.getCookie ?? readCookie;
  const t = options.t ?? translator();
  const toasts = options.toasts ?? defaultToastStore;
  const report =
    options.onError ??
    ((error: ApiError) => {
      toasts.getState().show({
        severity: 'error',
        summary: error.summary,
        ...(error.detail ? { detail: error.detail } : {}),
      });
    });

  const isSilent = (url: string, context: Record<string, unknown>) => {
    if (context.silent === true) return true;
    const pathname = new URL(url, 'http://localhost').pathname;
    return SILENT_PATHS.some((p) => pathname.endsWith(`/${API_PREFIX}/${p}`));
  };

  const kyOptions: KyOptions = {
    prefixUrl: apiRoot,
    credentials: options.credentials ?? 'same-origin',
    retry: options.retry ?? 0,
    timeout: options.timeout ?? 10_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    hooks: {
      beforeRequest: [
        (request) => {
          if (!STATE_CHANGING_METHODS.has(request.method.toUpperCase())) return;
          const token = getCookie(XSRF_COOKIE);
          if (token) request.headers.set(XSRF_HEADER, token);
        },
      ],
      beforeError: [
        async (error) => {
          const { response } = error;
          const body = await readBody(response);
          const apiError = new ApiError(
            response.status,
            normalizeError(response.status, response.statusText, body, t),
            body,
            { cause: error },
          );
          (error as TaggedHTTPError)[API_ERROR] = apiError;
          if (!isSilent(error.request.url, error.options.context)) report(apiError);
          return error;
        },
      ],
    },
  };
  const api = ky.create(kyOptions);

  const url = (path: string, opts: { root?: boolean } = {}) =>
    `${opts.root ? root : apiRoot}${trimSlashes(path)}`;

  /** Turns what ky threw into an ApiError; reports it when the hook has not. */
  const toApiError = (e: unknown, silent: boolean): ApiError => {
    if (e instanceof HTTPError) {
      const tagged = (e as TaggedHTTPError)[API_ERROR];
      if (tagged) return tagged;
    }
    if (e instanceof ApiError) return e;
    const key =
      e instanceof TimeoutError
        ? TIMEOUT_ERROR_KEY
        : e instanceof TypeError
          ? NETWORK_ERROR_KEY
          : UNKNOWN_ERROR_KEY;
    const apiError = new ApiError(
      0,
      normalizeError(0, '', { errors: { message: key } }, t),
      undefined,
      {
        cause: e,
      },
    );
    if (!silent) report(apiError);
    return apiError;
  };

  async function request<S extends z.ZodType | undefined = undefined>(
    method: HttpMethod,
    path: string,
    opts: RequestOptions<S> = {},
  ): Promise<Answer<S>> {
    const silent = opts.silent === true || (!opts.root && SILENT_PATHS.includes(trimSlashes(path)));
    // The abort of a caller is not a failure to report.
    if (opts.signal?.aborted) throw toApiError(opts.signal.reason, true);
    let data: unknown;
    let schema: S | undefined;
    try {
      const response = await api(trimSlashes(path), {
        method,
        ...(opts.root ? { prefixUrl: root } : {}),
        ...(opts.json !== undefined ? { json: opts.json } : {}),
        ...(opts.searchParams ? { searchParams: opts.searchParams } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        context: { silent },
      });
      if (!opts.schema && !opts.loadSchema) return undefined as Answer<S>;
      [data, schema] = await Promise.all([
        response.json(),
        opts.schema ?? (opts.loadSchema as () => Promise<S>)(),
      ]);
    } catch (e) {
      const aborted = opts.signal?.aborted === true;
      throw toApiError(e, silent || aborted);
    }
    const parsed = (schema as z.ZodType).safeParse(data);
    if (!parsed.success) throw toApiError(parsed.error, silent);
    return parsed.data as Answer<S>;
  }

  return {
    ky: api,
    url,
    request,
    getEnv: () => request('GET', ENV_PATH, { root: true, loadSchema: options$.runtimeConfig }),
    authCheck: () => request('GET', 'auth/check', { loadSchema: account$.authCheck, silent: true }),
    login: (credentials) =>
      request('POST', 'auth/login', { json: credentials, loadSchema: account$.account }),
    update: (changes) =>
      request('PUT', 'auth/update', { json: changes, loadSchema: account$.account }),
    logout: () => request('GET', 'auth/logout'),
    resetPassword: (body) => request('POST', 'auth/reset-password', { json: body }),
    notifications: (subscription) =>
      request('POST', 'auth/notifications', {
        json:
          'toJSON' in subscription && typeof subscription.toJSON === 'function'
            ? subscription.toJSON()
            : subscription,
      }),
    register: (registration) =>
      request('POST', 'auth/register', {
        json: registration,
        loadSchema: () =>
          import('../schemas/registration.js').then((m) => m.registrationResultSchema),
      }),
    changeCredentials: (change) =>
      request('PUT', 'auth/credentials', { json: change, loadSchema: account$.account }),
    deleteAccount: (body) => request('DELETE', 'account', { json: body }),
    exportAccount: () =>
      request('GET', 'account/export', {
        loadSchema: () => import('../schemas/accountExport.js').then((m) => m.accountExportSchema),
      }),
  };
}
