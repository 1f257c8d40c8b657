import { useSyncExternalStore } from 'react';
import type { Store } from './createStore.js';

/** The state of a {@link Store}, re-rendering on every change. */
export function useStore<S extends object>(store: Store<S>): S {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
