import { useCallback, useRef, useSyncExternalStore } from 'react';

/** The part of a zustand vanilla store a view needs. */
export interface ReadableStore<S> {
  getState(): S;
  subscribe(listener: (state: S, previous: S) => void): () => void;
}

/**
 * Reads a vanilla store (auth, toasts, confirm, config) in a component and re-renders when the
 * selected value changes (compared with Object.is).
 *
 * @param selector Defaults to the whole state.
 */
export function useStore<S, T = S>(
  store: ReadableStore<S>,
  selector: (state: S) => T = (s) => s as unknown as T,
): T {
  const selectorRef = useRef(selector);
  selectorRef.current = selector;
  const subscribe = useCallback((l: () => void) => store.subscribe(l), [store]);
  const get = useCallback(() => selectorRef.current(store.getState()), [store]);
  return useSyncExternalStore(subscribe, get, get);
}
