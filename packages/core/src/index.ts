/** Everything in `@poruch/core/lite` (no zod), then the schemas, the client, i18n and the stores. */
export * from './lite.js';
export * from './categories.js';
export * from './errors.js';
export * from './schemas/index.js';
export * from './validation.js';
export {
  ADMIN_SEARCH_MIN,
  COOKIE_BANNER_HEIGHT,
  MOBILE_BREAKPOINT,
  MENU_COLLAPSE,
  UPDATE_WORKER_DELAY,
  TRACE_SAMPLE_RATE,
  STORAGE_KEYS,
  COOKIES_ESSENTIALS_KEY,
  COOKIES_MARKETING_KEY,
} from './constants.js';
export { createApiClient } from './client/createApiClient.js';
export type { ApiClientOptions, ApiClient } from './client/createApiClient.js';
export {
  I18N_OPTIONS,
  createI18n,
  initI18n,
  getI18n,
  translator,
  currentLocale,
  createI18nFrom,
} from './i18n/createI18n.js';
export { loadI18n } from './i18n/loadI18n.js';
export type { I18n } from './i18n/createI18n.js';
export { LANGUAGE_OPTIONS } from './i18n/languageOptions.js';
export { HREFLANG, localeAlternates, localeUrl } from './i18n/alternates.js';
export { profileJsonLd, jsonLdScriptText } from './profileJsonLd.js';
export { TRANSLATIONS, I18N_NAMESPACE } from './i18n/resources.js';
export type { TranslationResource } from './i18n/resources.js';
export {
  getStoredLocale,
  storeLocale,
  startLocale,
  negotiateLocale,
  localeFromCookie,
  localeFromQuery,
  withoutLocaleQuery,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE,
  LOCALE_QUERY_PARAM,
} from './i18n/storage.js';
export {
  createAuthStore,
  selectIsLoggedIn,
  selectIsAdmin,
  selectIsPartner,
  selectIsSuperAdmin,
} from './stores/authStore.js';
export type { AuthStatus, AuthState, AuthStore, AuthClient } from './stores/authStore.js';
export {
  CONFIRM_BASE_Z_INDEX,
  createConfirmStore,
  confirmStore,
  openConfirm,
} from './stores/confirmStore.js';
export type {
  ConfirmResult,
  ConfirmOptions,
  ConfirmRequest,
  ConfirmState,
  ConfirmStore,
  ConfirmStoreOptions,
} from './stores/confirmStore.js';
export {
  TOAST_DEFAULT_LIFE,
  MAIN_TOAST_LIFE,
  TOAST_WIDTH,
  createToastStore,
  toastStore,
  showToast,
} from './stores/toastStore.js';
export type { Toast, ToastState, ToastStore, ToastStoreOptions } from './stores/toastStore.js';
export { createResourceStore } from './stores/resourceStore.js';
export type { ResourceState, ResourceStore } from './stores/resourceStore.js';
export {
  readCookieConsent,
  acceptAllCookies,
  rejectCookies,
  saveCookieConsent,
} from './cookieConsent.js';
export type { ConsentStorage, CookieConsent } from './cookieConsent.js';
