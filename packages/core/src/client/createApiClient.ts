import { ENV_PATH } from '../constants.js';
import { translator } from '../i18n/instance.js';
import type { Translate } from '../i18n/translate.js';
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
import { translateError, type ApiError } from './ApiError.js';
import { createApi, type Api, type ApiOptions } from './createApi.js';

export interface ApiClientOptions extends ApiOptions {
  /** Translates the error keys of the toasts. Defaults to the shared i18n instance. */
  t?: Translate;
  /** Where error toasts go. Defaults to the page's {@link toastStore}. */
  toasts?: ToastStore;
  /**
   * Called with every failure (see {@link ApiOptions.onError}). Defaults to showing an error
   * toast (summary and detail) in `toasts`.
   */
  onError?: (error: ApiError) => void;
}

/** The site's client: {@link Api} and the typed calls of the site's screens and stores. */
export interface ApiClient extends Api {
  /** `GET /env`: the runtime configuration. Never shows a toast: the app starts without it. */
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
   * `GET account/export`: everything Poruch keeps about the logged-in account. To offer it as a
   * file, serialise it into a Blob and download it.
   */
  exportAccount(): Promise<AccountExport>;
}

const nothing = (): void => undefined;

/**
 * The site's API client: {@link createApi} with an error toast for every failure (except
 * `auth/check` and silent calls), and the typed calls on top.
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const { t: translate, toasts: toastOption, ...rest } = options;
  const t = translate ?? translator();
  const toasts = toastOption ?? defaultToastStore;
  const api = createApi({
    ...rest,
    onError:
      options.onError ??
      ((error) => toasts.getState().show({ severity: 'error', ...translateError(error, t) })),
  });
  return {
    ...api,
    getEnv: () => api.get(ENV_PATH, { root: true, silent: true }),
    authCheck: () => api.get('auth/check', { silent: true }),
    login: (credentials) => api.send('POST', 'auth/login', credentials),
    update: (changes) => api.send('PUT', 'auth/update', changes),
    logout: () => api.get('auth/logout').then(nothing),
    resetPassword: (body) => api.send('POST', 'auth/reset-password', body).then(nothing),
    notifications: (subscription) =>
      api
        .send(
          'POST',
          'auth/notifications',
          'toJSON' in subscription && typeof subscription.toJSON === 'function'
            ? subscription.toJSON()
            : subscription,
        )
        .then(nothing),
    register: (registration) => api.send('POST', 'auth/register', registration),
    changeCredentials: (change) => api.send('PUT', 'auth/credentials', change),
    deleteAccount: (body) => api.send('DELETE', 'account', body).then(nothing),
    exportAccount: () => api.get('account/export'),
  };
}
