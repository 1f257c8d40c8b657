/**
 * What every screen gets from the app, through hooks:
 *
 * - `useApp()`: `{ api, auth, config, t, locale, lang, toasts, showToast, confirm, confirmStore, i18n }`
 *   (see AppServices in ./services.ts);
 * - `useT()`: the translate function; `useLocale()`: `ua` | `en_GB`;
 * - `useAuth(selector?)`: the auth state, re-rendering on change, e.g.
 *   `const account = useAuth((s) => s.account)`; call `useApp().auth.getState().login(creds)` to log in
 *   (the app then goes to `back` or /dashboard) and `.logout()` to log out (the app goes to /login);
 * - `useConfig()`: the runtime configuration of `GET /env`, or null;
 * - `useSeo({ title, description, jsonLd })`: see ./seo.ts.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { AuthState, LocaleCode, RuntimeConfig, Translate } from '@poruch/core';
import type { AppServices } from './services.js';
import { useStore } from 'zustand';

const AppContext = createContext<AppServices | null>(null);

export function AppProvider({
  services,
  children,
}: {
  services: AppServices;
  children: ReactNode;
}) {
  return <AppContext.Provider value={services}>{children}</AppContext.Provider>;
}

/** The app's services. Throws outside `<AppProvider>`. */
export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('[poruch] useApp() outside <AppProvider>');
  return services;
}

/** The translate function of the active locale. */
export const useT = (): Translate => useApp().t;

/** The active locale: `ua` or `en_GB`. */
export const useLocale = (): LocaleCode => useApp().locale;

const whole = <S,>(state: S): S => state;

/**
 * The auth state (or a part of it), re-rendering when it changes.
 *
 * @param selector Defaults to the whole state.
 */
export function useAuth<T = AuthState>(selector?: (state: AuthState) => T): T {
  return useStore(useApp().auth, selector ?? (whole as (state: AuthState) => T));
}

/** The runtime configuration from `GET /env`; null until it answers or when it failed. */
export function useConfig(): RuntimeConfig | null {
  return useStore(useApp().config);
}
