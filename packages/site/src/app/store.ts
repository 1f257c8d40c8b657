/** A minimal observable value, shaped like a zustand vanilla store so `useStore` reads it. */
export interface Store<S> {
  getState(): S;
  setState(next: S): void;
  subscribe(listener: (state: S, previous: S) => void): () => void;
}

export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<(state: S, previous: S) => void>();
  return {
    getState: () => state,
    setState(next) {
      if (Object.is(next, state)) return;
      const previous = state;
      state = next;
      listeners.forEach((l) => l(state, previous));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
