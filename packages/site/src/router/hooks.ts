import { createContext, useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import {
  getLocation,
  navigate,
  subscribeLocation,
  type NavigateOptions,
  type RouterLocation,
} from './history.js';
import type { RouteParams } from './match.js';

/** The current location; re-renders on every navigation. */
export function useLocation(): RouterLocation {
  return useSyncExternalStore(subscribeLocation, getLocation, getLocation);
}

/** `navigate(to, { replace, keepScroll })`: the same function on every render. */
export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  return navigate;
}

/** What the route table matched for the current path (given by the app's `<Routes>`). */
export interface RouteMatch {
  /** The route's name in the route table, e.g. `login`, `reset-password`, `profile`. */
  readonly name: string;
  /** The route's pattern, e.g. `/services/:id/:tab?`. */
  readonly pattern: string;
  /** `:name` parameters and `*` (the rest of the path under a `/*` route). */
  readonly params: RouteParams;
}

export const RouteContext = createContext<RouteMatch>({ name: '', pattern: '', params: {} });

/** The matched route and its parameters. */
export function useRoute(): RouteMatch {
  return useContext(RouteContext);
}

/** The matched route's parameters (`useParams().id` on `/services/:id`). */
export function useParams(): RouteParams {
  return useContext(RouteContext).params;
}

/** Sets, changes or (with null/undefined/'') removes query parameters. */
export type QueryUpdate = Record<string, string | number | boolean | null | undefined>;

/**
 * The query string as URLSearchParams, and a setter that merges changes into it. The setter
 * adds a history entry by default, so Back undoes a filter; pass `{ replace: true }` for
 * typing-as-you-go. The scroll position stays.
 */
export function useQuery(): [
  URLSearchParams,
  (update: QueryUpdate, options?: { replace?: boolean }) => void,
] {
  const { search, path } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setQuery = useCallback(
    (update: QueryUpdate, options: { replace?: boolean } = {}) => {
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(update)) {
        if (v === null || v === undefined || v === '' || v === false) next.delete(k);
        else next.set(k, String(v));
      }
      const qs = next.toString();
      if (`?${qs}` === window.location.search || (!qs && !window.location.search)) return;
      navigate(`${path}${qs ? `?${qs}` : ''}`, { replace: options.replace, keepScroll: true });
    },
    [path],
  );
  return [params, setQuery];
}
