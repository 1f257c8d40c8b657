import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../client/createApiClient.js';
import { isAdmin, isPartner } from '../accountRoles.js';
import type { Account, Credentials, PersonalDataUpdate } from '../schemas/account.js';

/** Login state: unknown until checked at start. */
export type AuthStatus = 'unknown' | 'logged_in' | 'logged_out';

export interface AuthState {
  readonly status: AuthStatus;
  /** The logged-in account; null when logged out or not yet known. */
  readonly account: Account | null;
  /**
   * Asks the server (`GET auth/check`) and keeps the account when logged in. An error counts as
   * logged out and shows no toast. Resolves to true when logged in.
   */
  check(): Promise<boolean>;
  /** Logs in (`POST auth/login`) and keeps the account. Rejects with an ApiError. */
  login(credentials: Credentials): Promise<Account>;
  /** Changes personal data (`PUT auth/update`) and keeps the updated account. */
  update(changes: PersonalDataUpdate): Promise<Account>;
  /**
   * Logs out (`GET auth/logout`) and clears the account, even when the call fails; a failure
   * is still passed on.
   */
  logout(): Promise<void>;
  /** Keeps an account (logged in), or clears it with null. */
  setAccount(account: Account | null): void;
  /** Forgets the account: logged out. */
  clear(): void;
}

export type AuthStore = StoreApi<AuthState>;

/** The API calls the auth store makes. */
export type AuthClient = Pick<ApiClient, 'authCheck' | 'login' | 'logout' | 'update'>;

/**
 * An auth store over an API client. Routing (to /dashboard after login, to /login after logout
 * or when the account is cleared) belongs to the app: subscribe to `status`.
 */
export function createAuthStore(client: AuthClient): AuthStore {
  return createStore<AuthState>()((set, get) => ({
    status: 'unknown',
    account: null,
    async check() {
      try {
        const answer = await client.authCheck();
        if (answer.status && answer.account) {
          get().setAccount(answer.account);
          return true;
        }
      } catch {
        // An error of auth/check counts as not logged in.
      }
      get().clear();
      return false;
    },
    async login(credentials) {
      const account = await client.login(credentials);
      get().setAccount(account);
      return account;
    },
    async update(changes) {
      const account = await client.update(changes);
      get().setAccount(account);
      return account;
    },
    async logout() {
      try {
        await client.logout();
      } finally {
        get().clear();
      }
    },
    setAccount(account) {
      set(account ? { status: 'logged_in', account } : { status: 'logged_out', account: null });
    },
    clear() {
      set({ status: 'logged_out', account: null });
    },
  }));
}

/** True when logged in. */
export const selectIsLoggedIn = (s: Pick<AuthState, 'status'>): boolean => s.status === 'logged_in';
/** The "is admin" indicator. */
export const selectIsAdmin = (s: Pick<AuthState, 'account'>): boolean => isAdmin(s.account);
/** The "is client (partner)" indicator: PARTNER or CLIENT. */
export const selectIsPartner = (s: Pick<AuthState, 'account'>): boolean => isPartner(s.account);
/** True when the account may add administrators. */
export const selectIsSuperAdmin = (s: Pick<AuthState, 'account'>): boolean =>
  isAdmin(s.account) && s.account?.isSuper === true;
