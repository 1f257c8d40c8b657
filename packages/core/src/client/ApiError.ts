import type { ErrorBody, FieldError } from '../errors.js';
import { statusTextKey, type Translate } from '../i18n/translate.js';

/**
 * The one table of error keys by status, for answers without a status text (HTTP/2 sends none).
 * They are what the lower-cased standard reason phrase gives, so both paths agree
 * (docs/product.md, Errors). The site and the widgets read it through {@link errorKey}.
 */
export const STATUS_KEYS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  500: 'internal_server_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Key of a call that got no answer at all (offline, DNS, refused, CORS). */
export const NETWORK_ERROR_KEY = 'network_error';
/** Key of a call that ran out of time. */
export const TIMEOUT_ERROR_KEY = 'request_timeout';
/** Key of anything else, such as an answer that is not JSON. */
export const UNKNOWN_ERROR_KEY = 'unknown_error';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The catalogue key of a failed answer: the body's `errors.message`, else the status text as a
 * key (`Not Found` → `not_found`), else the status's key in {@link STATUS_KEYS}, else
 * `unknown_error`. A body that is not an object counts as none.
 */
export function errorKey(status: number, statusText: string, body: unknown): string {
  const errors = isRecord(body) && isRecord(body.errors) ? body.errors : undefined;
  return (
    (typeof errors?.message === 'string' && errors.message) ||
    statusTextKey(statusText) ||
    STATUS_KEYS[status] ||
    UNKNOWN_ERROR_KEY
  );
}

/**
 * `f` as a FieldError when it is one (what errors.ts's fieldErrorSchema accepts, unknown keys
 * dropped), checked by hand so that the client needs no zod.
 */
function asFieldError(f: unknown): FieldError | undefined {
  if (!isRecord(f) || typeof f.field !== 'string' || typeof f.key !== 'string') return undefined;
  if (f.params === undefined) return { field: f.field, key: f.key };
  if (!isRecord(f.params) || Array.isArray(f.params)) return undefined;
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(f.params)) {
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    params[name] = value;
  }
  return { field: f.field, key: f.key, params };
}

/**
 * A failed API call: what the client rejects with, on the site and in the widgets. `key` is the
 * catalogue key to branch on and to show (`t('error.' + key)`, see {@link translateError}).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** Catalogue key (`wrong_user_or_password`, `not_found`, `network_error` …). */
  readonly key: string;
  /** The server's detail key (`body.error.message`), untranslated. */
  readonly detailKey?: string;
  /** Broken validation rules (`body.errors.fields`, well-formed ones); empty when there are none. */
  readonly fields: FieldError[];
  /** The parsed error body when it has the catalogue shape. */
  readonly body?: ErrorBody;

  constructor(status: number, key: string, body?: unknown, options?: { cause?: unknown }) {
    super(`[poruch] request failed: ${key}`, options);
    this.status = status;
    this.key = key;
    const errors = isRecord(body) && isRecord(body.errors) ? body.errors : undefined;
    const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
    if (typeof error?.message === 'string' && error.message) this.detailKey = error.message;
    this.fields = Array.isArray(errors?.fields)
      ? errors.fields.flatMap((f) => {
          const field = asFieldError(f);
          return field ? [field] : [];
        })
      : [];
    if (errors) this.body = body as ErrorBody;
  }

  /** The rules broken by one field (`account.email`), for showing under it. */
  fieldErrors(field: string): FieldError[] {
    return this.fields.filter((f) => f.field === field);
  }
}

/** True for an {@link ApiError}, also across bundle copies (two widget bundles on one page). */
export const isApiError = (e: unknown): e is ApiError =>
  e instanceof ApiError || (isRecord(e) && e.name === 'ApiError' && typeof e.key === 'string');

/** True when `e` is the rejection of an aborted call: not a failure to show. */
export const isAbort = (e: unknown): boolean => isRecord(e) && e.name === 'AbortError';

/**
 * What a failure shows: `summary` is `t('error.' + key)` (anything but an ApiError is an
 * `unknown_error`), `detail` is `t('error.' + detailKey)` when the server sent a detail key.
 */
export function translateError(error: unknown, t: Translate): { summary: string; detail?: string } {
  const key = isApiError(error) ? error.key : UNKNOWN_ERROR_KEY;
  const detailKey = isApiError(error) ? error.detailKey : undefined;
  return {
    summary: t(`error.${key}`),
    ...(detailKey ? { detail: t(`error.${detailKey}`) } : {}),
  };
}
