import { LOCALE_STORAGE_KEY } from './i18n/locales.js';
import { LIMITS } from './limits.js';

/** Prefix of every API call except `GET /env` (docs/product.md, API calls). */
export const API_PREFIX = 'api/v1';

/** Path of the runtime configuration call, at the site root. */
export const ENV_PATH = 'env';

/** Name of the cookie holding the anti-forgery token. */
export const XSRF_COOKIE = 'XSRF-TOKEN';

/** Header carrying the anti-forgery token on every state-changing request. */
export const XSRF_HEADER = 'x-xsrf-token';

/** Administrator search needs at least this many characters. */
export const ADMIN_SEARCH_MIN = LIMITS.adminSearchMin;

/** Height of the cookie banner in pixels. */
export const COOKIE_BANNER_HEIGHT = 100;

/** Below this width in pixels the layout is the mobile one. */
export const MOBILE_BREAKPOINT = 960;

/** Below this width in pixels the header menu collapses into a slide-in panel. */
export const MENU_COLLAPSE = 1170;

/** The update-check worker registers once the app is stable, or after this many ms. */
export const UPDATE_WORKER_DELAY = 30_000;

/** Error-reporting trace sample rate. */
export const TRACE_SAMPLE_RATE = 0.3;

/** localStorage keys. The cookie flags hold the text `true` or `false`. */
export const STORAGE_KEYS = {
  locale: LOCALE_STORAGE_KEY,
  cookiesEssentials: 'cookies_banner_essentials',
  cookiesMarketing: 'cookies_banner_marketing',
} as const;

/** localStorage key of the essential-cookies flag: the banner shows until it is stored. */
export const COOKIES_ESSENTIALS_KEY = STORAGE_KEYS.cookiesEssentials;

/** localStorage key of the analytics (marketing) cookies flag. */
export const COOKIES_MARKETING_KEY = STORAGE_KEYS.cookiesMarketing;
