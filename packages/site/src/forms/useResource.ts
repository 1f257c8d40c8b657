import { useCallback, useEffect, useState } from 'react';

export type ResourceState<T> =
  | { status: 'loading'; data?: T }
  | { status: 'error'; error: unknown; data?: T }
  | { status: 'ready'; data: T };

/**
 * Loads data for a screen and keeps it: loading, error (the client has shown the toast) and
 * ready states, `reload()`, and `setData()` to apply a change the server confirmed without a
 * new round trip. A newer load wins over an older one.
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): ResourceState<T> & { reload: () => void; setData: (update: (data: T) => T) => void } {
  const [state, setState] = useState<ResourceState<T>>({ status: 'loading' });
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', ...(s.data !== undefined ? { data: s.data } : {}) }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  const setData = useCallback(
    (update: (data: T) => T) =>
      setState((s) => (s.status === 'ready' ? { status: 'ready', data: update(s.data) } : s)),
    [],
  );
  return { ...state, reload, setData };
}
