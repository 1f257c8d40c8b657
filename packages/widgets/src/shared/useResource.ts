import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isAbort } from './WidgetError.js';
import { useWidget, type WidgetContextValue } from './WidgetContext.js';

export interface Resource<T> {
  /** The last data loaded; kept while a reload runs. */
  data: T | undefined;
  /** The failure of the last load, if it failed. */
  error: unknown;
  /** True while a load runs. */
  loading: boolean;
  /** Loads again (the retry button). */
  retry: () => void;
}

/**
 * Loads data for a widget and drives its `state` attribute: `loading`, then `ready` or
 * `error`. A change of `deps` aborts the running load and starts a new one; unmounting aborts
 * it too, so a removed element leaves nothing running.
 *
 * @param load Receives the context (`api`, …) and an AbortSignal to pass to the call.
 * @param deps When any changes, the data is loaded again. Defaults to none.
 */
export function useResource<T>(
  load: (ctx: WidgetContextValue, signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[] = [],
): Resource<T> {
  const ctx = useWidget();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  useLayoutEffect(() => {
    loadRef.current = load;
  });
  const { setState } = ctx;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setState('loading');
    loadRef.current(ctx, controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setError(undefined);
        setLoading(false);
        setState('ready');
      },
      (e: unknown) => {
        if (controller.signal.aborted || isAbort(e)) return;
        setError(e);
        setLoading(false);
        setState('error', e);
      },
    );
    return () => controller.abort();
    // `deps` stand for what `load` reads; `load` itself is a new function every render.
  }, [ctx.api, attempt, ...deps]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { data, error, loading, retry };
}
