/** Key of a call that got no answer at all (offline, DNS, refused, CORS). Same as core's. */
export const NETWORK_ERROR = 'network_error';
/** Key of a call that ran out of time. Same as core's. */
export const TIMEOUT_ERROR = 'request_timeout';
/** Key of an answer that was not the JSON expected. Same as core's. */
export const UNKNOWN_ERROR = 'unknown_error';

/**
 * The typed failure of a widget's API call. `key` is a key of core's error catalogue
 * (`error.<key>` translates it): the server's `errors.message`, else the status's key, else
 * `network_error`, `request_timeout` or `unknown_error`.
 */
export class WidgetError extends Error {
  override readonly name = 'WidgetError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** Catalogue key, e.g. `not_found`, `network_error`. */
  readonly key: string;
  /** The parsed error body, when there was one. */
  readonly body?: unknown;

  constructor(status: number, key: string, body?: unknown, options?: { cause?: unknown }) {
    super(`[poruch] request failed: ${key}`, options);
    this.status = status;
    this.key = key;
    if (body !== undefined) this.body = body;
  }
}

/** True for a {@link WidgetError}, also across two copies of the bundle on one page. */
export const isWidgetError = (e: unknown): e is WidgetError =>
  e instanceof WidgetError ||
  (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'WidgetError');

/** True when `e` is the rejection of an aborted call: not a failure to show. */
export const isAbort = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
