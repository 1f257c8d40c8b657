import type { Account, AuthCheck, RuntimeConfig } from '@poruch/core';

/** API prefix of spec §9. */
export const API_PREFIX = '/api/v1';

/** How long the start-up calls may take before the server counts as unreachable. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The server could not be reached, or answered with a 5xx. The login state is then unknown, so the
 * shell shows the visitor as logged out and offers a retry.
 */
export class ApiUnavailableError extends Error {
  override readonly name = 'ApiUnavailableError';
  constructor(
    readonly url: string,
    readonly status?: number,
  ) {
    super(status ? `${url} answered ${status}` : `${url} is unreachable`);
  }
}

/** An expected 4xx answer, such as 401 from `auth/check` when logged out. */
export class ApiAnswerError extends Error {
  override readonly name = 'ApiAnswerError';
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`${url} answered ${status}`);
  }
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiUnavailableError(url);
  }
  if (res.status >= 500) throw new ApiUnavailableError(url, res.status);
  if (!res.ok) throw new ApiAnswerError(url, res.status);
  try {
    return (await res.json()) as T;
  } catch {
    // A proxy error page or an HTML fallback instead of JSON: the API is not really there.
    throw new ApiUnavailableError(url, res.status);
  }
}

/** What the shell knows after start-up. */
export interface Session {
  /** `loading` until both start-up calls settle; `error` when the API is unreachable. */
  status: 'loading' | 'ready' | 'error';
  /** The logged-in account, or null when logged out or unknown. */
  account: Account | null;
  /** Runtime configuration from `GET /env`; null when it failed (the app still starts). */
  config: RuntimeConfig | null;
}

export const initialSession: Session = { status: 'loading', account: null, config: null };

/**
 * The two start-up calls of spec §7: `GET /env` and `GET api/v1/auth/check`, in parallel.
 * A failed `/env` is ignored; a failed auth check counts as logged out, and marks the session as
 * `error` only when the server itself is unreachable.
 */
export async function loadSession(signal?: AbortSignal): Promise<Session> {
  const [env, auth] = await Promise.allSettled([
    getJson<RuntimeConfig>('/env', signal),
    getJson<AuthCheck>(`${API_PREFIX}/auth/check`, signal),
  ]);
  const config = env.status === 'fulfilled' ? env.value : null;
  if (auth.status === 'rejected') {
    if (signal?.aborted) throw auth.reason;
    const unreachable = auth.reason instanceof ApiUnavailableError;
    return { status: unreachable ? 'error' : 'ready', account: null, config };
  }
  const account = auth.value.status && auth.value.account ? auth.value.account : null;
  return { status: 'ready', account, config };
}

/** `GET auth/logout`; the caller then goes to /login (spec §2). */
export async function logout(): Promise<void> {
  await getJson<unknown>(`${API_PREFIX}/auth/logout`).catch(() => undefined);
}
