import {
  createApiClient,
  createAuthStore,
  currentLocale,
  openConfirm,
  showToast,
  toastStore,
  translateError,
  translator,
  confirmStore,
  MAIN_TOAST_LIFE,
  type ApiClient,
  type AuthStore,
  type ConfirmOptions,
  type ConfirmResult,
  type ConfirmStore,
  type I18n,
  type RuntimeConfig,
  type ToastMessage,
  type ToastStore,
  type Translate,
} from '@poruch/core';
import type { LocaleCode } from '@poruch/core';
import { createStore, type StoreApi } from 'zustand/vanilla';

/** Key of the main toast container: its toasts' life defaults to MAIN_TOAST_LIFE (1000000 ms). */
export const MAIN_TOAST_KEY = 'main';

/** The failed calls a form shows itself, at its fields or in its notice. */
const shownByForm = new WeakSet<object>();

/**
 * Marks a failed call's error as shown by the form that made the call (`useForm().run`), so it
 * gets no error toast as well: one message, where the user is looking.
 */
export function markShownByForm(error: unknown): void {
  if (error && typeof error === 'object') shownByForm.add(error);
}

/** Everything the screens use, created once per page in main.tsx. */
export interface AppServices {
  /**
   * The API client: failed calls show an error toast (except auth/check, silent calls and the
   * errors a form shows itself).
   */
  readonly api: ApiClient;
  /** Login state: `status` (unknown | logged_in | logged_out), `account`, login/logout/update. */
  readonly auth: AuthStore;
  /** Runtime configuration from `GET /env`; null until it answers, and when it fails. */
  readonly config: StoreApi<RuntimeConfig | null>;
  readonly i18n: I18n;
  /** Translates a key in the active locale: `t('login.title')`, `t('footer.copyright', { year })`. */
  readonly t: Translate;
  /** The active locale: `ua` or `en_GB`. */
  readonly locale: LocaleCode;
  /** BCP 47 tag of the locale for Intl and `<html lang>`: `uk` or `en-GB`. */
  readonly lang: string;
  readonly toasts: ToastStore;
  /**
   * Shows a toast (bottom-centre); returns its id. Life defaults to 3000 ms, or 1000000 ms for
   * `key: 'main'`.
   */
  showToast(message: ToastMessage): number;
  readonly confirmStore: ConfirmStore;
  /** Opens the confirm dialog; resolves with `accept`, `reject` or `cancel`. */
  confirm(options: ConfirmOptions): Promise<ConfirmResult>;
}

/**
 * Creates the page's services over `i18n` (the browser's: `loadI18n()`, the active locale only;
 * the prerender's: `initI18n('ua')`): the API client and the auth store.
 */
export function createAppServices(i18n: I18n): AppServices {
  const t = translator(i18n);
  const locale = currentLocale(i18n);
  const api = createApiClient({
    t,
    toasts: toastStore,
    // The toast waits until the caller has caught the error: a form that shows it claims it first.
    onError: (error) =>
      setTimeout(() => {
        if (!shownByForm.has(error))
          toastStore.getState().show({ severity: 'error', ...translateError(error, t) });
      }, 0),
  });
  return {
    api,
    auth: createAuthStore(api),
    config: createStore<RuntimeConfig | null>(() => null),
    i18n,
    t,
    locale,
    lang: locale === 'ua' ? 'uk' : 'en-GB',
    toasts: toastStore,
    // The main toast container's messages live 1000000 ms unless they set their own life.
    showToast: (message) =>
      showToast(
        message.key === MAIN_TOAST_KEY && message.life === undefined
          ? { ...message, life: MAIN_TOAST_LIFE }
          : message,
      ),
    confirmStore,
    confirm: openConfirm,
  };
}
