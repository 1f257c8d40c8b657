/**
 * `@poruch/core/lite`: the part of core with no zod, i18next or zustand. Key lists,
 * countries and flags, locales, translation helpers, cookies, constants, the same-origin
 * path check, and the API client ({@link createApi}, {@link ApiError}). The widgets import from here so that their script-tag bundles stay small (see
 * packages/widgets); everything is also exported from `@poruch/core`.
 */
export * from './keys.js';
export {
  COUNTRIES,
  COUNTRY_CODES,
  countryNameKey,
  findByCode,
  getCountries,
  FLAG_CODES,
  hasFlag,
  FLAG_PLACEHOLDER,
  flagModuleId,
  FLAG_BASE_URL,
  flagUrl,
  flagClassName,
} from './countries.js';
export type { Country } from './countries.js';
export { FEEDS, feedLinks } from './feeds.js';
export * from './i18n/locales.js';
export {
  toKey,
  statusTextKey,
  fieldLabelKey,
  translateFieldError,
  MISSING_TRANSLATION_PREFIX,
  missingTranslation,
} from './i18n/translate.js';
export type { Translate } from './i18n/translate.js';
export { readCookie } from './client/cookies.js';
export {
  STATUS_KEYS,
  NETWORK_ERROR_KEY,
  TIMEOUT_ERROR_KEY,
  UNKNOWN_ERROR_KEY,
  errorKey,
  ApiError,
  isApiError,
  isAbort,
  translateError,
} from './client/ApiError.js';
export { SILENT_PATHS, createApi } from './client/createApi.js';
export type { Api, ApiOptions, CallOptions, Query, SendMethod } from './client/createApi.js';
export { LIMITS } from './limits.js';
export { API_PREFIX, ENV_PATH, XSRF_COOKIE, XSRF_HEADER } from './constants.js';
export { sameOriginPath } from './sameOriginPath.js';
