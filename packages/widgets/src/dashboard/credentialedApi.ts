import { readCookie, XSRF_COOKIE, XSRF_HEADER } from '@poruch/core/lite';
import { createWidgetApi, type WidgetApi } from '../shared/createWidgetApi.js';

/**
 * The dashboard's API client on the site's own origin: the session cookie goes with every call
 * (`credentials: 'include'`) and state-changing calls carry `x-xsrf-token` from the
 * `XSRF-TOKEN` cookie, as core's client does. Never used on a foreign origin.
 */
export function createCredentialedApi(apiBase: string): WidgetApi {
  return createWidgetApi({
    apiBase,
    credentials: 'include',
    fetch: (input, init = {}) => {
      const method = (init.method ?? 'GET').toUpperCase();
      const token = method === 'GET' ? undefined : readCookie(XSRF_COOKIE);
      const headers = new Headers(init.headers);
      if (token) headers.set(XSRF_HEADER, token);
      return fetch(input, { ...init, headers });
    },
  });
}
