/**
 * A minimal external store: the state of a widget's logic (its connector), read by the React
 * component through `useSyncExternalStore` and by tests directly. No React, no DOM.
 */
export interface Store<S> {
  /** The current state; a new object after every change. */
  getState(): S;
  /** Merges a patch into the state and notifies the listeners. */
  setState(patch: Partial<S> | ((state: S) => Partial<S>)): void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** A {@link Store} holding `initial`. */
export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(patch) {
      const next = typeof patch === 'function' ? patch(state) : patch;
      state = { ...state, ...next };
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
