import type { ErrorBody, FieldError } from '../errors.js';
import { statusTextKey, type Translate } from '../i18n/translate.js';

/** The error of a failed call, normalised (docs/product.md, Errors). */
export interface NormalizedError {
  /** Catalogue key: the server's `errors.message`, else the status text as a key. */
  key: string;
  /** `t('error.' + key)`: the toast's summary. */
  summary: string;
  /** `t('error.' + body.error.message)` when the server sent a detail key. */
  detail?: string;
  /** The server's detail key, untranslated. */
  detailKey?: string;
  /** The broken validation rules, one per field and rule; empty when there are none. */
  fields: FieldError[];
}

/**
 * Keys for statuses whose status text is missing (HTTP/2 sends none). They are what the
 * lower-cased standard reason phrase gives, so both paths agree.
 */
const STATUS_KEYS: Readonly<Record<number, string>> = {
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
/** Key of anything else, such as an answer of the wrong shape. */
export const UNKNOWN_ERROR_KEY = 'unknown_error';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * `f` as a FieldError when it is one (what errors.ts's fieldErrorSchema accepts, unknown keys
 * dropped), checked by hand so that the client needs no zod on the site's first screen.
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
 * Normalises a failed answer. Pure: give it the status, its text, the parsed body
 * (or anything else: a non-object body counts as none) and a translate function.
 *
 * - summary: `t('error.' + message)`, where message is `body.errors.message`, or else the
 *   status text lower-cased with spaces turned into underscores (`Not Found` → `not_found`);
 * - detail: `t('error.' + body.error.message)` when the body has one.
 */
export function normalizeError(
  status: number,
  statusText: string,
  body: unknown,
  t: Translate,
): NormalizedError {
  const errors = isRecord(body) && isRecord(body.errors) ? body.errors : undefined;
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const message =
    (typeof errors?.message === 'string' && errors.message) ||
    statusTextKey(statusText) ||
    STATUS_KEYS[status] ||
    UNKNOWN_ERROR_KEY;
  const detailKey = typeof error?.message === 'string' && error.message ? error.message : undefined;
  const fields = Array.isArray(errors?.fields)
    ? errors.fields.flatMap((f) => {
        const field = asFieldError(f);
        return field ? [field] : [];
      })
    : [];
  return {
    key: message,
    summary: t(`error.${message}`),
    ...(detailKey ? { detail: t(`error.${detailKey}`), detailKey } : {}),
    fields,
  };
}

/**
 * A failed API call: the typed error every client function rejects with. Its message is the
 * translated summary; `key` is the catalogue key to branch on.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** Catalogue key (`wrong_user_or_password`, `not_found`, `network_error` …). */
  readonly key: string;
  /** Translated summary, as shown in the toast. */
  readonly summary: string;
  /** Translated detail, when the server sent a detail key. */
  readonly detail?: string;
  /** The server's detail key, untranslated. */
  readonly detailKey?: string;
  /** Broken validation rules; empty when there are none. */
  readonly fields: FieldError[];
  /** The parsed error body when it has the catalogue shape. */
  readonly body?: ErrorBody;

  constructor(
    status: number,
    normalized: NormalizedError,
    body?: unknown,
    options?: { cause?: unknown },
  ) {
    super(normalized.summary, options);
    this.status = status;
    this.key = normalized.key;
    this.summary = normalized.summary;
    if (normalized.detail !== undefined) this.detail = normalized.detail;
    if (normalized.detailKey !== undefined) this.detailKey = normalized.detailKey;
    this.fields = normalized.fields;
    if (isRecord(body) && isRecord(body.errors)) this.body = body as ErrorBody;
  }

  /** The rules broken by one field (`account.email`), for showing under it. */
  fieldErrors(field: string): FieldError[] {
    return this.fields.filter((f) => f.field === field);
  }
}

/** True for an {@link ApiError}, also across bundle copies. */
export const isApiError = (e: unknown): e is ApiError =>
  e instanceof ApiError || (isRecord(e) && e.name === 'ApiError' && typeof e.key === 'string');
